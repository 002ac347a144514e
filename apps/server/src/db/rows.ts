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
  private readonly columns: { key: string; column: PgColumn; encode: (value: unknown) => unknown }[];
  private readonly byKey: Map<string, (typeof this.columns)[number]>;

  constructor(private readonly table: T) {
    this.columns = Object.entries(getTableColumns(table)).map(([key, column]) => {
      // JSON columns go into the JSON parameter as they are; the rest as their driver text.
      const encode = isJson(column) ? (value: unknown) => value : (value: unknown) => column.mapToDriverValue(value);
      return { key, column, encode };
    });
    this.byKey = new Map(this.columns.map((entry) => [entry.key, entry]));
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

  /** Every column of the rows matching `where`. */
  async select(executor: Executor, where: SQL): Promise<T['$inferSelect'][]> {
    return rowsOf(await executor.execute(sql`SELECT * FROM ${this.table} WHERE ${where}`)).map((raw) => this.read(raw));
  }

  /**
   * Rows of these columns (plus `extra`: name → SQL type, values carried in each row's own `extra`)
   * as a table expression `d` for a statement's FROM, all in one JSON parameter whatever their number.
   * `source` takes the SQL for that parameter (a value or a `statement` slot), `encode` makes its value.
   */
  recordset<Key extends keyof T['$inferInsert'] & string>(keys: readonly Key[], extra: Record<string, string>) {
    const columns = keys.map((key) => this.byKey.get(key)!);
    const definitions = sql.raw(
      [
        ...columns.map(({ column }) => `"${column.name}" ${column.getSQLType()}`),
        ...Object.entries(extra).map(([name, type]) => `"${name}" ${type}`),
      ].join(', '),
    );
    return {
      columns: sql.raw(columns.map(({ column }) => `"${column.name}"`).join(', ')),
      source: (json: SQL) => sql`jsonb_to_recordset(${json}::jsonb) AS d(${definitions})`,
      encode: (rows: { values: Pick<T['$inferInsert'], Key>; extra: Record<string, unknown> }[]) =>
        JSON.stringify(
          rows.map((row) => {
            const out: Record<string, unknown> = {};
            for (const { key, column, encode } of columns) {
              const value = (row.values as Record<string, unknown>)[key] ?? null;
              out[column.name] = value === null ? null : encode(value);
            }
            // Added after the columns: spreading them first made every row a slow dictionary (5× the cost).
            return Object.assign(out, row.extra);
          }),
        ),
    };
  }
}

/** The text of a `bigint[]` parameter. */
export function idArrayText(ids: readonly number[]): string {
  for (const id of ids) if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
  return `{${ids.join(',')}}`;
}

/** Ids as one `bigint[]` parameter: one placeholder however many ids. */
export function idArray(ids: readonly number[]): SQL {
  return sql`${idArrayText(ids)}::bigint[]`;
}
