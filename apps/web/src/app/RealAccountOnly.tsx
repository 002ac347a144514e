import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { Screen } from '../components/Screen';
import { useSession } from '../stores/session';
import { loginPath, Paths } from '../routing/paths';

/**
 * The frame of the screens that move money or identity (wallet, deposit, withdraw, auth, invite,
 * password): signed out, to the login screen with the way back; on a demo account, the blocked
 * message (docs/api.md) with the ways to a real account. The server refuses demos too; this only says so first.
 */
export function RealAccountOnly() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const token = useSession((state) => state.token);
  const user = useSession((state) => state.user);
  if (!token) return <Navigate to={loginPath(location.pathname + location.search)} replace />;
  if (user?.is_demo !== 1) return <Outlet />;
  return (
    <Screen title={t('common.demo_blocked_title')} back>
      <div className="state-block" role="alert">
        <p>{t('common.demo_blocked')}</p>
        <Button color="primary" block onClick={() => void navigate(Paths.register)}>
          {t('auth.register')}
        </Button>
        <Button block onClick={() => void navigate(loginPath(location.pathname + location.search))}>
          {t('auth.login')}
        </Button>
      </div>
    </Screen>
  );
}
