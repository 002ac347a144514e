import { Button, Form, Input, Space, theme, Typography } from 'antd';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, ApiError } from '../api';
import { useSchemaRules } from '../forms';
import { useSession } from '../session';

interface Credentials {
  email: string;
  password: string;
  otp: string;
  captcha?: string;
}

/** The request's schema loads with the first check of a field: zod is not part of the page's first load. */
const loadLoginSchema = () => import('@pipwise/domain').then(({ ZOperatorLoginRequest }) => ZOperatorLoginRequest);

/**
 * Password and the authenticator's current code; the server refuses a code used before. After a failed
 * sign-in a captcha is shown: past a few failures for an e-mail the server tries no password without one,
 * so whoever fails on purpose can slow its owner down but never lock them out.
 */
export default function Login() {
  const { t } = useTranslation('login');
  const { token } = theme.useToken();
  const rule = useSchemaRules(loadLoginSchema, 'login', ({ email, password, otp }: Partial<Credentials>) => ({
    email: email ?? '',
    password: password ?? '',
    otp: otp ?? '',
  }));
  const { signIn } = useSession();
  const [captchaShown, setCaptchaShown] = useState(false);
  const captcha = useQuery({
    queryKey: ['operator-captcha'],
    queryFn: () => adminApi<{ id: string; b64s: string }>('GET', '/captcha'),
    enabled: captchaShown,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const login = useMutation({
    mutationFn: ({ captcha: answer, ...credentials }: Credentials) =>
      adminApi<{ token: string }>('POST', '/login', {
        body: captchaShown && captcha.data ? { ...credentials, key: captcha.data.id, captcha: answer ?? '' } : credentials,
      }),
    onSuccess: ({ token }) => signIn(token),
    onError: () => {
      // A captcha answers once, right or wrong: the next try needs a new one.
      if (captchaShown) void captcha.refetch();
      setCaptchaShown(true);
    },
  });
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh', padding: 16 }}>
      {/* A Card's look from the theme's tokens: antd's Card brings its tabs with their menu and dropdown (about
          25 KB, gzip) into the first load. */}
      <div
        style={{
          width: 380,
          maxWidth: '100%',
          padding: token.paddingLG,
          background: token.colorBgContainer,
          border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
          borderRadius: token.borderRadiusLG,
        }}
      >
        <Typography.Title level={3}>{t('title')}</Typography.Title>
        <Form<Credentials> layout="vertical" onFinish={(values) => login.mutate(values)} disabled={login.isPending}>
          <Form.Item name="email" label={t('email')} required rules={[rule('email')]}>
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label={t('password')} required rules={[rule('password')]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          {/* The server takes up to 10 characters; an authenticator's code is 6 digits. */}
          <Form.Item
            name="otp"
            label={t('otp')}
            validateFirst
            rules={[{ required: true, pattern: /^\d{6}$/, message: t('otp_required') }, rule('otp')]}
          >
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          {captchaShown && (
            <Form.Item label={t('captcha')} extra={t('captcha_hint')}>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="captcha" noStyle>
                  <Input aria-label={t('captcha')} autoComplete="off" maxLength={8} />
                </Form.Item>
                <Button
                  onClick={() => void captcha.refetch()}
                  aria-label={t('captcha_refresh')}
                  style={{ padding: 0, height: 'auto' }}
                >
                  {captcha.data ? <img src={captcha.data.b64s} alt={t('captcha_image')} height={32} /> : t('captcha_refresh')}
                </Button>
              </Space.Compact>
            </Form.Item>
          )}
          {login.error && (
            <Typography.Text type="danger" role="alert">
              {login.error instanceof ApiError ? login.error.message : t('common:server_error')}
            </Typography.Text>
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending} style={{ marginTop: 12 }}>
            {t('submit')}
          </Button>
        </Form>
      </div>
    </div>
  );
}
