import { useTranslation } from 'react-i18next';
import { ledgerRows, useLedgerQuery } from '../../api/queries/ledger';
import type { LedgerEntry } from '../../api/types';
import { profitTone } from '../../components/market';
import { Screen } from '../../components/Screen';
import { PagedList } from '../../components/PagedList';
import { formatMoney, formatNumber } from '../../i18n/format';
import './history.css';

/**
 * A label per ledger type the server writes (its `LedgerType`); a type added later reads as "Other",
 * under `type_misc` since a key ending in `_other` is an i18next plural form.
 */
const TYPE_LABELS: Record<string, string> = {
  demo_grant: 'history.type_demo_grant',
  demo_reset: 'history.type_demo_reset',
  trade_fee: 'history.type_trade_fee',
  trade_profit: 'history.type_trade_profit',
  write_off: 'history.type_write_off',
  deposit: 'history.type_deposit',
  withdrawal: 'history.type_withdrawal',
  withdrawal_fee: 'history.type_withdrawal_fee',
  adjustment: 'history.type_adjustment',
};

export default function HistoryPage() {
  const { t } = useTranslation();
  const ledger = useLedgerQuery();
  const rows = ledgerRows(ledger.data);

  return (
    <Screen title={t('history.title')} back>
      <PagedList
        query={ledger}
        rows={rows}
        label={t('history.list')}
        className="ledger-list"
        emptyText={t('history.empty')}
        renderRow={(entry) => <LedgerRow key={entry.Id} entry={entry} />}
      />
    </Screen>
  );
}

function LedgerRow({ entry }: { entry: LedgerEntry }) {
  const { t } = useTranslation();
  return (
    <li className="ledger-row" data-ledger-id={entry.Id} data-ledger-type={entry.Type}>
      <span className="ledger-type">{t(TYPE_LABELS[entry.Type] ?? 'history.type_misc')}</span>
      <span className={`num ledger-amount ${profitTone(entry.Value)}`} data-testid="ledger-amount">
        {formatNumber(entry.Value, 2, true)}
      </span>
      {entry.MemoTran && <span className="ledger-memo">{entry.MemoTran}</span>}
      <time className="num" dateTime={entry.CreatedAt}>
        {entry.CreatedAtTran}
      </time>
      <span className="ledger-after">{t('history.balance_after', { amount: formatMoney(entry.BalanceAfter) })}</span>
    </li>
  );
}
