import { CashierType, dec, ZWithdrawRequest, schemaErrors, type CashierTypeValue, type DrawMethodView } from '@pipwise/domain';
import { Button, Dialog, Input, Radio, Toast } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useAccountFiguresQuery } from '../../api/queries/account';
import {
  useDrawMethodsQuery,
  useWithdrawCurrenciesQuery,
  useWithdrawMutation,
  useWithdrawRulesQuery,
} from '../../api/queries/withdraw';
import { Paths, withdrawWayPath } from '../../routing/paths';
import { PriceInput } from '../../components/PriceInput';
import { Screen } from '../../components/Screen';
import { EmptyState, ErrorState, ListSkeleton } from '../../components/states';
import { formatDateTime, formatMoney } from '../../i18n/format';
import { Field } from '../../components/fields';
import { amountProblem, estimateTexts, rateTexts } from './quote';
import { CurrencyPicker, Figure, methodDestination, Section, TypePicker } from './shared';

/** The balance is kept in USD (docs/product.md, "Money"). */
const BALANCE_UNIT = 'USD';

export default function WithdrawPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [type, setType] = useState<CashierTypeValue>(CashierType.coin);
  const [chosenCurrency, setChosenCurrency] = useState<number>();
  const [chosenMethod, setChosenMethod] = useState<number>();
  const [amount, setAmount] = useState('');
  const [memo, setMemo] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const figures = useAccountFiguresQuery();
  const currencies = useWithdrawCurrenciesQuery(type);
  const methods = useDrawMethodsQuery(type);
  const withdraw = useWithdrawMutation();
  const rules = useWithdrawRulesQuery();

  const currency = currencies.data?.find((item) => item.id === chosenCurrency) ?? currencies.data?.[0];
  const currencyMethods = methods.data?.filter((method) => method.draw_currency.id === currency?.id) ?? [];
  const method = currencyMethods.find((item) => item.id === chosenMethod && item.usable);
  const withdrawable = figures.data?.withdrawable ?? 0;
  const estimate = estimateTexts(amount, currency);
  const rate = currency && rateTexts(currency, new Date(), formatDateTime);

  useNoMethodDialog(type, methods.data);

  const chooseType = (next: CashierTypeValue) => {
    setType(next);
    setChosenCurrency(undefined);
    setChosenMethod(undefined);
    setErrors({});
  };

  const submit = () => {
    const request = {
      draw_currency_id: currency?.id ?? 0,
      number: amount,
      memo: memo.trim(),
      draw_method_id: method?.id ?? 0,
      // The rate this estimate was computed with: the server charges it (within a minute of being quoted).
      rate_quote: currency?.rate_quote ?? '',
    };
    const found = schemaErrors(ZWithdrawRequest, request, t, {
      namespace: 'withdraw',
      fields: { number: 'amount', draw_method_id: 'method', draw_currency_id: 'currency' },
    });
    if (!found.amount && currency) {
      const problem = amountProblem(amount, currency, withdrawable);
      if (problem) found.amount = t(`withdraw.${problem.key}`, { limit: formatMoney(problem.limit) });
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    withdraw.submit(request, () => {
      Toast.show({ icon: 'success', content: t('withdraw.submitted') });
      void navigate(Paths.withdrawRecords, { replace: true });
    });
  };

  return (
    <Screen
      title={t('withdraw.title')}
      back
      right={
        <Link className="wd-nav-link" to={Paths.withdrawRecords}>
          {t('withdraw.records')}
        </Link>
      }
    >
      <div className="wd-form">
        {rules.data?.kyc_required && (
          <section className="wd-notice wd-kyc" role="note" aria-label={t('withdraw.kyc_required')}>
            <p>{t('withdraw.kyc_required')}</p>
            <Link className="wd-link" to={Paths.auth}>
              {t('withdraw.kyc_link')}
            </Link>
          </section>
        )}
        <section className="wd-card" aria-label={t('withdraw.funds')}>
          {figures.isPending ? (
            <ListSkeleton rows={1} />
          ) : figures.isError ? (
            <ErrorState onRetry={() => void figures.refetch()} />
          ) : (
            <>
              <Figure label={t('withdraw.withdrawable')} text={formatMoney(figures.data.withdrawable)} unit={BALANCE_UNIT} />
              <Figure label={t('withdraw.locked')} text={formatMoney(figures.data.lock_balance)} unit={BALANCE_UNIT} />
            </>
          )}
        </section>

        <Section title={t('withdraw.type')} id="wd-type">
          <TypePicker value={type} onChange={chooseType} />
        </Section>

        <Section title={t('withdraw.currency')} id="wd-currency">
          <CurrencyPicker
            currencies={currencies.data}
            pending={currencies.isPending}
            failed={currencies.isError}
            onRetry={() => void currencies.refetch()}
            value={currency?.id}
            onChange={(id) => {
              setChosenCurrency(id);
              setChosenMethod(undefined);
            }}
          />
          {errors.currency && (
            <p className="field-error" role="alert">
              {errors.currency}
            </p>
          )}
        </Section>

        <Section title={type === CashierType.coin ? t('withdraw.address') : t('withdraw.bank_account')} id="wd-method">
          {methods.isPending ? (
            <ListSkeleton rows={2} />
          ) : methods.isError ? (
            <ErrorState onRetry={() => void methods.refetch()} />
          ) : currencyMethods.length === 0 ? (
            <div className="wd-empty">
              <EmptyState text={t('withdraw.no_method_for_currency')} />
              <Link className="wd-link" to={withdrawWayPath(type)}>
                {t('withdraw.add_method')}
              </Link>
            </div>
          ) : (
            <MethodPicker methods={currencyMethods} value={method?.id} onChange={setChosenMethod} />
          )}
          {errors.method && (
            <p className="field-error" role="alert">
              {errors.method}
            </p>
          )}
        </Section>

        <Field
          label={t('withdraw.amount')}
          error={errors.amount}
          extra={
            <Button
              size="small"
              fill="none"
              color="primary"
              className="wd-all"
              disabled={!figures.data}
              onClick={() => setAmount(dec(withdrawable).toFixed(2))}
            >
              {t('withdraw.all')}
            </Button>
          }
        >
          <PriceInput
            label={t('withdraw.amount')}
            value={amount}
            onChange={setAmount}
            placeholder={t('withdraw.amount_placeholder')}
          />
        </Field>

        <section className="wd-card" aria-label={t('withdraw.estimate')}>
          <Figure label={t('withdraw.fee')} text={estimate.fee} unit={BALANCE_UNIT} />
          <Figure label={t('withdraw.received')} text={estimate.received} unit={currency?.code} />
          {rate && (
            <>
              <Figure label={t('withdraw.rate')} text={t(rate.value.key, rate.value.params)} />
              {rate.source && <p className="wd-rate-source">{t(rate.source.key, rate.source.params)}</p>}
              {rate.stale && (
                <p className="field-error" role="alert">
                  {t('withdraw.rate_stale', { code: currency.code })}
                </p>
              )}
            </>
          )}
        </section>

        <Field label={t('withdraw.memo')} error={errors.memo}>
          <Input aria-label={t('withdraw.memo')} value={memo} onChange={setMemo} placeholder={t('withdraw.memo_placeholder')} />
        </Field>

        <Button block color="primary" size="large" disabled={withdraw.sending} loading={withdraw.sending} onClick={submit}>
          {t('withdraw.submit')}
        </Button>
      </div>
    </Screen>
  );
}

/**
 * docs/api.md: with no payout method of the chosen type at all, the user is asked to set one up first. Asked
 * once per type until answered; leaving the screen closes the question with it.
 */
function useNoMethodDialog(type: CashierTypeValue, methods: DrawMethodView[] | undefined) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const answered = useRef(new Set<CashierTypeValue>());
  const none = methods?.length === 0;
  useEffect(() => {
    if (!none || answered.current.has(type)) return;
    const dialog = Dialog.show({
      // Named by its title, so assistive tech announces what is asked.
      'aria-label': t('withdraw.no_method_title'),
      title: t('withdraw.no_method_title'),
      content: t(type === CashierType.coin ? 'withdraw.no_method_coin' : 'withdraw.no_method_bank'),
      closeOnAction: true,
      onAction: () => void answered.current.add(type),
      actions: [
        [
          { key: 'cancel', text: t('common.cancel') },
          { key: 'set_up', text: t('withdraw.set_up'), bold: true, onClick: () => void navigate(withdrawWayPath(type)) },
        ],
      ],
    });
    return () => dialog.close();
  }, [none, navigate, t, type]);
}

/** The user's methods of the chosen currency; one still in its cool-down is shown, disabled, with when it opens. */
function MethodPicker(props: { methods: DrawMethodView[]; value: number | undefined; onChange: (id: number) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group value={props.value ?? null} onChange={(next) => props.onChange(Number(next))}>
      <div className="wd-options" role="radiogroup" aria-label={t('withdraw.method')}>
        {props.methods.map((method) => (
          <Radio key={method.id} value={method.id} disabled={!method.usable} className="wd-method">
            <span className="wd-method-text">
              <bdi className="wd-destination">{methodDestination(method)}</bdi>
              {!method.usable && (
                <span className="wd-cooldown">{t('withdraw.usable_from', { time: formatDateTime(method.usable_at) })}</span>
              )}
            </span>
          </Radio>
        ))}
      </div>
    </Radio.Group>
  );
}
