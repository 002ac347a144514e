import { AccountType, ZAmendPasswordRequest, schemaErrors } from '@pipwise/domain';
import { Button, Tabs, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAmendPasswordMutation, usePasswordCodeMutation } from '../../api/queries/password';
import { Paths } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { useSession } from '../../stores/session';
import { useCodeStep } from '../../components/CodeStep';
import { useNewPassword } from '../../components/VerifiedAccount';
import './password.css';

type Kind = (typeof AccountType)[keyof typeof AccountType];

/**
 * Change password (/mine/password, docs/api.md): a code to the user's own email or phone (the server picks
 * the address from the account), the new password twice. The server ends the user's other sessions.
 * Demo accounts never get here (RealAccountOnly shows the blocked message).
 */
export default function PasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useSession((state) => state.user);
  const kinds: Kind[] = [...(user?.email ? [AccountType.email] : []), ...(user?.mobile ? [AccountType.phone] : [])];
  const [chosen, setChosen] = useState<Kind | null>(null);
  const kind = chosen ?? kinds[0] ?? AccountType.email;
  const codeStep = useCodeStep();
  const newPassword = useNewPassword();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const sendCode = usePasswordCodeMutation();
  const amend = useAmendPasswordMutation();

  const destination = kind === AccountType.email ? user?.email : `${user?.area_code ?? ''} ${user?.mobile ?? ''}`.trim();

  const send = () => codeStep.sendWith((proof) => sendCode.mutateAsync({ type: kind, ...proof }));

  const check = () => {
    const { password, confirm } = newPassword;
    // The wording of docs/api.md first: an empty field is "please complete", two different ones "password inconsistency".
    const found: Record<string, string> = {};
    if (!password) found.password = t('auth.form_incomplete');
    if (!confirm) found.confirm = t('auth.form_incomplete');
    if (!found.password && !found.confirm && password !== confirm) found.confirm = t('auth.password_mismatch');
    const request = { type: kind, new_password: password, re_password: confirm, auth_code: codeStep.code };
    const fromSchema = schemaErrors(ZAmendPasswordRequest, request, t, {
      namespace: 'auth',
      fields: { new_password: 'password', re_password: 'confirm', auth_code: 'code' },
    });
    return { request, found: { ...fromSchema, ...found } };
  };

  return (
    <Screen title={t('password.title')} back>
      {kinds.length > 1 && (
        <Tabs activeKey={String(kind)} onChange={(key) => setChosen(Number(key) as Kind)}>
          <Tabs.Tab key={String(AccountType.email)} title={t('auth.by_email')} />
          <Tabs.Tab key={String(AccountType.phone)} title={t('auth.by_phone')} />
        </Tabs>
      )}
      <form
        className="auth-form password-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const { request, found } = check();
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          amend.mutate(request, {
            onSuccess: () => {
              Toast.show({ content: t('password.changed'), duration: 3000 });
              void navigate(Paths.user, { replace: true });
            },
          });
        }}
      >
        <p className="password-destination">
          {t(kind === AccountType.email ? 'password.code_to_email' : 'password.code_to_phone')}{' '}
          <bdi dir="ltr" translate="no">
            {destination}
          </bdi>
        </p>
        {codeStep.fields(errors.code, send)}
        {newPassword.fields(t('auth.new_password'), errors)}
        <ul className="password-rules" aria-label={t('password.rules_title')}>
          <li>{t('password.rule_length')}</li>
          <li>{t('password.rule_mix')}</li>
          <li>{t('password.rule_sessions')}</li>
        </ul>
        <Button type="submit" color="primary" block size="large" loading={amend.isPending}>
          {t('password.submit')}
        </Button>
      </form>
    </Screen>
  );
}
