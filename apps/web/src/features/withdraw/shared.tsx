import { CashierType, type CashierTypeValue, type DrawMethodView, type WithdrawCurrencyView } from '@pipwise/domain';
import { Radio } from 'antd-mobile';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import './withdraw.css';

/** `?type=` of withdraw-way and the lists: 1 coin, 2 bank; anything else reads as coin. */
export const cashierTypeOf = (value: string | null): CashierTypeValue =>
  Number(value) === CashierType.bank ? CashierType.bank : CashierType.coin;

/** "USDT (TRC20)", or just the code when the currency has no protocol (a bank currency). */
export const currencyName = (currency: Pick<WithdrawCurrencyView, 'code' | 'protocol'>) =>
  currency.protocol ? `${currency.code} (${currency.protocol})` : currency.code;

/** Where a method pays out: the address, or the bank and account number. */
export const methodDestination = (method: DrawMethodView) =>
  method.type === CashierType.coin ? (method.dc_address ?? '') : `${method.bank_name ?? ''} ${method.payee_account ?? ''}`.trim();

/**
 * A labelled figure: the label above, the value under it, in both directions. The number is isolated
 * (bdi) so Arabic text around it cannot reorder its digits or its unit.
 */
export function Figure({ label, text, unit }: { label: string; text: string; unit?: string | undefined }) {
  return (
    <div className="wd-figure">
      <span className="wd-figure-label">{label}</span>
      <output className="wd-figure-value" aria-label={label}>
        <bdi>{text}</bdi>
        {unit && <span className="wd-unit">{unit}</span>}
      </output>
    </div>
  );
}

/** Coin or bank, as two radio buttons. */
export function TypePicker({ value, onChange }: { value: CashierTypeValue; onChange: (type: CashierTypeValue) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group value={value} onChange={(next) => onChange(next as CashierTypeValue)}>
      <div className="wd-options wd-options-row" role="radiogroup" aria-label={t('withdraw.type')}>
        <Radio value={CashierType.coin}>{t('withdraw.type_coin')}</Radio>
        <Radio value={CashierType.bank}>{t('withdraw.type_bank')}</Radio>
      </div>
    </Radio.Group>
  );
}

/** A withdraw currency picker with its loading, error and empty states. */
export function CurrencyPicker(props: {
  currencies: WithdrawCurrencyView[] | undefined;
  pending: boolean;
  failed: boolean;
  onRetry: () => void;
  value: number | undefined;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  if (props.pending) return <ListSkeleton rows={2} />;
  if (props.failed) return <ErrorState onRetry={props.onRetry} />;
  if (!props.currencies?.length) return <EmptyState text={t('withdraw.no_currencies')} />;
  return (
    <Radio.Group value={props.value ?? null} onChange={(next) => props.onChange(Number(next))}>
      <div className="wd-options wd-options-row" role="radiogroup" aria-label={t('withdraw.currency')}>
        {props.currencies.map((currency) => (
          <Radio key={currency.id} value={currency.id}>
            {currencyName(currency)}
          </Radio>
        ))}
      </div>
    </Radio.Group>
  );
}

/** A titled block of a form. */
export function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section className="wd-section" aria-labelledby={id}>
      <h2 className="wd-section-title" id={id}>
        {title}
      </h2>
      {children}
    </section>
  );
}
