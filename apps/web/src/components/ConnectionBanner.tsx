import { useTranslation } from 'react-i18next';
import { useFeedState } from '../api/feed';

/**
 * Says, on every screen and above any popup, that the prices shown are stale: the device is offline or
 * the live feed is reconnecting. Orders are refused meanwhile (the order ticket and the API client).
 */
export function ConnectionBanner() {
  const { t } = useTranslation();
  const state = useFeedState();
  if (state !== 'offline' && state !== 'reconnecting') return null;
  return (
    <div className="connection-banner" role="alert">
      {t(state === 'offline' ? 'common.offline' : 'common.reconnecting')}
    </div>
  );
}
