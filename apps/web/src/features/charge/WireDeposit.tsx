import { CashierType, ZWireDepositRequest, type WireChannelView } from '@pipwise/domain';
import { Selector } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitDepositMutation, useWireChannelsQuery } from '../../api/queries/deposits';
import { ErrorState, ListSkeleton } from '../../components/states';
import { formatMoney } from '../../i18n/format';
import { CopyText } from '../../components/CopyText';
import { DepositFields, useDepositForm } from './DepositFields';
import { NoChannel } from './NoChannel';
import { depositErrors } from './validation';

export function WireDeposit({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const accounts = useWireChannelsQuery();
  const [chosen, setChosen] = useState<number | null>(null);

  if (accounts.isPending) return <ListSkeleton rows={3} />;
  if (accounts.isError) return <ErrorState onRetry={() => void accounts.refetch()} />;
  if (accounts.data.length === 0) return <NoChannel />;

  const account = accounts.data.find((option) => option.id === chosen) ?? accounts.data[0]!;

  return (
    <div className="charge-panel">
      {accounts.data.length > 1 && (
        <div className="field" role="group" aria-label={t('charge.bank_account')}>
          <span className="field-label">{t('charge.bank_account')}</span>
          <Selector
            className="charge-selector"
            columns={1}
            value={[account.id]}
            onChange={(value) => value[0] !== undefined && setChosen(value[0])}
            options={accounts.data.map((option) => ({
              label: `${option.bank_name} · ${option.currency_code}`,
              value: option.id,
            }))}
          />
        </div>
      )}
      <WireForm key={account.id} account={account} onDone={onDone} />
    </div>
  );
}

function WireForm({ account, onDone }: { account: WireChannelView; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useDepositForm();
  const { amount, proof, setErrors } = form;
  const deposit = useSubmitDepositMutation();

  return (
    <form
      className="charge-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const input = { number: amount.trim(), proofImg: proof ?? '', wire_id: account.id };
        const found = depositErrors(ZWireDepositRequest, input, account, t, formatMoney);
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        deposit.submit({ kind: CashierType.bank, request: ZWireDepositRequest.parse(input) }, onDone);
      }}
    >
      <section className="charge-bank" aria-label={t('charge.bank_details')}>
        <CopyText label={t('charge.bank_name')} value={account.bank_name} />
        <CopyText label={t('charge.bank_address')} value={account.bank_address} />
        <CopyText label={t('charge.bank_swift')} value={account.bank_swift} mono />
        <CopyText label={t('charge.payee_name')} value={account.payee_name} />
        <CopyText label={t('charge.payee_account')} value={account.payee_account} mono />
        <CopyText label={t('charge.payment_reference')} value={account.payment_reference} mono />
        <p className="charge-hint">{t('charge.payment_reference_hint')}</p>
        {account.bank_remark && (
          // The operator's own words about this account: read, not pasted anywhere, so no copy button.
          <p className="charge-bank-remark">
            <span className="copy-label">{t('charge.bank_remark')}</span>
            <bdi>{account.bank_remark}</bdi>
          </p>
        )}
        <p className="charge-warning">{t('charge.wire_warning', { currency: account.currency_code })}</p>
      </section>
      <DepositFields
        currency={account.currency_code}
        min={account.min_amount}
        max={account.max_amount}
        {...form.fields}
        sending={deposit.sending}
      />
    </form>
  );
}
