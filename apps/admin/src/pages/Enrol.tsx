import { ZEnrolmentFinishRequest, type EnrolmentStartView } from '@pipwise/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, QRCode, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { adminApi, ApiError } from '../api';
import { useSchemaRules } from '../forms';
import { useSession } from '../session';

interface Choice {
  password: string;
  confirm: string;
  otp: string;
}

const MIN_PASSWORD = 12;

/**
 * A new (or reset) operator's one-time enrolment: the server shows a fresh authenticator secret, the
 * operator chooses their own password and proves the secret with its current code, and is signed in.
 * Nobody who handled the link before sees the password or the secret. The link is `/admin/#/enrol/<token>`:
 * the token sits in the fragment, so no server or proxy log ever sees it.
 */
export default function Enrol({ token }: { token: string }) {
  const { t } = useTranslation('login');
  const rule = useSchemaRules(ZEnrolmentFinishRequest, 'login', ({ password, otp }: Partial<Choice>) => ({
    token,
    password: password ?? '',
    otp: otp ?? '',
  }));
  const { signIn } = useSession();
  const navigate = useNavigate();
  const started = useQuery({
    queryKey: ['enrolment', token],
    queryFn: () => adminApi<EnrolmentStartView>('POST', '/enrolment/begin', { body: { token } }),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const finish = useMutation({
    mutationFn: (choice: Choice) =>
      adminApi<{ token: string }>('POST', '/enrolment/finish', { body: { token, password: choice.password, otp: choice.otp } }),
    onSuccess: ({ token: session }) => {
      signIn(session);
      void navigate('/', { replace: true });
    },
  });
  const failure = (error: unknown) => (error instanceof ApiError ? error.message : t('common:server_error'));

  return (
    <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh', padding: 16 }}>
      <Card style={{ width: 440, maxWidth: '100%' }}>
        <Typography.Title level={3}>{t('enrol_title')}</Typography.Title>
        {started.isPending && <Spin />}
        {started.isError && (
          <Alert type="error" showIcon role="alert" title={failure(started.error)} data-testid="enrolment-error" />
        )}
        {started.data && (
          <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
            <Typography.Text>{t('enrol_for', { email: started.data.email })}</Typography.Text>
            <div style={{ display: 'grid', justifyItems: 'center', gap: 8 }}>
              <QRCode value={started.data.otpauth} size={200} aria-label={t('enrol_qr')} />
              <Typography.Text type="secondary">{t('enrol_scan')}</Typography.Text>
            </div>
            <Typography.Paragraph copyable style={{ wordBreak: 'break-all' }} data-testid="enrolment-otpauth">
              {started.data.otpauth}
            </Typography.Paragraph>
            <Form<Choice> layout="vertical" onFinish={(values) => finish.mutate(values)} disabled={finish.isPending}>
              <Form.Item
                name="password"
                label={t('enrol_password')}
                rules={[
                  { required: true, min: MIN_PASSWORD, message: t('enrol_password_short', { min: MIN_PASSWORD }) },
                  rule('password'),
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="confirm"
                label={t('enrol_confirm')}
                dependencies={['password']}
                rules={[
                  { required: true, message: t('enrol_mismatch') },
                  ({ getFieldValue }) => ({
                    validator: (_, value) =>
                      value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('enrol_mismatch'))),
                  }),
                ]}
              >
                <Input.Password autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                name="otp"
                label={t('otp')}
                rules={[{ required: true, pattern: /^\d{6}$/, message: t('otp_required') }, rule('otp')]}
              >
                <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
              </Form.Item>
              {finish.error && (
                <Typography.Text type="danger" role="alert">
                  {failure(finish.error)}
                </Typography.Text>
              )}
              <Button type="primary" htmlType="submit" block loading={finish.isPending} style={{ marginTop: 12 }}>
                {t('enrol_submit')}
              </Button>
            </Form>
          </Space>
        )}
      </Card>
    </div>
  );
}
