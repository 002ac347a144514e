import { lazy, Suspense } from 'react';
import { useSession } from '../stores/session';

const NoticeBell = lazy(() => import('./NoticeBell'));

/**
 * The bell, its code (badge, icon, queries) loaded after the screen's own; its 44 px place is held
 * meanwhile, so that the header does not move when it arrives.
 */
export function LazyNoticeBell() {
  const signedIn = useSession((state) => Boolean(state.token));
  if (!signedIn) return null;
  return (
    <Suspense fallback={<span className="notice-bell" aria-hidden="true" />}>
      <NoticeBell />
    </Suspense>
  );
}
