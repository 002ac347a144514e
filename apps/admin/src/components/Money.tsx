import { BALANCE_DECIMALS, Dec, dec, roundBalance, type DecimalInput } from '@pipwise/domain';
import { Typography } from 'antd';

const GROUPS = /\B(?=(\d{3})+(?!\d))/g;

/** A money figure as text with thousands separators, rounded at display half away from zero (never float arithmetic). */
export function formatMoney(value: DecimalInput, decimals = BALANCE_DECIMALS, signed = false): string {
  const fixed = dec(value).toDecimalPlaces(decimals, Dec.ROUND_HALF_UP).toFixed(decimals);
  const negative = fixed.startsWith('-');
  const [whole = '0', fraction] = (negative ? fixed.slice(1) : fixed).split('.');
  const grouped = whole.replace(GROUPS, ',') + (fraction ? `.${fraction}` : '');
  if (negative) return `-${grouped}`;
  return signed && !dec(fixed).isZero() ? `+${grouped}` : grouped;
}

/** Text an operator typed as an amount: digits with at most two decimals. */
export const AMOUNT_PATTERN = /^\d+(\.\d{1,2})?$/;

/** An amount typed by an operator as the JSON number the API takes (2 decimals, parsed by decimal.js). */
export const amountFromText = (text: string): number => roundBalance(text.trim()).toNumber();

export function Money({
  value,
  currency,
  signed = false,
  decimals,
}: {
  value: DecimalInput | null | undefined;
  currency?: string;
  signed?: boolean;
  decimals?: number;
}) {
  if (value === null || value === undefined) return <Typography.Text type="secondary">—</Typography.Text>;
  const text = formatMoney(value, decimals, signed);
  const negative = text.startsWith('-');
  return (
    <Typography.Text
      type={signed && negative ? 'danger' : undefined}
      style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {text}
      {currency ? ` ${currency}` : ''}
    </Typography.Text>
  );
}
