import Button from 'antd-mobile/es/components/button';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Screen } from '../components/Screen';
import { loginPath, Paths } from '../routing/paths';

/** What a demo account sees on a screen that moves money or identity (docs/api.md), with the ways to a real account. */
export default function DemoBlocked() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
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
