import { AccountType, CodePurpose, ZSendCodeRequest, schemaErrors, type FormSchema } from '@pipwise/domain';
import { Tabs } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendCodeMutation } from '../api/queries/auth';
import type { AreaCode } from '../api/types';
import { useCodeStep } from './CodeStep';
import { AreaPicker, TextField } from './fields';
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
  const [accountProblem, setAccountProblem] = useState<string>();
  const codeStep = useCodeStep();
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
    return codeStep.sendWith((proof) =>
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
      <TextField
        label={t(email ? 'auth.email' : 'auth.phone')}
        error={accountProblem}
        extra={email ? null : <AreaPicker value={area} onChange={setArea} />}
        value={account}
        onChange={setAccount}
        placeholder={t(email ? 'auth.email_placeholder' : 'auth.phone_placeholder')}
        autoComplete={email ? 'email' : 'tel'}
        inputMode={email ? 'email' : 'tel'}
      />
      {codeStep.fields(codeError, send)}
    </>
  );

  return {
    kindTabs,
    fields,
    /** Checks the whole request (`fields` names the form's own fields), showing the account's problem under it. */
    validate: check,
    /** The account as the register and forget_password calls take it. */
    account: { type: kind, account: account.trim(), ...areaId },
    code: codeStep.code,
  };
}

/**
 * A new password typed twice, as register, forgot and change password take it: the two values, and
 * `fields` (the first labelled `label`; the errors under them are `errors.password` and `errors.confirm`).
 */
export function useNewPassword() {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');

  const fields = (label: string, errors: Record<string, string>) => (
    <>
      <TextField
        label={label}
        error={errors.password}
        value={password}
        onChange={setPassword}
        type="password"
        placeholder={t('auth.password_rules')}
        autoComplete="new-password"
      />
      <TextField
        label={t('auth.confirm_password')}
        error={errors.confirm}
        value={confirm}
        onChange={setConfirm}
        type="password"
        placeholder={t('auth.confirm_placeholder')}
        autoComplete="new-password"
      />
    </>
  );

  return { password, confirm, fields };
}
