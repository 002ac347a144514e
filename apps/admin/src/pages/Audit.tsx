import type { AuditChainView, AuditRowView } from '@pipwise/domain';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, DatePicker, Form, Input, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminApi, adminFetch, type Page } from '../api';
import { DateTime } from '../components/DateTime';
import { PagedTable } from '../components/PagedTable';
import { errorMessage } from '../components/QueryError';
import { PageHeader } from '../components/PageHeader';

interface FilterForm {
  action?: string;
  actor?: string;
  target_type?: string;
  target_id?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
}

type Filters = Record<'action' | 'actor' | 'target_type' | 'target_id' | 'from' | 'to', string | undefined>;

const PAGE_SIZE = 50;

const filtersOf = (form: FilterForm): Filters => ({
  action: form.action?.trim() || undefined,
  actor: form.actor?.trim() || undefined,
  target_type: form.target_type?.trim() || undefined,
  target_id: form.target_id?.trim() || undefined,
  // Whole days in the operator's time zone, sent as instants; the server's `to` is exclusive.
  from: form.range?.[0]?.startOf('day').toISOString(),
  to: form.range?.[1]?.add(1, 'day').startOf('day').toISOString(),
});

const json = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value, null, 2));

/** Superadmin: who did what to what, filtered, exported as CSV, and the hash chain checked. */
export default function Audit() {
  const { t } = useTranslation('audit');
  const { message } = App.useApp();
  const [filters, setFilters] = useState<Filters>(filtersOf({}));
  const [page, setPage] = useState(1);

  const list = useQuery({
    queryKey: ['audit', filters, page],
    queryFn: () => adminApi<Page<AuditRowView>>('GET', '/audit', { query: { ...filters, page, page_size: PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });
  const verify = useMutation({ mutationFn: () => adminApi<AuditChainView>('GET', '/audit/verify') });
  const exportCsv = useMutation({
    mutationFn: async () => {
      const response = await adminFetch('/audit.csv', filters);
      if (!response.ok || !response.headers.get('content-type')?.includes('csv')) {
        // A refusal comes as the usual envelope; its message is already in the operator's language.
        const envelope = (await response.json().catch(() => null)) as { msg?: string } | null;
        throw new Error(envelope?.msg || t('export_failed'));
      }
      return response.blob();
    },
    onSuccess: (blob) => {
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `audit-${new Date().toISOString().slice(0, 10)}.csv`;
      link.click();
      URL.revokeObjectURL(url);
    },
    onError: (error) => void message.error(error.message || t('export_failed')),
  });

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      <PageHeader title={t('title')}>
        <Space wrap>
          <Button onClick={() => exportCsv.mutate()} loading={exportCsv.isPending}>
            {t('export_csv')}
          </Button>
          <Button onClick={() => verify.mutate()} loading={verify.isPending}>
            {t('verify_chain')}
          </Button>
        </Space>
      </PageHeader>
      {verify.data && (
        <Alert
          type={verify.data.ok ? 'success' : 'error'}
          showIcon
          data-testid="verify-result"
          title={
            verify.data.ok
              ? t('chain_ok', { rows: verify.data.rows })
              : t('chain_broken', { rows: verify.data.rows, id: verify.data.broken_at ?? '?' })
          }
          description={
            verify.data.ok && verify.data.head ? (
              <>
                <div data-testid="verify-head">{t('chain_head', { head: verify.data.head, rows: verify.data.rows })}</div>
                {verify.data.legacy_rows > 0 && (
                  <div>{t('chain_legacy', { legacy: verify.data.legacy_rows, id: verify.data.keyed_since?.id ?? '?' })}</div>
                )}
              </>
            ) : undefined
          }
          closable={{ onClose: () => verify.reset() }}
        />
      )}
      {verify.isError && <Alert type="error" showIcon title={errorMessage(verify.error, t('common:server_error'))} />}
      <Form<FilterForm>
        layout="inline"
        onFinish={(values) => {
          setFilters(filtersOf(values));
          setPage(1);
        }}
        style={{ rowGap: 8 }}
      >
        <Form.Item name="action" label={t('action')}>
          <Input allowClear placeholder="deposit.approve" style={{ width: 170 }} />
        </Form.Item>
        <Form.Item name="actor" label={t('actor')}>
          <Input allowClear placeholder="operator:name@example.com" style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="target_type" label={t('target_type')}>
          <Input allowClear style={{ width: 130 }} />
        </Form.Item>
        <Form.Item name="target_id" label={t('target_id')}>
          <Input allowClear style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="range" label={t('dates')}>
          <DatePicker.RangePicker allowEmpty={[true, true]} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('apply')}
          </Button>
        </Form.Item>
      </Form>
      <PagedTable<AuditRowView>
        list={list}
        page={page}
        pageSize={PAGE_SIZE}
        onPage={setPage}
        emptyText={t('empty')}
        expandable={{
          expandedRowRender: (row) => (
            <Space align="start" wrap size="large">
              <div>
                <Typography.Text strong>{t('before')}</Typography.Text>
                <pre style={{ margin: 0, maxWidth: 520, overflow: 'auto' }}>{json(row.before)}</pre>
              </div>
              <div>
                <Typography.Text strong>{t('after')}</Typography.Text>
                <pre style={{ margin: 0, maxWidth: 520, overflow: 'auto' }}>{json(row.after)}</pre>
              </div>
            </Space>
          ),
        }}
        columns={[
          { key: 'id', title: t('id'), dataIndex: 'id' },
          { key: 'at', title: t('at'), render: (_, row) => <DateTime value={row.at} /> },
          { key: 'actor', title: t('actor'), dataIndex: 'actor' },
          { key: 'action', title: t('action'), render: (_, row) => <Typography.Text code>{row.action}</Typography.Text> },
          { key: 'target', title: t('target'), render: (_, row) => `${row.target_type} #${row.target_id}` },
          { key: 'ip', title: t('ip'), render: (_, row) => row.ip ?? '—' },
        ]}
      />
    </Space>
  );
}
