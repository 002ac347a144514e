import { useTranslation } from 'react-i18next';
import { useBusy } from '../stores/busy';
import './BusyOverlay.css';

/**
 * Holds the screen still while a call the person made is under way, with a spinner. Its own layer, not
 * antd-mobile's loading Toast: that is the one Toast slot, so ending the wait closed whatever message had
 * been shown meanwhile (the switch's "You are trading on the demo account", a withdrawal's receipt).
 */
export function BusyOverlay() {
  const { t } = useTranslation();
  const busy = useBusy((state) => state.count > 0);
  if (!busy) return null;
  return (
    <div className="busy-overlay" role="status" aria-label={t('common.loading')}>
      <span className="busy-spinner" aria-hidden="true" />
    </div>
  );
}
