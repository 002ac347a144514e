import { ResponseCode, ZAdjustmentRejectRequest, ZAdjustmentRequest, type AdjustmentView } from '@pipwise/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Form, Input, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, ApiError, type Page } from '../api';
import { DateTime } from '../components/DateTime';
import { PagedTable } from '../components/PagedTable';
import { Money } from '../components/Money';
import { errorMessage } from '../components/QueryError';
import { ReviewReasonModal } from '../components/ReviewReasonModal';
import { useSchemaRules } from '../forms';
import { useSession } from '../session';
import { PageHeader } from '../components/PageHeader';

interface AdjustmentForm {
  uid: string;
  amount: string;
  reason: string;
  internal_note?: string;
}

/** The request the form sends, as typed: the schema trims it and keeps the amount as decimal text. */
const adjustmentRequest = (values: Partial<AdjustmentForm>) => ({
  uid: values.uid ?? '',
  amount: values.amount ?? '',
  reason: values.reason ?? '',
  internal_note: values.internal_note ?? '',
});

const PAGE_SIZE = 20;
const STATUS_COLOURS = ['processing', 'success', 'error'] as const;

/** Four-eyes balance adjustments: propose one, and approve or reject other operators' proposals. */
export default function Adjustments() {
  const { t } = useTranslation('money');
  const { message } = App.useApp();
  const { operator } = useSession();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AdjustmentForm>();
  const rule = useSchemaRules(ZAdjustmentRequest, 'money', adjustmentRequest);
  const [status, setStatus] = useState<number | 'all'>(0);
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<AdjustmentView | null>(null);

  const list = useQuery({
    queryKey: ['adjustments', status, page],
    queryFn: () =>
      adminApi<Page<AdjustmentView>>('GET', '/adjustments', {
        query: { status: status === 'all' ? undefined : status, page, page_size: PAGE_SIZE },
      }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['adjustments'] });
  const failed = (error: unknown) => {
    void message.error(errorMessage(error, t('common:server_error')));
    if (error instanceof ApiError && error.code === ResponseCode.conflict) void refresh();
  };

  const create = useMutation({
    mutationFn: (values: AdjustmentForm) =>
      adminApi<AdjustmentView>('POST', '/adjustments', { body: ZAdjustmentRequest.parse(adjustmentRequest(values)) }),
    onSuccess: () => {
      void message.success(t('created'));
      form.resetFields();
      void refresh();
    },
    onError: failed,
  });
  const decide = useMutation({
    mutationFn: ({ id, action, reason }: { id: number; action: 'approve' | 'reject'; reason?: string }) =>
      adminApi<AdjustmentView>('POST', `/adjustments/${id}/${action}`, { body: action === 'reject' ? { reason } : {} }),
    onSuccess: (_, { action }) => {
      void message.success(t(action === 'approve' ? 'approved' : 'rejected'));
      setRejecting(null);
      void refresh();
    },
    onError: failed,
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title={t('title')} />
      <Card title={t('new_adjustment')} size="small">
        <Typography.Paragraph type="secondary">{t('new_hint')}</Typography.Paragraph>
        <Form<AdjustmentForm>
          form={form}
          layout="inline"
          onFinish={(values) => create.mutate(values)}
          disabled={create.isPending}
        >
          <Form.Item name="uid" label={t('uid')} required rules={[rule('uid')]}>
            <Input inputMode="numeric" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item name="amount" label={t('amount')} tooltip={t('amount_hint')} required rules={[rule('amount')]}>
            <Input inputMode="decimal" placeholder="-25.00" style={{ width: 140 }} />
          </Form.Item>
          <Form.Item
            name="reason"
            label={t('client_text')}
            tooltip={t('client_text_hint')}
            required
            rules={[rule('reason')]}
            style={{ minWidth: 280, flex: 1 }}
          >
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item
            name="internal_note"
            label={t('internal_note')}
            tooltip={t('internal_note_hint')}
            rules={[rule('internal_note')]}
            style={{ minWidth: 240, flex: 1 }}
          >
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={create.isPending}>
              {t('propose')}
            </Button>
          </Form.Item>
        </Form>
      </Card>
      <Space wrap>
        <Select<number | 'all'>
          aria-label={t('status_filter')}
          value={status}
          style={{ minWidth: 180 }}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          options={[
            { value: 0, label: t('status_0') },
            { value: 1, label: t('status_1') },
            { value: 2, label: t('status_2') },
            { value: 'all', label: t('status_all') },
          ]}
        />
      </Space>
      <PagedTable<AdjustmentView>
        list={list}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        emptyText={t('empty')}
        columns={[
          { key: 'id', title: t('id'), dataIndex: 'id' },
          { key: 'uid', title: t('uid'), dataIndex: 'uid' },
          { key: 'amount', title: t('amount'), align: 'right', render: (_, row) => <Money value={row.amount} signed /> },
          { key: 'reason', title: t('client_text'), dataIndex: 'reason' },
          { key: 'internal_note', title: t('internal_note'), render: (_, row) => row.internal_note ?? '—' },
          {
            key: 'status',
            title: t('status'),
            render: (_, row) => <Tag color={STATUS_COLOURS[row.status] ?? 'default'}>{t(`status_${row.status}`)}</Tag>,
          },
          { key: 'maker', title: t('maker'), dataIndex: 'maker' },
          { key: 'checker', title: t('checker'), render: (_, row) => row.checker ?? '—' },
          { key: 'note', title: t('checker_note'), render: (_, row) => row.checker_note ?? '—' },
          { key: 'created', title: t('created_at'), render: (_, row) => <DateTime value={row.created_at} /> },
          { key: 'decided', title: t('decided_at'), render: (_, row) => <DateTime value={row.decided_at} /> },
          {
            key: 'actions',
            title: t('actions'),
            fixed: 'right',
            render: (_, row) => {
              if (row.status !== 0) return null;
              const own = row.maker === operator?.email;
              const busy = decide.isPending;
              const approve = (
                <Button
                  size="small"
                  type="primary"
                  disabled={own || busy}
                  loading={busy && decide.variables?.id === row.id && decide.variables.action === 'approve'}
                  onClick={() => decide.mutate({ id: row.id, action: 'approve' })}
                >
                  {t('approve')}
                </Button>
              );
              // The maker may not approve their own proposal, but may withdraw it (reject) if it was a mistake.
              const buttons = (
                <Space>
                  {own ? <Tooltip title={t('own_hint')}>{approve}</Tooltip> : approve}
                  <Button size="small" danger disabled={busy} onClick={() => setRejecting(row)}>
                    {t('reject')}
                  </Button>
                </Space>
              );
              return own ? (
                <Space orientation="vertical" size={2}>
                  {buttons}
                  <Typography.Text type="secondary">{t('needs_second')}</Typography.Text>
                </Space>
              ) : (
                buttons
              );
            },
          },
        ]}
      />
      <ReviewReasonModal
        open={rejecting !== null}
        title={t('reject_title', { id: rejecting?.id })}
        okText={t('reject')}
        pending={decide.isPending}
        schema={ZAdjustmentRejectRequest}
        onClose={() => setRejecting(null)}
        onSubmit={({ reason }) => rejecting && decide.mutate({ id: rejecting.id, action: 'reject', reason })}
      />
    </Space>
  );
}
