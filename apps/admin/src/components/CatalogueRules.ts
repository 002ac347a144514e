import {
  CashierType,
  dec,
  type DepositChannelView,
  type InstrumentAdminView,
  type WithdrawCurrencyAdminListView,
} from '@pipwise/domain';
import type { Rule } from 'antd/es/form';
import type { CatalogueField } from './CatalogueTable';
import { asText } from './text';

const DECIMAL = /^\d+(\.\d+)?$/;

/** A maximum that must not be below its minimum (compared as decimals, never floats). */
export const maxNotBelowMin =
  (message: string, minField = 'min_amount'): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      const min = getFieldValue(minField) as unknown;
      if (value === undefined || value === null || min === undefined || min === null) return;
      if (!DECIMAL.test(asText(value)) || !DECIMAL.test(asText(min))) return;
      if (dec(asText(value)).lessThan(asText(min))) throw new Error(message);
    },
  });

/** The display order catalogue rows carry. */
export const SORT_FIELD: CatalogueField = { name: 'sort', kind: 'integer', required: true, column: true };

export const ENABLED_FIELD: CatalogueField<InstrumentAdminView | DepositChannelView | WithdrawCurrencyAdminListView> = {
  name: 'enabled',
  kind: 'switch',
  column: true,
};

/** A deposit channel's or withdrawal currency's limits per request, in money (2 decimals). */
export const amountLimitFields = (maxBelowMin: string): CatalogueField<DepositChannelView | WithdrawCurrencyAdminListView>[] => [
  { name: 'min_amount', kind: 'decimal', decimals: 2, required: true, column: true },
  { name: 'max_amount', kind: 'decimal', decimals: 2, required: true, column: true, rules: [maxNotBelowMin(maxBelowMin)] },
];

/** Coin or bank: how a deposit channel or withdrawal currency pays. */
export const cashierTypeOptions = (t: (key: string) => string) => [
  { value: CashierType.coin, label: t('cashier_type.coin') },
  { value: CashierType.bank, label: t('cashier_type.bank') },
];
