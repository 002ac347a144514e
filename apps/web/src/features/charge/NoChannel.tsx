import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/states';

/** docs/api.md: no channel to deposit by. */
export function NoChannel() {
  const { t } = useTranslation();
  return <EmptyState text={t('charge.no_channel')} />;
}
