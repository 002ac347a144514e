import {
  OPERATOR_ROLES,
  ZOperatorCreateRequest,
  type OperatorRole,
  type OperatorRowView,
  type PendingChangeRefView,
  type OperatorEnrolmentView,
} from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { DateTime } from '../components/DateTime';
import { OperatorEnrolment } from '../components/OperatorEnrolment';
import { useSchemaRules } from '../forms';
import { QueryError, errorMessage } from '../components/QueryError';
import { useSession } from '../session';
import { PageHeader } from '../components/PageHeader';

const isPending = (answer: unknown): answer is PendingChangeRefView =>
  typeof answer === 'object' && answer !== null && 'pending_change' in answer;

interface NewOperator {
  email: string;
  role: OperatorRole;
}

/**
 * Superadmin: operators, their roles, and their one-time enrolment links. Where two superadmins are
 * enabled, an addition or a raised role waits for the other's approval (Pending changes).
 */
export default function Operators() {
  const { t } = useTranslation('operators');
  const { message, modal } = App.useApp();
  const { operator: me } = useSession();
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState(false);
  const [enrolment, setEnrolment] = useState<OperatorEnrolmentView | null>(null);
  const [form] = Form.useForm<NewOperator>();
  const rule = useSchemaRules(ZOperatorCreateRequest, 'operators', (values: Partial<NewOperator>) => values, {
    messages: { operator_email_invalid: 'operators.email_required' },
  });
  const roleOptions = OPERATOR_ROLES.map((role) => ({ value: role, label: t(`nav:role_${role}`) }));

  const list = useQuery({
    queryKey: ['operators'],
    queryFn: () => adminApi<OperatorRowView[]>('GET', '/operators'),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['operators'] });
  const failed = (error: unknown) => {
    void message.error(errorMessage(error, t('common:server_error')));
    void refresh();
  };

  const create = useMutation({
    mutationFn: (values: NewOperator) =>
      adminApi<OperatorEnrolmentView | PendingChangeRefView>('POST', '/operators', { body: values }),
    onSuccess: (created) => {
      setAdding(false);
      if (isPending(created)) void message.info(t('added_pending'));
      else setEnrolment(created);
      void refresh();
    },
    onError: failed,
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'disable' | 'enable' | 'reset' }) =>
      adminApi<OperatorEnrolmentView | PendingChangeRefView | null>('POST', `/operators/${id}/${action}`),
    onSuccess: (result, { action }) => {
      if (isPending(result)) void message.info(t('enable_pending'));
      else if (action === 'reset' && result) setEnrolment(result);
      else void message.success(t(`done_${action}`));
      void refresh();
    },
    onError: failed,
  });
  const changeRole = useMutation({
    mutationFn: ({ id, role }: { id: number; role: OperatorRole }) =>
      adminApi<unknown>('PUT', `/operators/${id}/role`, { body: { role } }),
    onSuccess: (answer) => {
      if (isPending(answer)) void message.info(t('role_pending'));
      else void message.success(t('role_changed'));
      void refresh();
    },
    onError: failed,
  });
  const busy = act.isPending || changeRole.isPending;

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title={t('title')}>
        <Button type="primary" onClick={() => setAdding(true)}>
          {t('add')}
        </Button>
      </PageHeader>
      {list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<OperatorRowView>
          rowKey="id"
          dataSource={list.data ?? []}
          loading={list.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('empty') }}
          onRow={(row) => ({ 'data-testid': `row-${row.id}` }) as HTMLAttributes<HTMLElement>}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          columns={[
            { key: 'id', title: t('id'), dataIndex: 'id' },
            { key: 'email', title: t('email'), dataIndex: 'email' },
            {
              key: 'role',
              title: t('role'),
              render: (_, row) => (
                <Select<OperatorRole>
                  aria-label={t('role_of', { email: row.email })}
                  value={row.role}
                  options={roleOptions}
                  style={{ minWidth: 150 }}
                  // Changing one's own role could leave no superadmin; another superadmin does it.
                  disabled={busy || row.id === me?.id}
                  onChange={(role) =>
                    modal.confirm({
                      title: t('confirm_role', { email: row.email, role: t(`nav:role_${role}`) }),
                      okText: t('common:confirm'),
                      cancelText: t('common:cancel'),
                      onOk: () => changeRole.mutateAsync({ id: row.id, role }).catch(() => undefined),
                    })
                  }
                />
              ),
            },
            {
              key: 'state',
              title: t('state'),
              render: (_, row) =>
                row.disabled ? <Tag color="error">{t('disabled')}</Tag> : <Tag color="success">{t('active')}</Tag>,
            },
            { key: 'created_by', title: t('created_by'), dataIndex: 'created_by' },
            { key: 'created_at', title: t('created_at'), render: (_, row) => <DateTime value={row.created_at} /> },
            {
              key: 'actions',
              title: t('actions'),
              render: (_, row) => (
                <Space wrap>
                  {row.disabled ? (
                    <Button size="small" disabled={busy} onClick={() => act.mutate({ id: row.id, action: 'enable' })}>
                      {t('enable')}
                    </Button>
                  ) : (
                    <Popconfirm
                      title={t('confirm_disable', { email: row.email })}
                      okText={t('disable')}
                      cancelText={t('common:cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => act.mutateAsync({ id: row.id, action: 'disable' }).catch(() => undefined)}
                      disabled={row.id === me?.id}
                    >
                      <Button size="small" danger disabled={busy || row.id === me?.id}>
                        {t('disable')}
                      </Button>
                    </Popconfirm>
                  )}
                  <Popconfirm
                    title={t('confirm_reset', { email: row.email })}
                    okText={t('reset')}
                    cancelText={t('common:cancel')}
                    onConfirm={() => act.mutateAsync({ id: row.id, action: 'reset' }).catch(() => undefined)}
                  >
                    <Button size="small" disabled={busy}>
                      {t('reset')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      )}
      <Modal
        open={adding}
        title={t('add')}
        okText={t('create')}
        cancelText={t('common:cancel')}
        okButtonProps={{ htmlType: 'submit', form: 'new-operator', loading: create.isPending }}
        cancelButtonProps={{ disabled: create.isPending }}
        onCancel={() => setAdding(false)}
        afterClose={() => form.resetFields()}
        destroyOnHidden
      >
        <Form<NewOperator>
          name="new-operator"
          form={form}
          layout="vertical"
          initialValues={{ role: 'support' }}
          onFinish={(values) => create.mutate({ email: values.email.trim(), role: values.role })}
          disabled={create.isPending}
        >
          <Form.Item name="email" label={t('email')} required rules={[rule('email')]}>
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item name="role" label={t('role')} required rules={[rule('role')]}>
            <Select options={roleOptions} />
          </Form.Item>
        </Form>
      </Modal>
      <OperatorEnrolment enrolment={enrolment} onClose={() => setEnrolment(null)} />
    </Space>
  );
}
