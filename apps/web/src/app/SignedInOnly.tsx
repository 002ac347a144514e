import { Navigate, Outlet, useLocation } from 'react-router';
import { useSession } from '../stores/session';
import { loginPath } from '../routing/paths';

/**
 * The frame of the screens any signed-in user may open, demo accounts included (the account history):
 * signed out, to the login screen with the way back (docs/api.md).
 */
export function SignedInOnly() {
  const location = useLocation();
  const token = useSession((state) => state.token);
  return token ? <Outlet /> : <Navigate to={loginPath(location.pathname + location.search)} replace />;
}
