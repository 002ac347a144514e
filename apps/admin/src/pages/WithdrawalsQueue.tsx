import { WithdrawalStatus, type OperatorWithdrawalView, type ReviewContextView } from '@pipwise/domain';
import { Alert, Descriptions, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { DateTime, formatDateTime } from '../components/DateTime';
import { Money } from '../components/Money';
import { PayoutWarnings } from '../components/PayoutWarnings';
import { operatorName, ReviewQueue, StatusTag, StatusTimeline } from '../components/ReviewQueue';

type WithdrawalItem = OperatorWithdrawalView & ReviewContextView;

const STATUSES = [WithdrawalStatus.unreviewed, WithdrawalStatus.completed, WithdrawalStatus.rejected, WithdrawalStatus.invalid];

/** Withdrawals waiting for finance; above the four-eyes threshold two different operators must approve. */
export default function WithdrawalsQueue() {
  const { t } = useTranslation('reviews');
  const statusLabel = (status: number) => t(`withdrawal_status_${status}`);
  return (
    <ReviewQueue<WithdrawalItem>
      queue="withdrawals"
      title={t('withdrawals_title')}
      statuses={STATUSES.map((value) => ({ value, label: statusLabel(value) }))}
      idOf={(item) => item.id}
      statusOf={(item) => item.status}
      refusals={['reject', 'void']}
      approveBlocked={(item, me) =>
        item.first_approved_by && operatorName(item.first_approved_by) === me ? t('four_eyes_you_approved') : null
      }
      columns={[
        { key: 'id', title: t('id'), dataIndex: 'id' },
        { key: 'uid', title: t('uid'), render: (_, item) => item.user?.uid ?? item.user_id },
        { key: 'amount', title: t('withdraw_amount'), align: 'right', render: (_, item) => <Money value={item.number} /> },
        {
          key: 'payout',
          title: t('payout'),
          align: 'right',
          render: (_, item) => <Money value={item.real_number} currency={item.draw_currency.code} decimals={6} />,
        },
        {
          key: 'warnings',
          title: t('warnings'),
          render: (_, item) =>
            item.warnings.length > 0 ? <Tag color="orange">{t('warnings_short', { count: item.warnings.length })}</Tag> : null,
        },
        {
          key: 'status',
          title: t('status'),
          render: (_, item) => (
            <StatusTag
              status={item.status}
              label={item.status_reason ? t(`end_${item.status_reason}`) : statusLabel(item.status)}
            />
          ),
        },
        {
          key: 'four_eyes',
          title: t('four_eyes'),
          render: (_, item) => <FourEyesTag item={item} />,
        },
        { key: 'created', title: t('submitted_at'), render: (_, item) => <DateTime value={item.created_at} /> },
      ]}
      detail={(item) => (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          {item.status === WithdrawalStatus.unreviewed && item.first_approved_by && (
            <Alert
              type="info"
              showIcon
              title={t('first_approved_by', { operator: operatorName(item.first_approved_by) })}
              description={t('needs_second')}
            />
          )}
          {item.status === WithdrawalStatus.unreviewed && !item.first_approved_by && item.needs_second_approval && (
            <Alert type="info" showIcon title={t('four_eyes_required')} />
          )}
          <PayoutWarnings warnings={item.warnings} />
          <Descriptions
            size="small"
            bordered
            column={1}
            items={[
              { key: 'number', label: t('withdraw_amount'), children: <Money value={item.number} /> },
              { key: 'fee', label: t('fee'), children: <Money value={item.fee} /> },
              {
                key: 'payout',
                label: t('payout'),
                children: (
                  <Money
                    value={item.real_number}
                    currency={`${item.draw_currency.code} ${item.draw_currency.protocol}`}
                    decimals={6}
                  />
                ),
              },
              { key: 'rate', label: t('rate'), children: <LockedRate item={item} /> },
              { key: 'address', label: t('address'), children: item.address ?? '—' },
              { key: 'bank', label: t('bank_name'), children: item.bank_name ?? '—' },
              { key: 'account', label: t('payee_account'), children: item.payee_account ?? '—' },
              { key: 'notes', label: t('notes'), children: item.notes ?? '—' },
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

function FourEyesTag({ item }: { item: WithdrawalItem }) {
  const { t } = useTranslation('reviews');
  if (item.first_approved_by)
    return <Tag color="gold">{t('first_approved_short', { operator: operatorName(item.first_approved_by) })}</Tag>;
  if (item.needs_second_approval) return <Tag>{t('two_approvals')}</Tag>;
  return null;
}

/** The rate the request locked: its value, and the market pair and quote time or the operators' setting time. */
function LockedRate({ item }: { item: WithdrawalItem }) {
  const { t } = useTranslation('reviews');
  return (
    <span data-testid="locked-rate">
      {t('rate_locked', { price: item.usd_price, code: item.draw_currency.code })}
      {item.rate_at && (
        <>
          {' · '}
          {item.rate_pair
            ? t('rate_market', { pair: item.rate_pair, time: formatDateTime(item.rate_at) })
            : item.rate_source === 'operator'
              ? t('rate_operator', { time: formatDateTime(item.rate_at) })
              : null}
        </>
      )}
    </span>
  );
}
