import {
  CashierType,
  dec,
  FIXED_FEE_TYPE,
  RATE_FEE_TYPE,
  ZCurrencyChange,
  ZCurrencyCreate,
  type WithdrawCurrencyAdminListView,
} from '@pipwise/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Space, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { amountLimitFields, cashierTypeOptions, ENABLED_FIELD, SORT_FIELD } from '../components/CatalogueRules';
import { CatalogueTable } from '../components/CatalogueTable';
import { asText } from '../components/text';
import { adminApi } from '../api';
import { errorText, formatDateTime, TABULAR } from '../components/BackOfficeStates';

/** What the list adds to a currency: the rate users get now and where it comes from. */
type RateRow = Pick<
  WithdrawCurrencyAdminListView,
  'id' | 'code' | 'rate' | 'rate_source' | 'rate_pair' | 'rate_at' | 'rate_expires_at'
>;

/**
 * The rate users are charged now: a market pair's (the stored usd_price is then unused) or the operators'
 * with its validity, which "Confirm" renews without changing it.
 */
function CurrentRate({ row }: { row: RateRow }) {
  const { t } = useTranslation('catalogue');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const confirm = useMutation({
    mutationFn: () => adminApi('PUT', `/withdraw-currencies/${row.id}`, { body: { confirm_rate: true } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['catalogue', '/withdraw-currencies'] }),
    onError: (error) => void message.error(errorText(error, t('common:server_error'))),
  });
  const stale = row.rate_expires_at !== null && new Date(row.rate_expires_at) < new Date();
  return (
    <Space orientation="vertical" size={0}>
      <span style={TABULAR}>{row.rate}</span>
      <Typography.Text type={stale ? 'danger' : 'secondary'}>
        {row.rate_source === 'market'
          ? row.rate_pair
            ? t('withdraw_currencies.rate_source_market', { pair: row.rate_pair })
            : t('withdraw_currencies.rate_source_par')
          : stale
            ? t('withdraw_currencies.rate_stale')
            : t('withdraw_currencies.rate_source_operator', {
                time: formatDateTime(row.rate_at),
                until: formatDateTime(row.rate_expires_at),
              })}
      </Typography.Text>
      {row.rate_source === 'operator' && (
        <Button size="small" loading={confirm.isPending} onClick={() => confirm.mutate()}>
          {t('withdraw_currencies.rate_confirm')}
        </Button>
      )}
    </Space>
  );
}

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
    <CatalogueTable<WithdrawCurrencyAdminListView>
      area="withdraw_currencies"
      path="/withdraw-currencies"
      defaults={{ type: CashierType.coin, fee_type: FIXED_FEE_TYPE, enabled: true, sort: 0 }}
      schemas={{ create: ZCurrencyCreate, change: ZCurrencyChange }}
      fields={[
        {
          name: 'type',
          kind: 'select',
          required: true,
          column: true,
          options: cashierTypeOptions(t),
        },
        { name: 'code', kind: 'text', required: true, column: true },
        { name: 'protocol', kind: 'text', column: true },
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
          required: true,
          column: true,
          rules: [rateBelowOne],
        },
        { name: 'usd_price', kind: 'decimal', required: true, column: true },
        ...amountLimitFields(t('validation.max_below_min')),
        SORT_FIELD,
        ENABLED_FIELD,
      ]}
      fixedColumns={[
        { key: 'id', dataIndex: 'id', title: t('field.id') },
        {
          key: 'rate',
          title: t('withdraw_currencies.rate_now'),
          render: (_, row) => <CurrentRate row={row} />,
        },
      ]}
    />
  );
}
