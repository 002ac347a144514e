import { MailOutline } from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useBasicInfoQuery } from '../../api/queries/auth';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { CopyText } from '../../components/CopyText';
import './complaint.css';

/** The complaint e-mail address (docs/api.md email), from getBasicInfo's complaint_email. */
export default function ComplaintEmailPage() {
  const { t } = useTranslation();
  const info = useBasicInfoQuery();
  const address = info.data?.complaint_email.trim() ?? '';
  return (
    <Screen title={t('complaint.title')} back>
      {info.isPending ? (
        <ListSkeleton rows={2} />
      ) : info.isError ? (
        <ErrorState onRetry={() => void info.refetch()} />
      ) : !address ? (
        <EmptyState text={t('complaint.none')} />
      ) : (
        <section className="complaint-email">
          <p className="complaint-intro">{t('complaint.intro')}</p>
          <CopyText label={t('complaint.address')} value={address} mono />
          <a className="complaint-mailto" href={`mailto:${address}`}>
            <MailOutline aria-hidden="true" />
            <span>{t('complaint.write')}</span>
          </a>
        </section>
      )}
    </Screen>
  );
}
