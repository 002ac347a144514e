import { AccountType, CodePurpose } from '@pipwise/domain';
import { Button, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useForgotMutation, useSendCodeMutation } from '../../api/queries/auth';
import type { AreaCode } from '../../api/types';
import { Paths } from '../../app/paths';
import { Screen } from '../../components/Screen';
import { CodeButton } from './CodeButton';
import { AreaPicker, CaptchaField, Field, TextInput, useCaptcha } from './fields';
import { useAccountKinds } from './useAccountKinds';

type Kind = (typeof AccountType)[keyof typeof AccountType];

export default function ForgotPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { kinds } = useAccountKinds();
  const [chosen, setChosen] = useState<Kind | null>(null);
  const kind = chosen ?? kinds[0] ?? AccountType.email;
  const [area, setArea] = useState<AreaCode>();
  const [account, setAccount] = useState('');
  const [captcha, setCaptcha] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const captchaProof = useCaptcha();
  const sendCode = useSendCodeMutation();
  const reset = useForgotMutation();
  const email = kind === AccountType.email;

  const accountError = () => {
    if (!account.trim()) return t(email ? 'auth.email_required' : 'auth.phone_required');
    if (!email && !area) return t('auth.area_required');
    return undefined;
  };

  const send = () => {
    const problem = accountError();
    setErrors(problem ? { account: problem } : {});
    if (problem) return Promise.reject(new Error(problem));
    return captchaProof.sendWith(captcha, (proof) =>
      sendCode.mutateAsync({
        channel: email ? 'email' : 'sms',
        to: account.trim(),
        type: CodePurpose.reset,
        ...(area && !email ? { area_id: area.id } : {}),
        ...proof,
      }),
    );
  };

  return (
    <Screen title={t('auth.forgot_title')} back>
      {kinds.length > 1 && (
        <Tabs activeKey={String(kind)} onChange={(key) => setChosen(Number(key) as Kind)}>
          <Tabs.Tab key={String(AccountType.email)} title={t('auth.by_email')} />
          <Tabs.Tab key={String(AccountType.phone)} title={t('auth.by_phone')} />
        </Tabs>
      )}
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const found: Record<string, string> = {};
          const problem = accountError();
          if (problem) found.account = problem;
          if (!code.trim()) found.code = t('auth.code_required');
          if (!password || !confirm) found.password = t('auth.form_incomplete');
          else if (password !== confirm) found.confirm = t('auth.password_mismatch');
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          reset.mutate(
            {
              type: kind,
              account: account.trim(),
              ...(area && !email ? { area_id: area.id } : {}),
              new_password: password,
              secondary_password: confirm,
              auth_code: code.trim(),
            },
            {
              onSuccess: () => {
                Toast.show({ content: t('auth.password_reset_done') });
                void navigate(Paths.login, { replace: true });
              },
            },
          );
        }}
      >
        <Field
          label={t(email ? 'auth.email' : 'auth.phone')}
          error={errors.account}
          extra={email ? null : <AreaPicker value={area} onChange={setArea} />}
        >
          <TextInput
            label={t(email ? 'auth.email' : 'auth.phone')}
            value={account}
            onChange={setAccount}
            placeholder={t(email ? 'auth.email_placeholder' : 'auth.phone_placeholder')}
            inputMode={email ? 'email' : 'tel'}
          />
        </Field>
        <CaptchaField value={captcha} onChange={setCaptcha} />
        <Field label={t('auth.code')} error={errors.code} extra={<CodeButton onSend={send} />}>
          <TextInput
            label={t('auth.code')}
            value={code}
            onChange={setCode}
            placeholder={t('auth.code_placeholder')}
            inputMode="numeric"
          />
        </Field>
        <Field label={t('auth.new_password')} error={errors.password}>
          <TextInput
            label={t('auth.new_password')}
            value={password}
            onChange={setPassword}
            type="password"
            placeholder={t('auth.password_rules')}
            autoComplete="new-password"
          />
        </Field>
        <Field label={t('auth.confirm_password')} error={errors.confirm}>
          <TextInput
            label={t('auth.confirm_password')}
            value={confirm}
            onChange={setConfirm}
            type="password"
            placeholder={t('auth.confirm_placeholder')}
            autoComplete="new-password"
          />
        </Field>
        <Button type="submit" color="primary" block size="large" loading={reset.isPending}>
          {t('auth.reset_password')}
        </Button>
      </form>
    </Screen>
  );
}
