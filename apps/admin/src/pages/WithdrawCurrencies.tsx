import { CashierType, dec, FIXED_FEE_TYPE } from '@pipwise/domain';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { amountLimitFields, cashierTypeOptions, ENABLED_FIELD, SORT_FIELD } from '../components/CatalogueRules';
import { CatalogueTable } from '../components/CatalogueTable';
import { asText } from '../components/text';

/** Any fee type but the fixed one charges amount × draw_rate. */
const RATE_FEE_TYPE = 2;

export default function WithdrawCurrencies() {
  const { t } = useTranslation('catalogue');
  /** A rate fee is a fraction of the amount: below 1 (as the server checks). */
  const rateBelowOne: Rule = ({ getFieldValue }) => ({
    validator: async (_, value: unknown) => {
      const text = asText(value);
      if (getFieldValue('fee_type') === RATE_FEE_TYPE && /^\d+(\.\d+)?$/.test(text) && dec(text).gte(1))
        throw new Error(t('validation.rate_below_one'));
    },
  });
  return (
    <CatalogueTable
      area="withdraw_currencies"
      path="/withdraw-currencies"
      defaults={{ type: CashierType.coin, fee_type: FIXED_FEE_TYPE, enabled: true, sort: 0 }}
      fields={[
        {
          name: 'type',
          kind: 'select',
          required: true,
          column: true,
          options: cashierTypeOptions(t),
        },
        { name: 'code', kind: 'text', required: true, pattern: /^[A-Z0-9]{2,10}$/, patternMessage: 'code', column: true },
        { name: 'protocol', kind: 'text', pattern: /^([A-Z0-9]{2,20})?$/, patternMessage: 'protocol', column: true },
        {
          name: 'fee_type',
          kind: 'select',
          required: true,
          column: true,
          options: [
            { value: FIXED_FEE_TYPE, label: t('fee_type.fixed') },
            { value: RATE_FEE_TYPE, label: t('fee_type.rate') },
          ],
        },
        {
          name: 'draw_rate',
          kind: 'decimal',
          decimals: 8,
          zero: true,
          required: true,
          column: true,
          rules: [rateBelowOne],
        },
        { name: 'usd_price', kind: 'decimal', decimals: 8, required: true, column: true },
        ...amountLimitFields(t('validation.max_below_min')),
        SORT_FIELD,
        ENABLED_FIELD,
      ]}
      fixedColumns={[{ key: 'id', dataIndex: 'id', title: t('field.id') }]}
    />
  );
}
