import { CashierType, ZChannelChange, ZChannelCreate, type DepositChannelView } from '@pipwise/domain';
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
    <CatalogueTable<DepositChannelView>
      area="deposit_channels"
      path="/deposit-channels"
      defaults={{ type: CashierType.coin, enabled: true, sort: 0 }}
      schemas={{ create: ZChannelCreate, change: ZChannelChange }}
      fields={[
        { name: 'type', kind: 'select', options: cashierTypeOptions(t), required: true, column: true },
        { name: 'currency_code', kind: 'text', required: true, column: true },
        { name: 'protocol_code', kind: 'text', column: true, rules: [requiredFor(CashierType.coin)] },
        { name: 'address', kind: 'text', rules: [requiredFor(CashierType.coin)] },
        { name: 'bank_name', kind: 'text', rules: [requiredFor(CashierType.bank)] },
        { name: 'bank_address', kind: 'text' },
        { name: 'bank_swift', kind: 'text' },
        { name: 'payee_name', kind: 'text', rules: [requiredFor(CashierType.bank)] },
        { name: 'payee_account', kind: 'text', rules: [requiredFor(CashierType.bank)] },
        { name: 'bank_remark', kind: 'text' },
        ...amountLimitFields(t('validation.max_below_min')),
        SORT_FIELD,
        ENABLED_FIELD,
      ]}
      fixedColumns={[{ key: 'id', dataIndex: 'id', title: t('field.id') }]}
    />
  );
}
