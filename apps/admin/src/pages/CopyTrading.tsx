import {
  COPY_PROVIDER_STATUSES,
  COPY_SUSPEND_REASON_MAX,
  ResponseCode,
  ZCopySuspendRequest,
  type CopyFeeAdminView,
  type CopyProviderAdminView,
  type CopyProviderStatus,
} from '@pipwise/domain';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Modal, Popconfirm, Select, Space, Tabs, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { adminApi, ApiError, type Page } from '../api';
import { formatDecimal } from '../components/BackOfficeStates';
import { DateTime } from '../components/DateTime';
import { Money } from '../components/Money';
import { PageHeader } from '../components/PageHeader';
import { PagedTable } from '../components/PagedTable';
import { errorMessage } from '../components/QueryError';
import { useSchemaRules } from '../forms';
import { useSession } from '../session';

const PAGE_SIZE = 20;
const STATUS_COLOURS: Record<CopyProviderStatus, string> = { active: 'success', stopped: 'default', suspended: 'error' };
type Action = 'hide' | 'unhide' | 'suspend' | 'unsuspend';

const percent = (value: number | null) => (value === null ? '—' : `${formatDecimal(value, 2)} %`);

/** Copy trading's back office: the providers (hide, suspend with a reason, lift it) and the fee settlements. */
export default function CopyTrading() {
  const { t } = useTranslation('copy');
  const { may } = useSession();
  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title={t('title')} />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'providers', label: t('tab_providers'), children: <Providers /> },
          ...(may(['finance', 'support']) ? [{ key: 'fees', label: t('tab_fees'), children: <Fees /> }] : []),
        ]}
      />
    </Space>
  );
}

function Providers() {
  const { t } = useTranslation('copy');
  const { message } = App.useApp();
  const { may } = useSession();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<CopyProviderStatus | undefined>(undefined);
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const [suspending, setSuspending] = useState<CopyProviderAdminView | null>(null);

  const list = useQuery({
    queryKey: ['copy-providers', status, q, page],
    queryFn: () =>
      adminApi<Page<CopyProviderAdminView>>('GET', '/copy/providers', { query: { status, q, page, page_size: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['copy-providers'] });
  const act = useMutation({
    mutationFn: ({ id, action, reason }: { id: number; action: Action; reason?: string }) =>
      adminApi<CopyProviderAdminView>('POST', `/copy/providers/${id}/${action}`, {
        body: action === 'suspend' ? { reason } : undefined,
      }),
    onSuccess: (_, { action }) => {
      void message.success(t(`done_${action}`));
      setSuspending(null);
      void refresh();
    },
    onError: (error) => {
      void message.error(errorMessage(error, t('common:server_error')));
      // A stale row (someone else acted first): show the list as it is now.
      if (error instanceof ApiError && error.code === ResponseCode.conflict) void refresh();
    },
  });
  const busy = (id: number, action: Action) => act.isPending && act.variables?.id === id && act.variables.action === action;
  const confirm = (row: CopyProviderAdminView, action: Exclude<Action, 'suspend'>, danger = false) => (
    <Popconfirm
      key={action}
      title={t(`confirm_${action}`, { nickname: row.nickname })}
      okText={t('common:confirm')}
      cancelText={t('common:cancel')}
      onConfirm={() => act.mutateAsync({ id: row.id, action })}
    >
      <Button size="small" danger={danger} loading={busy(row.id, action)} disabled={act.isPending}>
        {t(action)}
      </Button>
    </Popconfirm>
  );

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('providers_intro')}</Typography.Text>
      <Space wrap>
        <Input.Search
          aria-label={t('search')}
          placeholder={t('search_placeholder')}
          allowClear
          enterButton={t('search')}
          style={{ width: 320 }}
          onSearch={(value) => {
            setQ(value.trim());
            setPage(1);
          }}
        />
        <Select<CopyProviderStatus>
          aria-label={t('status_filter')}
          allowClear
          placeholder={t('status_all')}
          value={status}
          style={{ minWidth: 180 }}
          onChange={(value) => {
            setStatus(value);
            setPage(1);
          }}
          options={COPY_PROVIDER_STATUSES.map((value) => ({ value, label: t(`status_${value}`) }))}
        />
      </Space>
      <PagedTable<CopyProviderAdminView>
        list={list}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        emptyText={t('providers_empty')}
        columns={[
          { key: 'id', title: t('id'), dataIndex: 'id' },
          {
            key: 'nickname',
            title: t('nickname'),
            render: (_, row) => (
              <Space size={4} wrap>
                <span translate="no">{row.nickname}</span>
                {row.automated && <Tag color="purple">{t('automated')}</Tag>}
                {row.demo && <Tag>{t('demo')}</Tag>}
              </Space>
            ),
          },
          {
            key: 'uid',
            title: t('user'),
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <Link to={`/users?uid=${row.uid}`}>{row.uid}</Link>
                <Typography.Text type="secondary" translate="no">
                  {row.user}
                </Typography.Text>
              </Space>
            ),
          },
          {
            key: 'status',
            title: t('status'),
            render: (_, row) => (
              <Space size={4} wrap>
                <Tooltip title={row.suspended_reason}>
                  <Tag color={STATUS_COLOURS[row.status]}>{t(`status_${row.status}`)}</Tag>
                </Tooltip>
                {row.hidden && <Tag color="warning">{t('hidden')}</Tag>}
              </Space>
            ),
          },
          { key: 'copiers', title: t('copiers'), dataIndex: 'copiers', align: 'right' },
          { key: 'copied', title: t('copied_amount'), align: 'right', render: (_, row) => <Money value={row.copied_amount} /> },
          { key: 'earned', title: t('fees_earned'), align: 'right', render: (_, row) => <Money value={row.fees_earned} /> },
          { key: 'fee_pct', title: t('fee_pct'), align: 'right', render: (_, row) => `${row.fee_pct} %` },
          { key: 'return', title: t('return_12m'), align: 'right', render: (_, row) => percent(row.return_12m) },
          { key: 'drawdown', title: t('max_drawdown'), align: 'right', render: (_, row) => percent(row.max_drawdown) },
          { key: 'risk', title: t('risk_score'), align: 'right', render: (_, row) => row.risk_score ?? '—' },
          { key: 'created', title: t('created_at'), render: (_, row) => <DateTime value={row.created_at} /> },
          {
            key: 'actions',
            title: t('actions'),
            fixed: 'right',
            render: (_, row) => (
              <Space wrap>
                {may(['content']) && (row.hidden ? confirm(row, 'unhide') : confirm(row, 'hide'))}
                {may(['compliance']) &&
                  (row.status === 'suspended' ? (
                    confirm(row, 'unsuspend')
                  ) : (
                    <Button size="small" danger disabled={act.isPending} onClick={() => setSuspending(row)}>
                      {t('suspend')}
                    </Button>
                  ))}
              </Space>
            ),
          },
        ]}
      />
      <SuspendModal
        provider={suspending}
        pending={act.isPending}
        onClose={() => setSuspending(null)}
        onSubmit={(reason) => suspending && act.mutate({ id: suspending.id, action: 'suspend', reason })}
      />
    </Space>
  );
}

/** Asks why a provider is suspended (required): the provider reads it on their own page, the audit keeps it. */
function SuspendModal({
  provider,
  pending,
  onSubmit,
  onClose,
}: {
  provider: CopyProviderAdminView | null;
  pending: boolean;
  onSubmit: (reason: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('copy');
  const [form] = Form.useForm<{ reason: string }>();
  const rule = useSchemaRules(ZCopySuspendRequest, 'copy', (values: { reason?: string }) => ({ reason: values.reason ?? '' }));
  return (
    <Modal
      open={provider !== null}
      title={t('suspend_title', { nickname: provider?.nickname })}
      okText={t('suspend')}
      okButtonProps={{ danger: true, loading: pending, htmlType: 'submit', form: 'copy-suspend' }}
      cancelButtonProps={{ disabled: pending }}
      cancelText={t('common:cancel')}
      onCancel={onClose}
      afterClose={() => form.resetFields()}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('suspend_hint', { copiers: provider?.copiers ?? 0 })}</Typography.Paragraph>
      <Form
        name="copy-suspend"
        form={form}
        layout="vertical"
        onFinish={({ reason }) => onSubmit(reason.trim())}
        disabled={pending}
      >
        <Form.Item name="reason" label={t('suspend_reason')} extra={t('suspend_reason_hint')} required rules={[rule('reason')]}>
          <Input.TextArea rows={3} maxLength={COPY_SUSPEND_REASON_MAX} showCount autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Fees() {
  const { t } = useTranslation('copy');
  const [page, setPage] = useState(1);
  const list = useQuery({
    queryKey: ['copy-fees', page],
    queryFn: () => adminApi<Page<CopyFeeAdminView>>('GET', '/copy/fees', { query: { page, page_size: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Typography.Text type="secondary">{t('fees_intro')}</Typography.Text>
      <PagedTable<CopyFeeAdminView>
        list={list}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        emptyText={t('fees_empty')}
        columns={[
          { key: 'id', title: t('ledger_id'), dataIndex: 'id' },
          { key: 'at', title: t('settled_at'), render: (_, row) => <DateTime value={row.created_at} /> },
          { key: 'copy', title: t('copy_id'), dataIndex: 'copy_id' },
          {
            key: 'follower',
            title: t('follower'),
            render: (_, row) => <Link to={`/users?uid=${row.follower_uid}`}>{row.follower_uid}</Link>,
          },
          {
            key: 'provider',
            title: t('provider'),
            render: (_, row) => (
              <Space size={4}>
                <span translate="no">{row.nickname}</span>
                <Link to={`/users?uid=${row.provider_uid}`}>{row.provider_uid}</Link>
              </Space>
            ),
          },
          { key: 'amount', title: t('fee_amount'), align: 'right', render: (_, row) => <Money value={row.amount} /> },
        ]}
      />
    </Space>
  );
}
