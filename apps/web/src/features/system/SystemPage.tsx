import { useQueryClient } from '@tanstack/react-query';
import { Button, List, Toast } from 'antd-mobile';
import { DeleteOutline, GlobalOutline, InformationCircleOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { forgetCachedTradeList } from '../../api/queries/market';
import { Paths } from '../../routing/paths';
import { APP_VERSION } from '../../version';
import { Screen } from '../../components/Screen';
import { currentLanguage } from '../../i18n';
import { LANGUAGE_NAMES } from '../../components/LanguageList';
import { PolicyNotice } from '../../components/PolicyNotice';
import { useLogout } from '../../components/useLogout';
import './system.css';

/**
 * Settings of this device (docs/api.md system): language, clearing what the app keeps, the version, the policy
 * notice and logout with its confirmation.
 */
export default function SystemPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const confirmLogout = useLogout();

  /**
   * Everything fetched is dropped and what is on screen fetched again; the session and the language live
   * elsewhere (local storage) and stay.
   */
  const clearCache = async () => {
    forgetCachedTradeList();
    await client.resetQueries();
    Toast.show({ icon: 'success', content: t('system.cache_cleared') });
  };

  return (
    <Screen title={t('system.title')} back>
      <List className="system-list">
        <List.Item
          prefix={<GlobalOutline />}
          extra={LANGUAGE_NAMES[currentLanguage()]}
          onClick={() => void navigate(Paths.language)}
        >
          {t('language.title')}
        </List.Item>
        <List.Item prefix={<DeleteOutline />} onClick={() => void clearCache()} arrowIcon={false}>
          {t('system.clear_cache')}
        </List.Item>
        <List.Item
          prefix={<InformationCircleOutline />}
          extra={
            <span className="system-version" translate="no">
              {APP_VERSION}
            </span>
          }
          arrowIcon={false}
        >
          {t('system.version')}
        </List.Item>
      </List>
      <PolicyNotice />
      <div className="system-logout">
        <Button block size="large" color="danger" fill="outline" onClick={confirmLogout}>
          {t('user.logout')}
        </Button>
      </div>
    </Screen>
  );
}
