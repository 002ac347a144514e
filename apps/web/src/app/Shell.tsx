import { useQueryClient } from '@tanstack/react-query';
import { Activity, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { liveSocket, useOrderEvents } from '../api/live';
import { useUserInfoQuery } from '../api/queries/account';
import { marketKeys } from '../api/queries/market';
import { BusyOverlay } from '../components/BusyOverlay';
import { ConnectionBanner } from '../components/ConnectionBanner';
import { ScreenBoundary } from '../components/ScreenBoundary';
import { PageSkeleton } from '../components/states';
import { CompanySite } from '../company/CompanySite';
import { useDisclosurePrompt } from '../stores/disclosurePrompt';
import { useNoticeToasts } from '../stores/noticeToasts';
import { useSession } from '../stores/session';
import { loginPath, Paths } from '../routing/paths';
import { TABS } from './tabs';
import './shell.css';

/** Loaded with the first account notice pushed, not with the first screen. */
const NoticeToasts = lazy(() => import('../components/NoticeToasts'));
/** Loaded only for an account that has not accepted the risk disclosure in force. */
const DisclosureSheet = lazy(() => import('../features/disclosure/DisclosureSheet'));

/**
 * The frame of every route: the live socket (and the signed-in user's order events), the tab screens kept alive (scroll, chosen tab and loaded
 * pages survive leaving and coming back, docs/api.md) and the footer tab bar. Other routes render through
 * the outlet.
 */
export function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const client = useQueryClient();
  const token = useSession((state) => state.token);
  const [visited, setVisited] = useState<string[]>([]);
  useUserInfoQuery();
  const toasts = useNoticeToasts((state) => state.shown.length > 0);
  const disclosureDue = useSession((state) => state.user?.risk_disclosure_due === 1);
  const disclosurePostponed = useDisclosurePrompt((state) => state.postponed);

  const tab = TABS.find((candidate) => candidate.path === location.pathname);
  const blocked = tab?.requiresLogin && !token;

  useEffect(() => liveSocket.start(), []);
  useEffect(() => liveSocket.login(token), [token]);
  useOrderEvents(Boolean(token));

  // Coming to the quotes or the trade tab from another screen fetches the list again; the screen the app
  // opens on has just asked for it (app/firstScreen.ts).
  const shownPath = useRef<string | null>(null);
  useEffect(() => {
    const cameFrom = shownPath.current;
    shownPath.current = location.pathname;
    if (cameFrom === null || cameFrom === location.pathname) return;
    if (location.pathname === Paths.home || location.pathname === Paths.trade) {
      void client.invalidateQueries({ queryKey: marketKeys.tradeLists() });
    }
  }, [location.pathname, client]);

  useEffect(() => {
    if (tab && !blocked && !visited.includes(tab.path)) setVisited((list) => [...list, tab.path]);
  }, [tab, blocked, visited]);

  if (blocked) return <Navigate to={loginPath(location.pathname + location.search)} replace />;

  const open = tab && !visited.includes(tab.path) ? [...visited, tab.path] : visited;
  const kept = TABS.filter((candidate) => open.includes(candidate.path) && (!candidate.requiresLogin || token));
  return (
    <div className="app">
      <ConnectionBanner />
      <BusyOverlay />
      {token && toasts && (
        <Suspense fallback={null}>
          <NoticeToasts />
        </Suspense>
      )}
      {token && disclosureDue && !disclosurePostponed && (
        <Suspense fallback={null}>
          <DisclosureSheet />
        </Suspense>
      )}
      <CompanySite />
      {kept.map(({ path, Screen }) => (
        <Activity key={path} mode={path === tab?.path ? 'visible' : 'hidden'}>
          <ScreenBoundary>
            <Suspense fallback={<PageSkeleton />}>
              <Screen />
            </Suspense>
          </ScreenBoundary>
        </Activity>
      ))}
      {!tab && (
        <ScreenBoundary key={location.pathname}>
          <Suspense fallback={<PageSkeleton />}>
            <Outlet />
          </Suspense>
        </ScreenBoundary>
      )}
      {tab && (
        <nav className="tab-bar" aria-label={t('nav.main')}>
          {TABS.map((item) => (
            // Real links: the whole tab (icon and title) is the target, reachable by keyboard.
            <NavLink key={item.path} to={item.path} end className="tab-bar-item">
              <span className="tab-bar-icon" aria-hidden="true">
                {item.icon}
              </span>
              <span className="tab-bar-title">{t(item.labelKey)}</span>
            </NavLink>
          ))}
        </nav>
      )}
    </div>
  );
}
