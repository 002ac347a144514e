import { CodePurpose, ZForgetPasswordRequest } from '@pipwise/domain';
import { Button, Toast } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useForgotMutation } from '../../api/queries/auth';
import { Paths } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { useNewPassword, useVerifiedAccount } from '../../components/VerifiedAccount';

export default function ForgotPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const verified = useVerifiedAccount(CodePurpose.reset);
  const newPassword = useNewPassword();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reset = useForgotMutation();

  return (
    <Screen title={t('auth.forgot_title')} back>
      {verified.kindTabs}
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const request = {
            ...verified.account,
            new_password: newPassword.password,
            secondary_password: newPassword.confirm,
            auth_code: verified.code,
          };
          const found = verified.validate(ZForgetPasswordRequest, request, {
            new_password: 'password',
            secondary_password: 'confirm',
          });
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          reset.mutate(request, {
            onSuccess: () => {
              Toast.show({ content: t('auth.password_reset_done') });
              void navigate(Paths.login, { replace: true });
            },
          });
        }}
      >
        {verified.fields(errors.code)}
        {newPassword.fields(t('auth.new_password'), errors)}
        <Button type="submit" color="primary" block size="large" loading={reset.isPending}>
          {t('auth.reset_password')}
        </Button>
      </form>
    </Screen>
  );
}
