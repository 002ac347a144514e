import type { ChangeApprovalView, OperatorEnrolmentView, PendingChangeView } from '@pipwise/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Popconfirm, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi } from '../api';
import { DateTime } from '../components/DateTime';
import { OperatorEnrolment } from '../components/OperatorEnrolment';
import { PageHeader } from '../components/PageHeader';
import { QueryError, errorMessage } from '../components/QueryError';
import { useSession } from '../session';

const STATUS_COLOURS = ['processing', 'success', 'default'] as const;

/** What the change would do, in words: the settings with their new values, the operator and role. */
function Summary({ change }: { change: PendingChangeView }) {
  // A setting is named by the settings page's own words.
  const { t } = useTranslation(['changes', 'settings']);
  if (change.kind === 'settings') {
    const changes = (change.payload.changes ?? {}) as Record<string, string>;
    const weakened = new Set((change.payload.weakened ?? []) as string[]);
    return (
      <Space orientation="vertical" size={0}>
        {Object.entries(changes).map(([key, value]) => (
          <Typography.Text key={key}>
            {t(`settings:key.${key}`, { defaultValue: key })} → <Typography.Text code>{value}</Typography.Text>{' '}
            {weakened.has(key) && <Tag color="warning">{t('weakens')}</Tag>}
          </Typography.Text>
        ))}
      </Space>
    );
  }
  const role = t(`nav:role_${String(change.payload.role)}`);
  return (
    <Typography.Text>
      {t(`summary_${change.kind.replace('.', '_')}`, { email: String(change.payload.email), role })}
    </Typography.Text>
  );
}

/**
 * Superadmin: changes one superadmin asked for that take effect only once a second one approves them
 * (a setting that weakens a control, a new operator, a raised role). The maker may reject their own,
 * never approve it; the server decides again who may.
 */
export default function Changes() {
  const { t } = useTranslation('changes');
  const { message } = App.useApp();
  const { operator: me } = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState(0);
  const [enrolment, setEnrolment] = useState<OperatorEnrolmentView | null>(null);
  const list = useQuery({
    queryKey: ['changes', status],
    queryFn: () => adminApi<PendingChangeView[]>('GET', '/changes', { query: { status } }),
  });
  const decide = useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'approve' | 'reject' }) =>
      adminApi<Partial<ChangeApprovalView>>('POST', `/changes/${id}/${action}`),
    onSuccess: (answer, { action }) => {
      void message.success(t(`done_${action}`));
      // Only an approved addition answers an enrolment link (a rejection answers no result).
      const result = answer.result;
      if (result && 'link' in result) setEnrolment(result);
      void queryClient.invalidateQueries({ queryKey: ['changes'] });
      void queryClient.invalidateQueries({ queryKey: ['settings'] });
      void queryClient.invalidateQueries({ queryKey: ['operators'] });
    },
    onError: (error) => {
      void message.error(errorMessage(error, t('common:server_error')));
      void queryClient.invalidateQueries({ queryKey: ['changes'] });
    },
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title={t('title')}>
        <Segmented
          value={status}
          onChange={(value) => setStatus(Number(value))}
          options={[0, 1, 2].map((value) => ({ value, label: t(`status_${value}`) }))}
        />
      </PageHeader>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      {list.isError ? (
        <QueryError error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <Table<PendingChangeView>
          rowKey="id"
          dataSource={list.data ?? []}
          loading={list.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('empty') }}
          pagination={false}
          onRow={(row) => ({ 'data-testid': `change-${row.id}` }) as HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'id', title: t('id'), dataIndex: 'id' },
            {
              key: 'kind',
              title: t('kind'),
              render: (_, row) => t(`kind_${row.kind.replace('.', '_')}`, { defaultValue: row.kind }),
            },
            { key: 'summary', title: t('summary'), render: (_, row) => <Summary change={row} /> },
            { key: 'maker', title: t('maker'), dataIndex: 'maker' },
            { key: 'created_at', title: t('created_at'), render: (_, row) => <DateTime value={row.created_at} /> },
            {
              key: 'status',
              title: t('status'),
              render: (_, row) => (
                <Space orientation="vertical" size={0}>
                  <Tag color={STATUS_COLOURS[row.status] ?? 'default'}>{t(`status_${row.status}`)}</Tag>
                  {row.checker && <Typography.Text type="secondary">{row.checker}</Typography.Text>}
                </Space>
              ),
            },
            {
              key: 'actions',
              title: t('actions'),
              render: (_, row) =>
                row.status === 0 && (
                  <Space wrap>
                    <Popconfirm
                      title={t('confirm_approve')}
                      okText={t('approve')}
                      cancelText={t('common:cancel')}
                      onConfirm={() => decide.mutateAsync({ id: row.id, action: 'approve' }).catch(() => undefined)}
                      disabled={row.maker === me?.email}
                    >
                      <Button
                        size="small"
                        type="primary"
                        disabled={decide.isPending || row.maker === me?.email}
                        title={row.maker === me?.email ? t('own_change') : undefined}
                      >
                        {t('approve')}
                      </Button>
                    </Popconfirm>
                    <Popconfirm
                      title={t('confirm_reject')}
                      okText={t('reject')}
                      cancelText={t('common:cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => decide.mutateAsync({ id: row.id, action: 'reject' }).catch(() => undefined)}
                    >
                      <Button size="small" danger disabled={decide.isPending}>
                        {t('reject')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
            },
          ]}
        />
      )}
      <OperatorEnrolment enrolment={enrolment} onClose={() => setEnrolment(null)} />
    </Space>
  );
}
