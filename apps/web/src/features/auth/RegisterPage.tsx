import { CodePurpose, ZRegisterRequest } from '@pipwise/domain';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useRegisterMutation } from '../../api/queries/auth';
import { safeReturnPath } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { PolicyNotice } from '../../components/PolicyNotice';
import { TextField } from '../../components/fields';
import { useNewPassword, useVerifiedAccount } from '../../components/VerifiedAccount';
import { useSignUpQuestions } from './SignUpQuestions';

export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const verified = useVerifiedAccount(CodePurpose.register);
  const newPassword = useNewPassword();
  const questions = useSignUpQuestions();
  const [invite, setInvite] = useState(params.get('invite_code') ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const register = useRegisterMutation();

  return (
    <Screen title={t('auth.register_title')} back>
      {verified.kindTabs}
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const request = {
            ...verified.account,
            password: newPassword.password,
            re_password: newPassword.confirm,
            sms_code: verified.code,
            ...questions.answers,
            ...(invite.trim() ? { invite_code: invite.trim() } : {}),
          };
          const found = {
            ...verified.validate(ZRegisterRequest, request, {
              re_password: 'confirm',
              invite_code: 'invite',
              risk_disclosure_version: 'disclosure',
            }),
            // The schema knows only that they are missing or malformed; these say what to do, and name the restricted countries.
            ...questions.validate(),
          };
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          register.mutate(request, {
            onSuccess: () => void navigate(safeReturnPath(params.get('from')), { replace: true }),
          });
        }}
      >
        {verified.fields(errors.code)}
        {newPassword.fields(t('auth.password'), errors)}
        {questions.fields(errors)}
        <TextField
          label={t('auth.invite_code')}
          error={errors.invite}
          value={invite}
          onChange={setInvite}
          placeholder={t('auth.optional')}
        />
        <Button type="submit" color="primary" block size="large" loading={register.isPending}>
          {t('auth.register')}
        </Button>
      </form>
      <PolicyNotice />
    </Screen>
  );
}
