import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../src/db/rows.js';
import { cliDatabase, runCli } from './cli-helpers.js';
import { DB_KINDS, TEST_APP_SECRET } from './harness.js';

/** A command's run opens the database or refuses to: up to seconds each on a loaded machine. */
const SLOW = { timeout: 300_000 };

describe('the command line on a DATA_DIR without the server’s database', () => {
  const parent = mkdtempSync(path.join(tmpdir(), 'pipwise-nodb-'));
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('refuses, says which folder, exits non-zero and creates nothing: a missing folder', SLOW, async () => {
    const dataDir = path.join(parent, 'misspelt-data');
    for (const [script, args, exitCode] of [
      ['operator', ['add', '--email', 'root@ops.test', '--role', 'superadmin'], 1],
      ['operator', ['list'], 1],
      ['audit', ['verify'], 2],
    ] as const) {
      const run = await runCli(script, [...args], { DATA_DIR: dataDir });
      expect(run, `${script} ${args.join(' ')}`).toMatchObject({
        code: exitCode,
        stdout: '',
        stderr: `no Pipwise database in PGlite in ${dataDir} (DATA_DIR): the command line opens the server's database and never makes one; give it the DATA_DIR (or DATABASE_URL) the server runs with\n`,
      });
      expect(existsSync(dataDir)).toBe(false);
    }
  });

  it('refuses an existing folder that holds no database, leaving it empty (no app secret, no database)', SLOW, async () => {
    const dataDir = mkdtempSync(path.join(parent, 'empty-'));
    const run = await runCli('operator', ['add', '--email', 'root@ops.test', '--role', 'superadmin'], { DATA_DIR: dataDir });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`no Pipwise database in PGlite in ${dataDir} (DATA_DIR)`);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});

describe.runIf(DB_KINDS.includes('postgres'))('the command line on a PostgreSQL database the server never set up', () => {
  it('refuses an empty database without creating a table, and names a missing one', SLOW, async () => {
    const target = await cliDatabase('postgres', 'empty', { empty: true });
    try {
      const run = await runCli('operator', ['add', '--email', 'root@ops.test', '--role', 'superadmin'], {
        APP_SECRET: TEST_APP_SECRET,
        ...target.env,
      });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^no Pipwise database in PostgreSQL postgres@[^ ]+\/pipwise_empty_\w+ \(DATABASE_URL\)/);
      const database = await target.open();
      const tables = rowsOf(
        await database.db.execute(sql`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname IN ('public', 'drizzle')`),
      );
      await database.close();
      expect(tables[0]?.n).toBe(0);

      const missing = new URL(target.env.DATABASE_URL!);
      missing.pathname = '/pipwise_no_such_database';
      const refused = await runCli('operator', ['list'], { APP_SECRET: TEST_APP_SECRET, DATABASE_URL: missing.toString() });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('cannot open PostgreSQL postgres@');
      expect(refused.stderr).toContain('database "pipwise_no_such_database" does not exist');
    } finally {
      await target.drop();
    }
  });
});
