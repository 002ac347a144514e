import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../stores/session';
import { loginPath } from '../routing/paths';
import { lazyScreen } from './antdRender';

/** Loaded when a demo account opens one of these screens, so the first screen carries no top bar's code. */
const DemoBlocked = lazyScreen(() => import('./DemoBlocked'));

/**
 * The frame of the screens that move money or identity (wallet, deposit, withdraw, auth, invite,
 * password): signed out, to the login screen with the way back; on a demo account, the blocked
 * message (docs/api.md) with the ways to a real account. The server refuses demos too; this only says so first.
 */
export function RealAccountOnly() {
  const location = useLocation();
  const token = useSession((state) => state.token);
  const user = useSession((state) => state.user);
  if (!token) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  return user?.is_demo === 1 ? <DemoBlocked /> : <Outlet />;
}
