import { CashierType, ZCoinDepositRequest, type CoinChannelView } from '@pipwise/domain';
import { Input, Selector } from 'antd-mobile';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCoinChannelsQuery, useDepositSymbolsQuery, useSubmitDepositMutation } from '../../api/queries/deposits';
import { ErrorState, ListSkeleton } from '../../components/states';
import { formatMoney } from '../../i18n/format';
import { Field } from '../../components/fields';
import { coinChoices } from './choices';
import { CopyText } from '../../components/CopyText';
import { DepositFields, useDepositForm } from './DepositFields';
import { NoChannel } from './NoChannel';
import { depositErrors } from './validation';

export function CoinDeposit({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const channels = useCoinChannelsQuery();
  // The order of currencies only; the channels alone are enough to deposit.
  const symbols = useDepositSymbolsQuery();
  const [currency, setCurrency] = useState<string | null>(null);
  const [protocol, setProtocol] = useState<string | null>(null);

  if (channels.isPending) return <ListSkeleton rows={3} />;
  if (channels.isError) return <ErrorState onRetry={() => void channels.refetch()} />;
  if (channels.data.length === 0) return <NoChannel />;

  const { currencies, protocolsOf } = coinChoices(channels.data, symbols.data);
  const chosenCurrency = currency && currencies.includes(currency) ? currency : currencies[0]!;
  const protocols = protocolsOf(chosenCurrency);
  const chosenProtocol = protocol && protocols.includes(protocol) ? protocol : protocols[0]!;
  const channel = channels.data.find(
    (option) => option.currency_code === chosenCurrency && option.protocol_code === chosenProtocol,
  )!;

  return (
    <div className="charge-panel">
      <div className="field" role="group" aria-label={t('charge.currency')}>
        <span className="field-label">{t('charge.currency')}</span>
        <Selector
          className="charge-selector"
          columns={3}
          value={[chosenCurrency]}
          onChange={(value) => value[0] && setCurrency(value[0])}
          options={currencies.map((code) => ({ label: code, value: code }))}
        />
      </div>
      <div className="field" role="group" aria-label={t('charge.protocol')}>
        <span className="field-label">{t('charge.protocol')}</span>
        <Selector
          className="charge-selector"
          columns={3}
          value={[chosenProtocol]}
          onChange={(value) => value[0] && setProtocol(value[0])}
          options={protocols.map((code) => ({ label: code, value: code }))}
        />
      </div>
      {/* Keyed by channel: another channel's amount and proof would be sent to the wrong address. */}
      <CoinForm key={channel.id} channel={channel} onDone={onDone} />
    </div>
  );
}

function CoinForm({ channel, onDone }: { channel: CoinChannelView; onDone: () => void }) {
  const { t } = useTranslation();
  const form = useDepositForm();
  const { amount, proof, errors, setErrors } = form;
  const [from, setFrom] = useState('');
  const deposit = useSubmitDepositMutation();
  const network = `${channel.currency_code} ${channel.protocol_code}`;

  return (
    <form
      className="charge-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        const input = { number: amount.trim(), proofImg: proof ?? '', address: from, charge_id: channel.id };
        const found = depositErrors(ZCoinDepositRequest, input, channel, t, formatMoney);
        setErrors(found);
        if (Object.keys(found).length > 0) return;
        deposit.submit({ kind: CashierType.coin, request: ZCoinDepositRequest.parse(input) }, onDone);
      }}
    >
      <section className="charge-address" aria-label={t('charge.address_section', { network })}>
        <figure className="charge-qr">
          <QRCodeSVG
            value={channel.address}
            size={168}
            marginSize={2}
            role="img"
            aria-label={t('charge.qr_label', { network })}
            title={t('charge.qr_label', { network })}
          />
        </figure>
        <CopyText label={t('charge.address')} value={channel.address} mono />
        <p className="charge-warning">{t('charge.address_warning', { network })}</p>
      </section>
      <DepositFields
        currency={channel.currency_code}
        min={channel.min_amount}
        max={channel.max_amount}
        {...form.fields}
        sending={deposit.sending}
        extra={
          <Field label={t('charge.from_address')} error={errors.address}>
            <Input
              aria-label={t('charge.from_address')}
              value={from}
              onChange={setFrom}
              placeholder={t('charge.optional')}
              autoComplete="off"
              clearable
            />
          </Field>
        }
      />
    </form>
  );
}
