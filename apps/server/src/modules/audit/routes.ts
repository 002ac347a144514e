import { invalid, pageQuery, intFromInput } from '@pipwise/domain';
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { countOf, paged } from '../../db/paging.js';
import { auditLog } from '../../db/schema.js';
import { ok, parse } from '../../http/envelope.js';
import { requireOperator } from '../../http/operator.js';
import { verifyAuditChain } from './verify.js';

export const AUDIT_PATHS = { list: '/admin/api/audit', csv: '/admin/api/audit.csv', verify: '/admin/api/audit/verify' } as const;

/** Rows one CSV export holds at most (newest first); narrow the filter for older ones. */
export const AUDIT_CSV_MAX_ROWS = 100_000;

const filterText = (max: number) =>
  z
    .string({ error: 'audit_filter_invalid' })
    .trim()
    .max(max, { error: 'audit_filter_invalid' })
    .optional()
    .transform((value) => (value === '' ? undefined : value));
const time = z
  .string({ error: 'audit_time_invalid' })
  .trim()
  .optional()
  .transform((value, context) => {
    if (value === undefined || value === '') return undefined;
    const parsed = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : null;
    if (!parsed || Number.isNaN(parsed.getTime())) {
      context.addIssue({ code: 'custom', message: 'audit_time_invalid' });
      return z.NEVER;
    }
    return parsed;
  });

const ZAuditFilter = z.object({
  action: filterText(100),
  actor: filterText(300),
  target_type: filterText(100),
  target_id: filterText(100),
  from: time,
  to: time,
});
const ZAuditQuery = ZAuditFilter.extend(pageQuery.shape).extend({
  page_size: intFromInput('admin_page_size_invalid', (number) =>
    number.min(1, { error: 'admin_page_size_invalid' }).max(100, { error: 'admin_page_size_invalid' }),
  ).default(50),
});
type AuditFilter = z.output<typeof ZAuditFilter>;

/** Exact matches on the indexed columns; `from` inclusive, `to` exclusive. */
function where(filter: AuditFilter): SQL | undefined {
  return and(
    filter.action === undefined ? undefined : eq(auditLog.action, filter.action),
    filter.actor === undefined ? undefined : eq(auditLog.actor, filter.actor),
    filter.target_type === undefined ? undefined : eq(auditLog.targetType, filter.target_type),
    filter.target_id === undefined ? undefined : eq(auditLog.targetId, filter.target_id),
    filter.from === undefined ? undefined : gte(auditLog.at, filter.from),
    filter.to === undefined ? undefined : lt(auditLog.at, filter.to),
  );
}

type AuditRow = typeof auditLog.$inferSelect;
const present = (row: AuditRow) => ({
  id: row.id,
  at: row.at.toISOString(),
  actor: row.actor,
  operator_id: row.operatorId,
  action: row.action,
  target_type: row.targetType,
  target_id: row.targetId,
  before: row.before ?? null,
  after: row.after ?? null,
  ip: row.ip,
  hash: row.hash,
});
/** An audit row as the operator API answers it. */
export type AuditRowView = ReturnType<typeof present>;

const CSV_COLUMNS = ['id', 'at', 'actor', 'action', 'target_type', 'target_id', 'before', 'after', 'ip', 'hash'] as const;

/**
 * One CSV cell: quoted when it holds a quote, separator or line break (quotes doubled), and a text a
 * spreadsheet would run as a formula (= + - @, or a tab or carriage return before one) is prefixed
 * with ' so it stays text.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function auditRoutes(db: Db, key: Buffer) {
  return (app: FastifyInstance) => {
    app.get(AUDIT_PATHS.list, async (request) => {
      requireOperator(request);
      const query = parse(ZAuditQuery, request.query);
      if (query.from && query.to && query.from >= query.to) throw invalid('audit_time_invalid');
      const condition = where(query);
      const page = await paged(
        { page: query.page, pageSize: query.page_size },
        async (limit, offset) =>
          (await db.select().from(auditLog).where(condition).orderBy(desc(auditLog.id)).limit(limit).offset(offset)).map(present),
        () => countOf(db.select({ n: count() }).from(auditLog).where(condition)),
      );
      return ok(request, page);
    });

    app.get(AUDIT_PATHS.csv, async (request, reply) => {
      requireOperator(request);
      const filter = parse(ZAuditFilter, request.query);
      const rows = await db.select().from(auditLog).where(where(filter)).orderBy(desc(auditLog.id)).limit(AUDIT_CSV_MAX_ROWS);
      const lines = [CSV_COLUMNS.join(',')];
      for (const row of rows) {
        const shown = present(row);
        lines.push(CSV_COLUMNS.map((column) => csvCell(shown[column])).join(','));
      }
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit.csv"')
        .send(`${lines.join('\r\n')}\r\n`);
    });

    app.get(AUDIT_PATHS.verify, async (request) => {
      requireOperator(request);
      return ok(request, await verifyAuditChain(db, key));
    });
  };
}
