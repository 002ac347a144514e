import { companyQuery, companyStatusQuery } from '../api/queries/company';
import { appHistory } from './router';
import { queryClient } from './setup';
import { TABS } from './tabs';

/**
 * What the screen the app opens on waits for, asked for while the messages load instead of after the first
 * render: the company's name and status (the frame's brand, home's largest paint), the tab's own data, and a
 * lazy tab's code. Each was a round trip after the last before (docs/benchmarks.md).
 */
export function startFirstScreen() {
  void queryClient.prefetchQuery(companyStatusQuery);
  void queryClient.prefetchQuery(companyQuery);
  const tab = TABS.find((candidate) => candidate.path === appHistory.location.pathname);
  tab?.prefetch?.(queryClient);
  // A failed download shows when the screen draws: its error boundary offers a retry.
  if (tab && 'preload' in tab.Screen) tab.Screen.preload().catch(() => undefined);
}
