import {
  invalid,
  pageOf,
  ZAuditChainView,
  ZAuditFilter,
  ZAuditQuery,
  ZAuditRowView,
  ZRefusal,
  type AuditRowView,
  type TAuditFilter,
} from '@pipwise/domain';
import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client.js';
import { countOf, paged } from '../../db/paging.js';
import { auditLog } from '../../db/schema.js';
import { ok, parse } from '../../http/envelope.js';
import { answers, type DocumentedTypeProvider } from '../../http/openapi.js';
import { requireOperator } from '../../http/operator.js';
import { verifyAuditChain } from './verify.js';

export const AUDIT_PATHS = { list: '/admin/api/audit', csv: '/admin/api/audit.csv', verify: '/admin/api/audit/verify' } as const;

/** Rows one CSV export holds at most (newest first); narrow the filter for older ones. */
export const AUDIT_CSV_MAX_ROWS = 100_000;

/** Exact matches on the indexed columns; `from` inclusive, `to` exclusive. */
function where(filter: TAuditFilter): SQL | undefined {
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
const present = (row: AuditRow): AuditRowView => ({
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
  return (instance: FastifyInstance) => {
    const app = instance.withTypeProvider<DocumentedTypeProvider>();
    app.get(
      AUDIT_PATHS.list,
      { schema: { querystring: ZAuditQuery, response: answers(pageOf(ZAuditRowView)) } },
      async (request) => {
        requireOperator(request);
        const query = parse(ZAuditQuery, request.query);
        if (query.from && query.to && query.from >= query.to) throw invalid('audit_time_invalid');
        const condition = where(query);
        const page = await paged(
          { page: query.page, pageSize: query.page_size },
          async (limit, offset) =>
            (await db.select().from(auditLog).where(condition).orderBy(desc(auditLog.id)).limit(limit).offset(offset)).map(
              present,
            ),
          () => countOf(db.select({ n: count() }).from(auditLog).where(condition)),
        );
        return ok(request, page);
      },
    );

    const csv = {
      querystring: ZAuditFilter,
      response: {
        200: {
          description: `The matching rows, newest first, at most ${AUDIT_CSV_MAX_ROWS}`,
          content: { 'text/csv': { schema: z.string() } },
        },
        default: ZRefusal,
      },
    };
    app.get(AUDIT_PATHS.csv, { schema: csv }, async (request, reply) => {
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

    app.get(AUDIT_PATHS.verify, { schema: { response: answers(ZAuditChainView) } }, async (request) => {
      requireOperator(request);
      return ok(request, await verifyAuditChain(db, key));
    });
  };
}
