import { ZLoginRequest, schemaErrors } from '@pipwise/domain';
import { Button } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useDemoMutation, useLoginMutation } from '../../api/queries/auth';
import { Paths, safeReturnPath } from '../../routing/paths';
import { Screen } from '../../components/Screen';
import { useCaptchaAnswer } from '../../components/CodeStep';
import { TextField } from '../../components/fields';
import './auth.css';

export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const from = params.get('from');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ account?: string; password?: string }>({});
  // After a failed login the captcha is shown: after several wrong passwords the server requires it.
  const [captchaShown, setCaptchaShown] = useState(false);
  const captcha = useCaptchaAnswer(captchaShown);
  const login = useLoginMutation();
  const demo = useDemoMutation();
  const done = () => void navigate(safeReturnPath(from), { replace: true });
  const carry = from ? `?from=${encodeURIComponent(from)}` : '';

  return (
    <Screen title={t('auth.login_title')} back>
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const found = schemaErrors(ZLoginRequest, { account, password }, t, { namespace: 'auth' });
          setErrors(found);
          if (Object.keys(found).length > 0) return;
          void captcha
            .sendWith((proof) => login.mutateAsync({ account: account.trim(), password, ...proof }))
            .then(done, () => {
              captcha.clear();
              setCaptchaShown(true);
            });
        }}
      >
        <TextField
          label={t('auth.account')}
          error={errors.account}
          value={account}
          onChange={setAccount}
          placeholder={t('auth.account_placeholder')}
          autoComplete="username"
          inputMode="email"
        />
        <TextField
          label={t('auth.password')}
          error={errors.password}
          value={password}
          onChange={setPassword}
          type="password"
          placeholder={t('auth.password_placeholder')}
          autoComplete="current-password"
        />
        {captchaShown && captcha.field}
        <Button type="submit" color="primary" block size="large" loading={login.isPending}>
          {t('auth.login')}
        </Button>
        <Button block fill="outline" onClick={() => demo.mutate(undefined, { onSuccess: done })} loading={demo.isPending}>
          {t('auth.demo_login')}
        </Button>
        <div className="auth-links">
          <Link to={`${Paths.register}${carry}`}>{t('auth.go_register')}</Link>
          <Link to={Paths.forgot}>{t('auth.go_forgot')}</Link>
        </div>
      </form>
    </Screen>
  );
}
