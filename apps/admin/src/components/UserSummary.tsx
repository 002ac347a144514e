import type { ReviewUserView } from '@pipwise/domain';
import { Descriptions, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime } from './DateTime';
import { Money } from './Money';

const KYC_COLOURS = ['default', 'processing', 'success'] as const;

/** The user's account beside the item under review: who they are, what they hold, what they moved. */
export function UserSummary({ user }: { user: ReviewUserView | null | undefined }) {
  const { t } = useTranslation('reviews');
  if (!user) return null;
  return (
    <Descriptions
      size="small"
      bordered
      column={1}
      title={t('account_summary')}
      items={[
        { key: 'uid', label: t('uid'), children: user.uid },
        { key: 'email', label: t('email'), children: user.email ?? '—' },
        { key: 'phone', label: t('phone'), children: user.phone ?? '—' },
        { key: 'balance', label: t('balance'), children: <Money value={user.balance} /> },
        { key: 'equity', label: t('equity'), children: <Money value={user.equity} /> },
        {
          key: 'kyc',
          label: t('kyc_status'),
          children: <Tag color={KYC_COLOURS[user.kyc_status] ?? 'default'}>{t(`kyc_status_${user.kyc_status}`)}</Tag>,
        },
        { key: 'deposits', label: t('deposits_total'), children: <Money value={user.deposits_total} /> },
        { key: 'withdrawals', label: t('withdrawals_total'), children: <Money value={user.withdrawals_total} /> },
        { key: 'created', label: t('registered_at'), children: <DateTime value={user.created_at} /> },
      ]}
    />
  );
}
