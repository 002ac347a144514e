import { AccountType, CodePurpose, ZSendCodeRequest, schemaErrors, type FormSchema } from '@pipwise/domain';
import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendCodeMutation } from '../api/queries/auth';
import type { AreaCode } from '../api/types';
import { CodeButton } from './CodeButton';
import { AreaPicker, CaptchaField, Field, TextInput, useCaptcha } from './fields';
import { useAccountKinds } from './useAccountKinds';

type Kind = (typeof AccountType)[keyof typeof AccountType];
type Purpose = (typeof CodePurpose)[keyof typeof CodePurpose];

/**
 * The part register and forgot share: an e-mail or phone (with area) that receives a verification code
 * after the captcha is solved, and the code typed back.
 */
export function useVerifiedAccount(purpose: Purpose) {
  const { t } = useTranslation();
  const { kinds } = useAccountKinds();
  const [chosen, setChosen] = useState<Kind | null>(null);
  const kind = chosen ?? kinds[0] ?? AccountType.email;
  const email = kind === AccountType.email;
  const [area, setArea] = useState<AreaCode>();
  const [account, setAccount] = useState('');
  const [captcha, setCaptcha] = useState('');
  const [code, setCode] = useState('');
  const [accountProblem, setAccountProblem] = useState<string>();
  const captchaProof = useCaptcha();
  const sendCode = useSendCodeMutation();

  const accountRequired = email ? 'auth.email_required' : 'auth.phone_required';
  const areaId = area && !email ? { area_id: area.id } : {};

  /**
   * Problems of a request checked with the server's own schema, keyed as the form names its fields; the
   * account's is also shown under it. A phone needs its area, which the schema leaves to the server.
   */
  const check = (schema: FormSchema, request: object, fields: Record<string, string> = {}) => {
    const found = schemaErrors(schema, request, t, {
      namespace: 'auth',
      fields: { to: 'account', sms_code: 'code', auth_code: 'code', ...fields },
      messages: { account_required: accountRequired, destination_required: accountRequired },
    });
    if (!found.account && !email && !area) found.account = t('auth.area_required');
    setAccountProblem(found.account);
    return found;
  };

  const send = () => {
    const problem = check(ZSendCodeRequest, { to: account, type: purpose, ...areaId }).account;
    setAccountProblem(problem);
    if (problem) return Promise.reject(new Error(problem));
    return captchaProof.sendWith(captcha, (proof) =>
      sendCode.mutateAsync({
        channel: email ? 'email' : 'sms',
        to: account.trim(),
        type: purpose,
        ...areaId,
        ...proof,
      }),
    );
  };

  const kindTabs =
    kinds.length > 1 ? (
      <Tabs activeKey={String(kind)} onChange={(key) => setChosen(Number(key) as Kind)}>
        <Tabs.Tab key={String(AccountType.email)} title={t('auth.by_email')} />
        <Tabs.Tab key={String(AccountType.phone)} title={t('auth.by_phone')} />
      </Tabs>
    ) : null;

  const fields = (codeError: string | undefined) => (
    <>
      <Field
        label={t(email ? 'auth.email' : 'auth.phone')}
        error={accountProblem}
        extra={email ? null : <AreaPicker value={area} onChange={setArea} />}
      >
        <TextInput
          label={t(email ? 'auth.email' : 'auth.phone')}
          value={account}
          onChange={setAccount}
          placeholder={t(email ? 'auth.email_placeholder' : 'auth.phone_placeholder')}
          autoComplete={email ? 'email' : 'tel'}
          inputMode={email ? 'email' : 'tel'}
        />
      </Field>
      <CaptchaField value={captcha} onChange={setCaptcha} />
      <Field label={t('auth.code')} error={codeError} extra={<CodeButton onSend={send} />}>
        <TextInput
          label={t('auth.code')}
          value={code}
          onChange={setCode}
          placeholder={t('auth.code_placeholder')}
          inputMode="numeric"
          autoComplete="one-time-code"
        />
      </Field>
    </>
  );

  return {
    kindTabs,
    fields,
    /** Checks the whole request (`fields` names the form's own fields), showing the account's problem under it. */
    validate: check,
    /** The account as the register and forget_password calls take it. */
    account: { type: kind, account: account.trim(), ...areaId },
    code: code.trim(),
  };
}

/** A new password typed twice. */
export function NewPasswordFields(props: {
  label: string;
  password: string;
  confirm: string;
  onPassword: (value: string) => void;
  onConfirm: (value: string) => void;
  errors: Record<string, string>;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={props.label} error={props.errors.password}>
        <TextInput
          label={props.label}
          value={props.password}
          onChange={props.onPassword}
          type="password"
          placeholder={t('auth.password_rules')}
          autoComplete="new-password"
        />
      </Field>
      <Field label={t('auth.confirm_password')} error={props.errors.confirm}>
        <TextInput
          label={t('auth.confirm_password')}
          value={props.confirm}
          onChange={props.onConfirm}
          type="password"
          placeholder={t('auth.confirm_placeholder')}
          autoComplete="new-password"
        />
      </Field>
    </>
  );
}
