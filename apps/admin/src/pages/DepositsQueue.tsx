import { DepositStatus, type OperatorDepositView, type ReviewContextView } from '@pipwise/domain';
import { Descriptions, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime } from '../components/DateTime';
import { formatMoney, Money } from '../components/Money';
import { ProofImage } from '../components/ProofImage';
import { operatorName, ReviewQueue, StatusTag, StatusTimeline } from '../components/ReviewQueue';

type DepositItem = OperatorDepositView & ReviewContextView;

const STATUSES = [DepositStatus.unchecked, DepositStatus.finished, DepositStatus.rejected, DepositStatus.invalid];

/** Deposits waiting for finance: the proof, the user's account, credit what arrived or refuse with a reason. */
export default function DepositsQueue() {
  const { t } = useTranslation('reviews');
  const statusLabel = (status: number) => t(`deposit_status_${status}`);
  const itemLabel = (item: DepositItem) => (item.status_reason ? t(`end_${item.status_reason}`) : statusLabel(item.status));
  return (
    <ReviewQueue<DepositItem>
      queue="deposits"
      title={t('deposits_title')}
      statuses={STATUSES.map((value) => ({ value, label: statusLabel(value) }))}
      idOf={(item) => item.id}
      statusOf={(item) => item.status}
      refusals={['reject', 'void']}
      approveAmount={(item) => item.number}
      columns={[
        { key: 'id', title: t('id'), dataIndex: 'id' },
        { key: 'uid', title: t('uid'), render: (_, item) => item.user?.uid ?? item.user_id },
        {
          // What was credited once finished (the declared amount beside it when they differ), else what was declared.
          key: 'amount',
          title: t('amount'),
          align: 'right',
          render: (_, item) => {
            const credited = item.credited_number;
            return (
              <span data-testid="deposit-amount">
                <Money value={credited ?? item.number} currency={item.currency_code} />
                {credited !== null && credited !== item.number && (
                  <Typography.Text type="secondary">
                    {' '}
                    ({t('declared_short', { amount: formatMoney(item.number) })})
                  </Typography.Text>
                )}
              </span>
            );
          },
        },
        {
          key: 'protocol',
          title: t('channel'),
          render: (_, item) => [item.currency_code, item.protocol_code].filter(Boolean).join(' · '),
        },
        {
          key: 'status',
          title: t('status'),
          render: (_, item) => <StatusTag status={item.status} label={itemLabel(item)} />,
        },
        { key: 'created', title: t('submitted_at'), render: (_, item) => <DateTime value={item.created_at} /> },
      ]}
      detail={(item) => (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <ProofImage src={item.proof_url} alt={t('proof_image')} width={480} />
          <Descriptions
            size="small"
            bordered
            column={1}
            items={[
              {
                key: 'amount',
                label: t('declared_amount'),
                children: <Money value={item.number} currency={item.currency_code} />,
              },
              {
                key: 'credited',
                label: t('credited_amount'),
                children: <Money value={item.credited_number} currency={item.currency_code} />,
              },
              { key: 'pay_to', label: t('pay_to'), children: item.pay_to || '—' },
              { key: 'from', label: t('from_address'), children: item.from_address ?? '—' },
              { key: 'remark', label: t('remark'), children: item.remark ?? '—' },
              { key: 'internal_note', label: t('internal_note'), children: item.internal_note ?? '—' },
              { key: 'decided_by', label: t('decided_by'), children: item.decided_by ? operatorName(item.decided_by) : '—' },
            ]}
          />
          <StatusTimeline events={item.timeline} label={statusLabel} />
        </Space>
      )}
    />
  );
}
