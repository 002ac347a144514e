import { Button, Card, Form, Input, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { adminApi, ApiError } from '../api';
import { useSession } from '../session';

interface Credentials {
  email: string;
  password: string;
  otp: string;
}

/** Password and the authenticator's current code; the server refuses a code used before. */
export default function Login() {
  const { t } = useTranslation('login');
  const { signIn } = useSession();
  const login = useMutation({
    mutationFn: (credentials: Credentials) => adminApi<{ token: string }>('POST', '/login', { body: credentials }),
    onSuccess: ({ token }) => signIn(token),
  });
  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh', padding: 16 }}>
      <Card style={{ width: 380, maxWidth: '100%' }}>
        <Typography.Title level={3}>{t('title')}</Typography.Title>
        <Form<Credentials> layout="vertical" onFinish={(values) => login.mutate(values)} disabled={login.isPending}>
          <Form.Item name="email" label={t('email')} rules={[{ required: true, whitespace: true, message: t('email_required') }]}>
            <Input autoComplete="username" />
          </Form.Item>
          <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('password_required') }]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item name="otp" label={t('otp')} rules={[{ required: true, pattern: /^\d{6}$/, message: t('otp_required') }]}>
            <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
          </Form.Item>
          {login.error && (
            <Typography.Text type="danger" role="alert">
              {login.error instanceof ApiError ? login.error.message : t('common:server_error')}
            </Typography.Text>
          )}
          <Button type="primary" htmlType="submit" block loading={login.isPending} style={{ marginTop: 12 }}>
            {t('submit')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
