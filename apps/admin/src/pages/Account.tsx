import { ZOperatorPasswordRequest, type OperatorSessionView } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Popconfirm, Table, Tag, Typography, Space } from 'antd';
import type { HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { useSchemaRules } from '../forms';
import { DateTime } from '../components/DateTime';
import { QueryError, errorMessage } from '../components/QueryError';
import { useSession } from '../session';
import { PageHeader } from '../components/PageHeader';

/** The server's minimum (operator passwords are long rather than complicated). */
const PASSWORD_MIN_LENGTH = 12;

interface PasswordForm {
  current: string;
  password: string;
  confirm: string;
}

/** The signed-in operator's own password and sessions. */
export default function Account() {
  const { t } = useTranslation('account');
  const rule = useSchemaRules(ZOperatorPasswordRequest, 'account', ({ current, password }: Partial<PasswordForm>) => ({
    current: current ?? '',
    password: password ?? '',
  }));
  const { message } = App.useApp();
  const { operator } = useSession();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PasswordForm>();

  const sessions = useQuery({
    queryKey: ['me', 'sessions'],
    queryFn: () => adminApi<OperatorSessionView[]>('GET', '/me/sessions'),
  });
  const changePassword = useMutation({
    mutationFn: ({ current, password }: PasswordForm) => adminApi('POST', '/me/password', { body: { current, password } }),
    onSuccess: () => {
      void message.success(t('password_changed'));
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] });
    },
    onError: (error) => void message.error(errorMessage(error, t('common:server_error'))),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => adminApi('DELETE', `/me/sessions/${id}`),
    onSuccess: () => void message.success(t('revoked')),
    onError: (error) => void message.error(errorMessage(error, t('common:server_error'))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['me', 'sessions'] }),
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title={t('title')} />
      <Typography.Text>
        {operator?.email} · {t(`nav:role_${operator?.role}`)}
      </Typography.Text>
      <Card title={t('change_password')} size="small" style={{ maxWidth: 480 }}>
        <Form<PasswordForm>
          form={form}
          layout="vertical"
          onFinish={(values) => changePassword.mutate(values)}
          disabled={changePassword.isPending}
        >
          <Form.Item name="current" label={t('current_password')} required rules={[rule('current')]}>
            <Input.Password autoComplete="current-password" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('new_password')}
            extra={t('password_rule', { min: PASSWORD_MIN_LENGTH })}
            rules={[
              { required: true, message: t('password_rule', { min: PASSWORD_MIN_LENGTH }) },
              rule('password'),
              {
                validator: (_, value: string | undefined) =>
                  !value || [...value].length >= PASSWORD_MIN_LENGTH
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('password_rule', { min: PASSWORD_MIN_LENGTH }))),
              },
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            name="confirm"
            label={t('confirm_password')}
            dependencies={['password']}
            rules={[
              { required: true, message: t('confirm_required') },
              ({ getFieldValue }) => ({
                validator: (_, value: string | undefined) =>
                  !value || value === getFieldValue('password')
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('confirm_mismatch'))),
              }),
            ]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Typography.Paragraph type="secondary">{t('password_ends_sessions')}</Typography.Paragraph>
          <Button type="primary" htmlType="submit" loading={changePassword.isPending}>
            {t('change_password')}
          </Button>
        </Form>
      </Card>
      <Card title={t('sessions')} size="small">
        {sessions.isError ? (
          <QueryError error={sessions.error} onRetry={() => void sessions.refetch()} />
        ) : (
          <Table<OperatorSessionView>
            rowKey="id"
            dataSource={sessions.data ?? []}
            loading={sessions.isFetching}
            scroll={{ x: 'max-content' }}
            pagination={false}
            locale={{ emptyText: t('no_sessions') }}
            onRow={(row) => ({ 'data-testid': `row-${row.id}` }) as HTMLAttributes<HTMLElement>}
            columns={[
              { key: 'created', title: t('signed_in_at'), render: (_, row) => <DateTime value={row.created_at} /> },
              { key: 'expires', title: t('expires_at'), render: (_, row) => <DateTime value={row.expires_at} /> },
              { key: 'ip', title: t('ip'), render: (_, row) => row.ip ?? '—' },
              {
                key: 'agent',
                title: t('user_agent'),
                render: (_, row) => (
                  <Typography.Text ellipsis={{ tooltip: row.user_agent }} style={{ maxWidth: 320 }}>
                    {row.user_agent ?? '—'}
                  </Typography.Text>
                ),
              },
              {
                key: 'actions',
                title: t('actions'),
                render: (_, row) =>
                  row.current ? (
                    <Tag color="blue">{t('this_session')}</Tag>
                  ) : (
                    <Popconfirm
                      title={t('confirm_revoke')}
                      okText={t('revoke')}
                      cancelText={t('common:cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => revoke.mutateAsync(row.id).catch(() => undefined)}
                    >
                      <Button size="small" danger disabled={revoke.isPending}>
                        {t('revoke')}
                      </Button>
                    </Popconfirm>
                  ),
              },
            ]}
          />
        )}
      </Card>
    </Space>
  );
}
