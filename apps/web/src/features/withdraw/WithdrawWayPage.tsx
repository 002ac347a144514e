import { CashierType, ZBindDrawMethodRequest, schemaErrors, type CashierTypeValue } from '@pipwise/domain';
import { Button, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useBindDrawMethodMutation, useWithdrawCurrenciesQuery } from '../../api/queries/withdraw';
import { Paths } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { formatDateTime } from '../../i18n/format';
import { Field, TextInput } from '../../components/fields';
import { cashierTypeOf, CurrencyPicker, Section } from './shared';

const BANK_FIELDS = ['bank_name', 'bank_address', 'bank_swift', 'payee_name', 'payee_account', 'bank_branch', 'remark'] as const;
type BankField = (typeof BANK_FIELDS)[number];
const REQUIRED_BANK_FIELDS = new Set<BankField>(['bank_name', 'payee_name', 'payee_account']);

/** Binds a payout method: a coin address (`?type=1`) or a bank account (`?type=2`), for a withdraw currency. */
export default function WithdrawWayPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const type: CashierTypeValue = cashierTypeOf(params.get('type'));
  const currencies = useWithdrawCurrenciesQuery(type);
  const bind = useBindDrawMethodMutation();
  const [chosenCurrency, setChosenCurrency] = useState<number>();
  const [address, setAddress] = useState('');
  const [bank, setBank] = useState<Record<BankField, string>>(
    () => Object.fromEntries(BANK_FIELDS.map((field) => [field, ''])) as Record<BankField, string>,
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const currency = currencies.data?.find((item) => item.id === chosenCurrency) ?? currencies.data?.[0];

  const submit = () => {
    const request =
      type === CashierType.coin
        ? { type, draw_id: currency?.id ?? 0, dc_address: address }
        : { type, draw_id: currency?.id ?? 0, ...bank };
    const found = schemaErrors(ZBindDrawMethodRequest, request, t, {
      namespace: 'withdraw',
      fields: { draw_id: 'currency', dc_address: 'address' },
    });
    setErrors(found);
    const parsed = ZBindDrawMethodRequest.safeParse(request);
    if (!parsed.success) return;
    bind.mutate(parsed.data, {
      onSuccess: (method) => {
        Toast.show({ icon: 'success', content: t('withdraw.bound', { time: formatDateTime(method.usable_at) }) });
        void navigate(type === CashierType.coin ? Paths.coinAddressList : Paths.bankCardList, { replace: true });
      },
    });
  };

  return (
    <Screen title={t(type === CashierType.coin ? 'withdraw.bind_coin_title' : 'withdraw.bind_bank_title')} back>
      <div className="wd-form">
        <p className="wd-notice" role="note">
          {t('withdraw.cooldown_notice')}
        </p>
        <Section title={t('withdraw.currency')} id="wd-bind-currency">
          <CurrencyPicker
            currencies={currencies.data}
            pending={currencies.isPending}
            failed={currencies.isError}
            onRetry={() => void currencies.refetch()}
            value={currency?.id}
            onChange={setChosenCurrency}
          />
          {errors.currency && (
            <p className="field-error" role="alert">
              {errors.currency}
            </p>
          )}
        </Section>
        {type === CashierType.coin ? (
          <Field label={t('withdraw.address')} error={errors.address}>
            <TextInput
              label={t('withdraw.address')}
              value={address}
              onChange={setAddress}
              placeholder={t('withdraw.address_placeholder')}
            />
          </Field>
        ) : (
          BANK_FIELDS.map((field) => {
            const label = t(`withdraw.${field}`) + (REQUIRED_BANK_FIELDS.has(field) ? '' : ` ${t('withdraw.optional')}`);
            return (
              <Field key={field} label={label} error={errors[field]}>
                <TextInput
                  label={t(`withdraw.${field}`)}
                  value={bank[field]}
                  onChange={(value) => setBank((current) => ({ ...current, [field]: value }))}
                />
              </Field>
            );
          })
        )}
        <Button block color="primary" size="large" disabled={bind.isPending} loading={bind.isPending} onClick={submit}>
          {t('withdraw.bind')}
        </Button>
      </div>
    </Screen>
  );
}
