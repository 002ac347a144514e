import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { adminApi, type Page } from '../api';
import { TABULAR, formatDateTime, formatDecimal, pnlColor } from './BackOfficeStates';
import { ListTable, usePager } from './ListTable';
import { asText } from './text';

type Row = Record<string, unknown>;

/** Fields shown as money (2 decimals) or lots; everything else as the server wrote it. */
const MONEY_FIELDS = new Set([
  'amount',
  'credited_amount',
  'balance',
  'balance_after',
  'fee',
  'margin',
  'profit',
  'swap',
  'commission',
  'usd_amount',
  'actual_amount',
]);
const PNL_FIELDS = new Set(['profit', 'floating_pnl']);
const HIDDEN_FIELDS = new Set(['user_id', 'user', 'uid']);

/** Coded fields shown by name: the side of an order, and each list's own status codes. */
function codeLabel(list: string, key: string, value: unknown, t: (key: string, options?: Record<string, unknown>) => string) {
  if (key === 'side') return t(`side_${String(value)}`, { defaultValue: String(value) });
  if (key === 'status') return t(`${list}_status_${String(value)}`, { defaultValue: String(value) });
  return null;
}

function renderCell(list: string, key: string, value: unknown, t: (key: string, options?: Record<string, unknown>) => string) {
  if (value === null || value === undefined || value === '') return '—';
  const label = codeLabel(list, key, value, t);
  if (label !== null) return <Tag>{label}</Tag>;
  if (key.endsWith('_at') && typeof value === 'string') return <span style={TABULAR}>{formatDateTime(value)}</span>;
  if (typeof value === 'boolean') return <Tag color={value ? 'blue' : undefined}>{t(value ? 'yes' : 'no')}</Tag>;
  if (typeof value === 'number' && MONEY_FIELDS.has(key))
    return (
      <span style={{ ...TABULAR, color: PNL_FIELDS.has(key) ? pnlColor(value) : undefined }}>{formatDecimal(value, 2)}</span>
    );
  if (typeof value === 'number') return <span style={TABULAR}>{String(value)}</span>;
  if (typeof value === 'object') return <code>{JSON.stringify(value)}</code>;
  return asText(value);
}

/**
 * One of a user's paged lists (orders, ledger, deposits, withdrawals, sessions), paged by the server.
 * Columns follow the rows the server sends, titled from the `users` namespace.
 */
export function UserPagedTable({
  uid,
  list,
  query,
}: {
  uid: string;
  list: string;
  query?: Record<string, string | number | undefined>;
}) {
  const { t } = useTranslation('users');
  const { page, pageSize, pagination } = usePager();
  const result = useQuery({
    queryKey: ['user', uid, list, page, pageSize, query],
    queryFn: () =>
      adminApi<Page<Row>>('GET', `/users/${encodeURIComponent(uid)}/${list}`, { query: { ...query, page, page_size: pageSize } }),
    placeholderData: keepPreviousData,
  });

  const rows = result.data?.data ?? [];
  const keys = [...new Set(rows.flatMap((row) => Object.keys(row)))].filter((key) => !HIDDEN_FIELDS.has(key));
  const columns: ColumnsType<Row> = keys.map((key) => ({
    key,
    dataIndex: key,
    title: t(`field_${key}`, { defaultValue: key }),
    align: typeof rows[0]?.[key] === 'number' ? 'right' : undefined,
    render: (value: unknown) => renderCell(list, key, value, t),
  }));

  return (
    <ListTable<Row>
      query={result}
      testId={(row) => String(row.id)}
      rowKey={(row) => asText(row.id ?? row)}
      dataSource={rows}
      columns={columns}
      scroll={{ x: 'max-content' }}
      pagination={{ ...pagination(result.data?.total ?? 0), pageSizeOptions: [20, 50, 100] }}
    />
  );
}
