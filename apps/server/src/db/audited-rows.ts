import { notFound, type ContentAdminQuery } from '@pipwise/domain';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgInsertValue, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { OperatorPrincipal } from '../http/operator.js';
import type { AuditService } from '../modules/audit/service.js';
import type { Db, Executor } from './client.js';
import { countOf, paged, type Page, type Paging } from './paging.js';

type EditableTable = PgTable & { id: PgColumn };

/** A table of content in one language each that operators publish: news, announcements. */
type ContentTable = EditableTable & { lang: PgColumn; published: PgColumn; createdAt: PgColumn };

/**
 * A table the back office edits row by row. Each write commits with its audit row in one transaction:
 * `<target>.create`, `.update` or `.delete` on `target` and the row's id, with the row's view before and
 * after. A row that is not there is `notFoundKey`.
 */
export class AuditedRows<T extends EditableTable, View> {
  constructor(
    private readonly deps: { db: Db; audit: Pick<AuditService, 'record'> },
    readonly spec: { table: T; view: (row: T['$inferSelect']) => View; target: string; notFoundKey: string },
  ) {}

  async create(values: PgInsertValue<T>, by: OperatorPrincipal, ip: string): Promise<View> {
    const { table, view, target } = this.spec;
    return this.deps.db.transaction(async (tx) => {
      const [row] = (await tx.insert(table).values(values).returning()) as (T['$inferSelect'] & { id: number })[];
      const after = view(row!);
      await this.deps.audit.record({ by, action: `${target}.create`, targetType: target, targetId: row!.id, after, ip }, tx);
      return after;
    });
  }

  /**
   * `columns` works out what to set from the row as it stands (locked until the transaction ends) and its
   * view; it may refuse the change by throwing.
   */
  async update(
    id: number,
    columns: (row: T['$inferSelect'], before: View) => PgUpdateSetSource<T>,
    by: OperatorPrincipal,
    ip: string,
  ): Promise<View> {
    const { table, view, target } = this.spec;
    return this.deps.db.transaction(async (tx) => {
      const row = await this.locked(tx, id);
      const before = view(row);
      const [updated] = (await tx
        .update(table)
        .set(columns(row, before))
        .where(eq(table.id, id))
        .returning()) as T['$inferSelect'][];
      const after = view(updated!);
      await this.deps.audit.record({ by, action: `${target}.update`, targetType: target, targetId: id, before, after, ip }, tx);
      return after;
    });
  }

  /** `dependents` deletes the rows that point at this one, once it is locked and before it goes. */
  async remove(id: number, by: OperatorPrincipal, ip: string, dependents?: (tx: Executor) => Promise<unknown>): Promise<void> {
    const { table, view, target } = this.spec;
    await this.deps.db.transaction(async (tx) => {
      const before = view(await this.locked(tx, id));
      await dependents?.(tx);
      await tx.delete(table).where(eq(table.id, id));
      await this.deps.audit.record({ by, action: `${target}.delete`, targetType: target, targetId: id, before, ip }, tx);
    });
  }

  /** Every row, in `order`. */
  async all(...order: SQL[]): Promise<T['$inferSelect'][]> {
    return this.deps.db
      .select()
      .from(this.source)
      .orderBy(...order);
  }

  /** A page of the rows matching `where`, in `order`, with the count of all of them. */
  async page(paging: Paging, where: SQL | undefined, ...order: SQL[]): Promise<Page<View>> {
    const { db } = this.deps;
    const rows = (limit: number, offset: number) =>
      db
        .select()
        .from(this.source)
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset) as Promise<T['$inferSelect'][]>;
    return paged(
      paging,
      async (limit, offset) => (await rows(limit, offset)).map(this.spec.view),
      () => countOf(db.select({ n: count() }).from(this.source).where(where)),
    );
  }

  /** The table as `select` takes one whose columns it cannot know (a generic one). */
  private get source(): PgTable {
    return this.spec.table;
  }

  private async locked(tx: Executor, id: number): Promise<T['$inferSelect']> {
    const { table, notFoundKey } = this.spec;
    const [row] = (await tx.select().from(this.source).where(eq(table.id, id)).for('update')) as T['$inferSelect'][];
    if (!row) throw notFound(notFoundKey);
    return row;
  }
}

/** The back office's list of a content table: newest first, in one language or all, published or not or both. */
export function contentPage<T extends ContentTable, View>(rows: AuditedRows<T, View>, query: ContentAdminQuery) {
  const { table } = rows.spec;
  const where = and(
    query.lang ? eq(table.lang, query.lang) : undefined,
    query.published ? eq(table.published, query.published === '1') : undefined,
  );
  return rows.page({ page: query.page, pageSize: query.page_size }, where, desc(table.createdAt), desc(table.id));
}
