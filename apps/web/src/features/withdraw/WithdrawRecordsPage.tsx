import { CashierType, WithdrawalStatus, type WithdrawalView } from '@pipwise/domain';
import { Button, Dialog, InfiniteScroll, Popup, Steps, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCancelWithdrawalMutation, useWithdrawalsQuery } from '../../api/queries/withdraw';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime, formatMoney } from '../../i18n/format';
import { Figure } from './shared';

const BALANCE_UNIT = 'USD';

const destinationOf = (record: WithdrawalView) =>
  record.type === CashierType.coin ? (record.address ?? '') : `${record.bank_name ?? ''} ${record.payee_account ?? ''}`.trim();

/** The user's withdrawals, newest first; a tap opens one with its timeline. */
export default function WithdrawRecordsPage() {
  const { t } = useTranslation();
  const records = useWithdrawalsQuery();
  const rows = records.data?.pages.flatMap((page) => page.data) ?? [];
  const [openId, setOpenId] = useState<number | null>(null);
  const open = rows.find((record) => record.id === openId);

  return (
    <Screen title={t('withdraw.records')} back>
      {records.isPending ? (
        <ListSkeleton />
      ) : records.isError && rows.length === 0 ? (
        <ErrorState onRetry={() => void records.refetch()} />
      ) : rows.length === 0 ? (
        <EmptyState text={t('withdraw.no_records')} />
      ) : (
        <>
          <ul className="wd-list wd-records" aria-label={t('withdraw.records')}>
            {rows.map((record) => (
              <li key={record.id}>
                <button type="button" className="wd-record" onClick={() => setOpenId(record.id)}>
                  <span className="wd-record-head">
                    <strong>
                      <bdi>{formatMoney(record.number)}</bdi> {BALANCE_UNIT}
                    </strong>
                    <span className={`wd-status wd-status-${record.status}`}>{record.status_name}</span>
                  </span>
                  <span className="wd-record-line">
                    {t('withdraw.fee')}: <bdi>{formatMoney(record.fee)}</bdi> · {t('withdraw.received')}:{' '}
                    <bdi>{formatMoney(record.real_number)}</bdi> {record.draw_currency.code}
                  </span>
                  <bdi className="wd-destination">{destinationOf(record)}</bdi>
                  <span className="wd-record-time">{formatDateTime(record.created_at)}</span>
                </button>
              </li>
            ))}
          </ul>
          <InfiniteScroll hasMore={records.hasNextPage} loadMore={async () => void (await records.fetchNextPage())}>
            <span className="list-end">{records.hasNextPage ? t('common.loading') : t('common.no_more')}</span>
          </InfiniteScroll>
        </>
      )}
      <Popup visible={Boolean(open)} onMaskClick={() => setOpenId(null)} onClose={() => setOpenId(null)} bodyClassName="wd-popup">
        {open && <WithdrawalDetail record={open} onClose={() => setOpenId(null)} />}
      </Popup>
    </Screen>
  );
}

function WithdrawalDetail({ record, onClose }: { record: WithdrawalView; onClose: () => void }) {
  const { t } = useTranslation();
  const cancel = useCancelWithdrawalMutation();

  const confirmCancel = () =>
    void Dialog.confirm({
      content: t('withdraw.cancel_confirm'),
      confirmText: t('withdraw.cancel_withdrawal'),
      cancelText: t('common.close'),
      onConfirm: async () => {
        await cancel.mutateAsync(record.id);
        Toast.show({ icon: 'success', content: t('withdraw.cancelled') });
      },
    });

  return (
    <section className="wd-detail" role="dialog" aria-label={t('withdraw.detail')}>
      <h2 className="wd-section-title">{t('withdraw.detail')}</h2>
      <Figure label={t('withdraw.amount')} text={formatMoney(record.number)} unit={BALANCE_UNIT} />
      <Figure label={t('withdraw.fee')} text={formatMoney(record.fee)} unit={BALANCE_UNIT} />
      <Figure label={t('withdraw.received')} text={formatMoney(record.real_number)} unit={record.draw_currency.code} />
      <div className="wd-figure">
        <span className="wd-figure-label">{t('withdraw.destination')}</span>
        <bdi className="wd-destination">{destinationOf(record)}</bdi>
      </div>
      {record.notes && (
        <div className="wd-figure">
          <span className="wd-figure-label">{t('withdraw.memo')}</span>
          <span>{record.notes}</span>
        </div>
      )}
      <h3 className="wd-section-title">{t('withdraw.timeline')}</h3>
      <Steps direction="vertical" current={record.timeline.length - 1}>
        {record.timeline.map((event) => (
          <Steps.Step
            key={`${event.status}-${event.created_at}`}
            title={event.status_name}
            status={event.status === WithdrawalStatus.rejected ? 'error' : 'finish'}
            description={
              <>
                <span className="wd-record-time">{formatDateTime(event.created_at)}</span>
                {event.status === WithdrawalStatus.unreviewed && <LockedRate record={record} />}
                {event.note && <span className="wd-step-note">{event.note}</span>}
              </>
            }
          />
        ))}
      </Steps>
      {record.status === WithdrawalStatus.unreviewed && (
        <Button block color="danger" fill="outline" onClick={confirmCancel} disabled={cancel.isPending}>
          {t('withdraw.cancel_withdrawal')}
        </Button>
      )}
      <Button block onClick={onClose}>
        {t('common.close')}
      </Button>
    </section>
  );
}

/** The rate the request locked, on its first step: its value, and the market pair and quote time or when we set it. */
function LockedRate({ record }: { record: WithdrawalView }) {
  const { t } = useTranslation();
  const at = record.rate_at && formatDateTime(record.rate_at);
  return (
    <span className="wd-step-note wd-rate-locked">
      {t('withdraw.rate_locked', { price: record.usd_price, code: record.draw_currency.code })}
      {at && record.rate_pair && <> · {t('withdraw.rate_market', { pair: record.rate_pair, time: at })}</>}
      {at && record.rate_source === 'operator' && <> · {at}</>}
    </span>
  );
}
