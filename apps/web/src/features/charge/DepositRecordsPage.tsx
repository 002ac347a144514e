import { CashierType, DepositStatus, type CashierTypeValue, type DepositView } from '@pipwise/domain';
import { Popup, Steps, Tabs } from 'antd-mobile';
import { CloseOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDepositsQuery } from '../../api/queries/deposits';
import { Screen } from '../../components/Screen';
import { PagedList } from '../../components/PagedList';
import { formatDateTime, formatMoney } from '../../i18n/format';
import { depositAmounts } from './amounts';
import './charge.css';

const ALL = 'all';

const typeOf = (value: string | null): CashierTypeValue | undefined =>
  value === String(CashierType.coin) ? CashierType.coin : value === String(CashierType.bank) ? CashierType.bank : undefined;

const STATUS_TONE: Record<number, string> = {
  [DepositStatus.unchecked]: 'status-waiting',
  [DepositStatus.finished]: 'status-done',
  [DepositStatus.rejected]: 'status-failed',
  [DepositStatus.invalid]: 'status-void',
};

/** `/mine/charge/records?type=1|2`: the user's deposits, newest first, all types without `type`. */
export default function DepositRecordsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const type = typeOf(params.get('type'));
  const [open, setOpen] = useState<DepositView | null>(null);

  return (
    <Screen title={t('charge.records')} back>
      <Tabs
        className="charge-tabs"
        activeKey={type === undefined ? ALL : String(type)}
        onChange={(key) => setParams(key === ALL ? {} : { type: key }, { replace: true })}
      >
        <Tabs.Tab key={ALL} title={t('charge.type_all')} />
        <Tabs.Tab key={String(CashierType.coin)} title={t('charge.tab_coin')} />
        <Tabs.Tab key={String(CashierType.bank)} title={t('charge.tab_wire')} />
      </Tabs>
      <DepositList key={type ?? ALL} type={type} onOpen={setOpen} />
      <Popup
        visible={open !== null}
        onMaskClick={() => setOpen(null)}
        onClose={() => setOpen(null)}
        bodyClassName="deposit-detail-popup"
        closeOnMaskClick
      >
        {open && <DepositDetail record={open} onClose={() => setOpen(null)} />}
      </Popup>
    </Screen>
  );
}

function DepositList({ type, onOpen }: { type: CashierTypeValue | undefined; onOpen: (record: DepositView) => void }) {
  const { t } = useTranslation();
  const records = useDepositsQuery(type);
  const rows = records.data?.pages.flatMap((page) => page.data) ?? [];

  return (
    <PagedList
      query={records}
      rows={rows}
      label={t('charge.records')}
      className="deposit-list"
      emptyText={t('charge.no_records')}
      renderRow={(record) => (
        <li key={record.id}>
          <DepositRow record={record} onOpen={onOpen} />
        </li>
      )}
    />
  );
}

const typeName = (type: CashierTypeValue) => (type === CashierType.bank ? 'charge.tab_wire' : 'charge.tab_coin');

function DepositRow({ record, onOpen }: { record: DepositView; onOpen: (record: DepositView) => void }) {
  const { t } = useTranslation();
  const { shown, declared } = depositAmounts(record);
  const ended = record.status === DepositStatus.rejected || record.status === DepositStatus.invalid;
  return (
    <button type="button" className="deposit-row" data-deposit-id={record.id} onClick={() => onOpen(record)}>
      <span className="deposit-row-head">
        <span className="deposit-amount">
          <span className="num">{formatMoney(shown)}</span> {record.currency_code}
          {declared !== null && (
            <span className="deposit-declared">
              {t('charge.declared_short')} <span className="num">{formatMoney(declared)}</span>
            </span>
          )}
        </span>
        <span className={`deposit-status ${STATUS_TONE[record.status] ?? ''}`}>{record.status_name}</span>
      </span>
      <span className="deposit-row-meta">
        <span>{t(typeName(record.type))}</span>
        <span className="num">{formatDateTime(record.created_at)}</span>
      </span>
      {ended && record.remark && <span className="deposit-remark">{t('charge.reason', { reason: record.remark })}</span>}
    </button>
  );
}

function DepositDetail({ record, onClose }: { record: DepositView; onClose: () => void }) {
  const { t } = useTranslation();
  const ended = record.status === DepositStatus.rejected || record.status === DepositStatus.invalid;
  const last = record.timeline.length - 1;
  return (
    <section className="deposit-detail" aria-label={t('charge.detail')}>
      <div className="deposit-detail-head">
        <h2 className="deposit-detail-title">{t('charge.detail')}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} onClick={onClose}>
          <CloseOutline aria-hidden="true" />
        </button>
      </div>
      <dl className="deposit-facts">
        <dt>{t('charge.amount_declared')}</dt>
        <dd>
          <span className="num">{formatMoney(record.number)}</span> {record.currency_code}
        </dd>
        {record.credited_number !== null && (
          <>
            <dt>{t('charge.amount_credited')}</dt>
            <dd>
              <span className="num">{formatMoney(record.credited_number)}</span>
            </dd>
          </>
        )}
        <dt>{t('charge.type')}</dt>
        <dd>
          {t(typeName(record.type))}
          {record.protocol_code ? ` · ${record.protocol_code}` : ''}
        </dd>
        <dt>{t('charge.status')}</dt>
        <dd className={STATUS_TONE[record.status]}>{record.status_name}</dd>
        <dt>{t('charge.created_at')}</dt>
        <dd>
          <span className="num">{formatDateTime(record.created_at)}</span>
        </dd>
        {record.remark && (
          <>
            <dt>{t('charge.remark')}</dt>
            <dd>
              <bdi>{record.remark}</bdi>
            </dd>
          </>
        )}
      </dl>
      <h3 className="deposit-timeline-title">{t('charge.timeline')}</h3>
      <Steps direction="vertical" current={last} aria-label={t('charge.timeline')}>
        {record.timeline.map((event, index) => (
          <Steps.Step
            key={`${event.status}-${event.created_at}`}
            title={event.status_name}
            status={
              index === last && ended
                ? 'error'
                : index === last && record.status === DepositStatus.unchecked
                  ? 'process'
                  : 'finish'
            }
            description={
              <>
                <span className="num">{formatDateTime(event.created_at)}</span>
                {event.note && <bdi className="deposit-note">{event.note}</bdi>}
              </>
            }
          />
        ))}
      </Steps>
    </section>
  );
}
