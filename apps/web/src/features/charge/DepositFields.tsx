import { Button, Input } from 'antd-mobile';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ImageUpload } from '../../components/ImageUpload';
import { formatMoney } from '../../i18n/format';
import { Field } from '../../components/fields';

/**
 * What both deposit forms hold: the amount, the proof and the messages under the fields; editing a field
 * clears its message.
 */
export function useDepositForm() {
  const [amount, setAmount] = useState('');
  const [proof, setProof] = useState<string | undefined>();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const clear = (field: string) => setErrors(({ [field]: _, ...rest }) => rest);
  return {
    amount,
    proof,
    errors,
    setErrors,
    fields: {
      amount,
      onAmount: (value: string) => {
        setAmount(value);
        clear('amount');
      },
      proof,
      onProof: (id: string | undefined) => {
        setProof(id);
        clear('proof');
      },
      errors,
    },
  };
}

interface DepositFieldsProps {
  currency: string;
  min: number;
  max: number;
  amount: string;
  onAmount: (value: string) => void;
  proof: string | undefined;
  onProof: (id: string | undefined) => void;
  errors: Record<string, string>;
  sending: boolean;
  /** Fields of one form only, shown after the amount (the coin form's sending address). */
  extra?: ReactNode;
}

/** What both deposit forms ask: the amount sent (within the channel's limits) and the proof of payment. */
export function DepositFields({
  currency,
  min,
  max,
  amount,
  onAmount,
  proof,
  onProof,
  errors,
  sending,
  extra,
}: DepositFieldsProps) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t('charge.amount_label', { currency })} error={errors.amount}>
        <Input
          aria-label={t('charge.amount_label', { currency })}
          value={amount}
          onChange={onAmount}
          inputMode="decimal"
          placeholder={t('charge.amount_placeholder')}
          autoComplete="off"
          clearable
        />
      </Field>
      <p className="charge-limits">{t('charge.limits', { min: formatMoney(min), max: formatMoney(max), currency })}</p>
      {extra}
      <div className="field">
        <span className="field-label">{t('charge.proof')}</span>
        <p className="charge-hint">{t('charge.proof_hint')}</p>
        <ImageUpload label={t('charge.proof')} value={proof} onChange={onProof} disabled={sending} />
        {errors.proof && (
          <p className="field-error" role="alert">
            {errors.proof}
          </p>
        )}
      </div>
      <Button type="submit" color="primary" block size="large" loading={sending} disabled={sending}>
        {t('charge.submit')}
      </Button>
    </>
  );
}
