import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/states';

/** Spec §5, §8: no channel to deposit by. */
export function NoChannel() {
  const { t } = useTranslation();
  return <EmptyState text={t('charge.no_channel')} />;
}
