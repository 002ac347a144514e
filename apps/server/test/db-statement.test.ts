import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { statement } from '../src/db/statement.js';
import { DB_KINDS, openTestDatabase } from './harness.js';

describe.each(DB_KINDS)('statements rendered once, on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());

  it('binds each call its own values, keeping the constants the template held', async () => {
    let built = 0;
    const pick = statement<'name' | 'ids'>((slot) => {
      built += 1;
      return sql`SELECT ${slot('name')}::text AS name, ${7}::int AS constant, id
                 FROM unnest(${slot('ids')}::bigint[]) AS id WHERE id <> ${0}::bigint ORDER BY id`;
    });
    const first = rowsOf(await database.db.execute(pick({ name: 'first', ids: '{3,1,0}' })));
    const second = rowsOf(await database.db.execute(pick({ name: "it's $1", ids: '{5}' })));
    expect(built).toBe(1);
    expect(first.map((row) => [row.name, Number(row.constant), Number(row.id)])).toEqual([
      ['first', 7, 1],
      ['first', 7, 3],
    ]);
    expect(second.map((row) => [row.name, Number(row.id)])).toEqual([["it's $1", 5]]);
  });

  it('refuses a template whose own text looks like a parameter marker', () => {
    expect(() => statement<'x'>((slot) => sql`SELECT ${slot('x')}::text, '$1' AS literal`)).toThrow(/markers/);
  });
});
