import { CashierType } from '@pipwise/domain';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { amountLimitFields, cashierTypeOptions, ENABLED_FIELD, SORT_FIELD } from '../components/CatalogueRules';
import { CatalogueTable } from '../components/CatalogueTable';
import { asText } from '../components/text';

export default function DepositChannels() {
  const { t } = useTranslation('catalogue');
  /** A coin channel needs a protocol and an address; a bank channel a bank and a payee (as the server checks). */
  const requiredFor =
    (type: number): Rule =>
    ({ getFieldValue }) => ({
      validator: async (_, value: unknown) => {
        if (getFieldValue('type') === type && !asText(value).trim()) throw new Error(t('validation.required'));
      },
    });
  return (
    <CatalogueTable
      area="deposit_channels"
      path="/deposit-channels"
      defaults={{ type: CashierType.coin, enabled: true, sort: 0 }}
      fields={[
        { name: 'type', kind: 'select', options: cashierTypeOptions(t), required: true, column: true },
        {
          name: 'currency_code',
          kind: 'text',
          required: true,
          pattern: /^[A-Z0-9]{2,10}$/,
          patternMessage: 'code',
          column: true,
        },
        {
          name: 'protocol_code',
          kind: 'text',
          pattern: /^([A-Z0-9]{2,20})?$/,
          patternMessage: 'protocol',
          column: true,
          rules: [requiredFor(CashierType.coin)],
        },
        { name: 'address', kind: 'text', maxLength: 200, rules: [requiredFor(CashierType.coin)] },
        { name: 'bank_name', kind: 'text', maxLength: 200, rules: [requiredFor(CashierType.bank)] },
        { name: 'bank_address', kind: 'text', maxLength: 300 },
        { name: 'bank_swift', kind: 'text', maxLength: 20 },
        { name: 'payee_name', kind: 'text', maxLength: 200, rules: [requiredFor(CashierType.bank)] },
        { name: 'payee_account', kind: 'text', maxLength: 100, rules: [requiredFor(CashierType.bank)] },
        { name: 'bank_remark', kind: 'text', maxLength: 500 },
        ...amountLimitFields(t('validation.max_below_min')),
        SORT_FIELD,
        ENABLED_FIELD,
      ]}
      fixedColumns={[{ key: 'id', dataIndex: 'id', title: t('field.id') }]}
    />
  );
}
