import { Toast } from 'antd-mobile';
import { i18n } from '../i18n';

/**
 * A money request is not sent while the browser is offline: the user hears so at once, instead of after
 * resends that all fail, and nothing is queued to leave later without them.
 */
export function refusedOffline(): boolean {
  if (typeof navigator === 'undefined' || navigator.onLine) return false;
  Toast.show({ content: i18n.t('common.offline_not_sent') });
  return true;
}
