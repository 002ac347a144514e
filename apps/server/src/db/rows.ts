import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Executor } from './client.js';

const isJson = (column: PgColumn) => {
  const type = column.getSQLType();
  return type === 'json' || type === 'jsonb';
};

/** The rows of a raw `execute` result (both drivers answer `{ rows }`). */
export const rowsOf = (result: unknown) => (result as { rows: Record<string, unknown>[] }).rows;

/**
 * Rows of a table through hand-written SQL, decoded and encoded by drizzle's own column types. For the
 * order path only: there drizzle's query builder cost more CPU per statement than PostgreSQL spent
 * running it (docs/benchmarks.md). A multi-row insert travels as one JSON parameter, so its cost does
 * not grow with rows × columns of placeholders; decimals stay decimal text inside the JSON.
 */
export class TableRows<T extends PgTable> {
  private readonly columns: { key: string; column: PgColumn }[];
  private readonly byKey: Map<string, PgColumn>;

  constructor(private readonly table: T) {
    this.columns = Object.entries(getTableColumns(table)).map(([key, column]) => ({ key, column: column }));
    this.byKey = new Map(this.columns.map(({ key, column }) => [key, column]));
  }

  /** A row as the database returns it (column names) → the row drizzle's `select()` would give. */
  read(raw: Record<string, unknown>): T['$inferSelect'] {
    const row: Record<string, unknown> = {};
    for (const { key, column } of this.columns) {
      const value = raw[column.name];
      row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
    }
    return row;
  }

  /** Every column of the rows matching `where`, optionally locked or ordered by a trailing clause. */
  async select(executor: Executor, where: SQL, tail: SQL = sql``): Promise<T['$inferSelect'][]> {
    return rowsOf(await executor.execute(sql`SELECT * FROM ${this.table} WHERE ${where} ${tail}`)).map((raw) => this.read(raw));
  }

  /**
   * The rows as a table expression `d` for a statement's FROM: one JSON parameter whatever their
   * number. Its columns are the table's columns the first row sets, plus `extra` (name → SQL type),
   * whose values each row carries under its `extra` key.
   */
  recordset(
    rows: (T['$inferInsert'] & { extra?: Record<string, unknown> })[],
    extra: Record<string, string> = {},
  ): { source: SQL; columns: SQL } {
    const keys = Object.keys(rows[0] ?? {}).filter((key) => this.byKey.has(key));
    const columns = keys.map((key) => this.byKey.get(key)!);
    const encoded = rows.map((row) => {
      const out: Record<string, unknown> = { ...row.extra };
      columns.forEach((column, index) => {
        const value = (row as Record<string, unknown>)[keys[index]!] ?? null;
        out[column.name] = value === null || isJson(column) ? value : column.mapToDriverValue(value);
      });
      return out;
    });
    const definitions = [
      ...columns.map((column) => `"${column.name}" ${column.getSQLType()}`),
      ...Object.entries(extra).map(([name, type]) => `"${name}" ${type}`),
    ];
    return {
      source: sql`jsonb_to_recordset(${JSON.stringify(encoded)}::jsonb) AS d(${sql.raw(definitions.join(', '))})`,
      columns: sql.raw(columns.map((column) => `"${column.name}"`).join(', ')),
    };
  }
}

/** Ids as one `bigint[]` parameter: one placeholder however many ids. */
export function idArray(ids: readonly number[]): SQL {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
  return sql`${`{${ids.join(',')}}`}::bigint[]`;
}
