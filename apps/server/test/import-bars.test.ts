import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';
import { selectRows } from '../src/modules/market/klines.js';
import { DB_KINDS, type DbKind } from './harness.js';

const run = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs the real CLI (the npm script's command, without npm's own notices) against a database, returning its exit code and output. */
async function importBars(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli/import-bars.ts', ...args], {
      cwd: serverDir,
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** A PGlite data directory, or a fresh database on the PostgreSQL server. */
async function target(kind: DbKind, dir: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (kind === 'pglite') return { env: { DATA_DIR: dir }, cleanup: async () => undefined };
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `pipwise_import_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    cleanup: async () => {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

describe.each(DB_KINDS)('import-bars CLI on %s', (kind) => {
  let dir: string;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  const bars = async (period: string) => {
    const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
    try {
      return await selectRows<{ open_time: string; open: string; high: string; low: string; close: string; volume: string }>(
        database.db,
        sql`SELECT k.open_time::text, k.open::text, k.high::text, k.low::text, k.close::text, k.volume::text
            FROM klines k JOIN instruments i ON i.id = k.instrument_id
            WHERE i.code = 'EURUSD' AND k.period = ${period} ORDER BY k.open_time`,
      );
    } finally {
      await database.close();
    }
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'pipwise-import-'));
    ({ env, cleanup } = await target(kind, dir));
  });
  afterAll(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('rejects a file with a bad row, names the line, and imports nothing', async () => {
    const file = path.join(dir, 'bad.csv');
    writeFileSync(
      file,
      [
        'Date,Time,Open,High,Low,Close,Volume',
        '2026.03.02,14:00,1.08412,1.08420,1.08401,1.08415,132',
        '2026.03.02,14:01,1.08415,1.08410,1.08400,1.08405,90',
        '2026.03.02,14:02,1.08405,abc,1.08400,1.08405,90',
        '2026.02.30,14:03,1.08405,1.08410,1.08400,1.08405,90',
        '2026.03.02,14:00,1.08405,1.08410,1.08400,1.08405,90',
      ].join('\n'),
    );
    const result = await importBars(env, '--code', 'EURUSD', '--period', '1min', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad.csv:3: needs low ≤ open, close ≤ high');
    expect(result.stderr).toContain('bad.csv:4: high "abc" is not a non-negative number');
    expect(result.stderr).toContain('bad.csv:5: unreadable date or time');
    expect(result.stderr).toContain('bad.csv:6: rows must be in ascending time order');
    expect(result.stderr).toContain('nothing was imported');
    expect(await bars('1min')).toEqual([]);
  });

  it('imports valid rows in both layouts and rebuilds every longer period from them', async () => {
    const mt4 = path.join(dir, 'eurusd-mt4.csv');
    const rows = ['2026.03.02,14:00,1.08412,1.08420,1.08401,1.08415,132'];
    const prices = [1.08415, 1.0843, 1.08398, 1.08441, 1.08407, 1.08422, 1.08436, 1.08419, 1.08425];
    for (const [i, close] of prices.entries()) {
      const open = i === 0 ? 1.08415 : prices[i - 1]!;
      rows.push(
        `2026.03.02,14:${String(i + 1).padStart(2, '0')},${open.toFixed(5)},${(Math.max(open, close) + 0.00005).toFixed(5)},${(Math.min(open, close) - 0.00005).toFixed(5)},${close.toFixed(5)},${10 + i}`,
      );
    }
    writeFileSync(mt4, `${rows.join('\r\n')}\r\n`);
    const first = await importBars(env, '--code', 'eurusd', '--period', '1min', mt4);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported 10 1min bars of EURUSD (2026-03-02T14:00:00.000Z → 2026-03-02T14:09:00.000Z)');

    const iso = path.join(dir, 'eurusd-iso.csv');
    writeFileSync(iso, 'datetime;open;high;low;close;volume\n2026-03-02T14:10:00Z;1.08425;1.08450;1.08420;1.08444;7\n');
    const second = await importBars(env, '--code', 'EURUSD', '--period', '1min', iso);
    expect(second.code).toBe(0);

    expect(await bars('1min')).toHaveLength(11);
    expect(await bars('5min')).toEqual([
      {
        open_time: String(Date.UTC(2026, 2, 2, 14, 0) / 1000),
        open: '1.0841200000',
        high: '1.0844600000',
        low: '1.0839300000',
        close: '1.0844100000',
        volume: '178.0000',
      },
      {
        open_time: String(Date.UTC(2026, 2, 2, 14, 5) / 1000),
        open: '1.0844100000',
        high: '1.0844600000',
        low: '1.0840200000',
        close: '1.0842500000',
        volume: '80.0000',
      },
      {
        open_time: String(Date.UTC(2026, 2, 2, 14, 10) / 1000),
        open: '1.0842500000',
        high: '1.0845000000',
        low: '1.0842000000',
        close: '1.0844400000',
        volume: '7.0000',
      },
    ]);
    const day = await bars('1day');
    expect(day).toEqual([
      {
        open_time: String(Date.UTC(2026, 2, 2) / 1000),
        open: '1.0841200000',
        high: '1.0845000000',
        low: '1.0839300000',
        close: '1.0844400000',
        volume: '265.0000',
      },
    ]);
  });

  it('refuses a misaligned bar and explains its usage', async () => {
    const file = path.join(dir, 'misaligned.csv');
    writeFileSync(file, '2026.03.02,14:03,1.1,1.2,1.0,1.15,5\n');
    const misaligned = await importBars(env, '--code', 'EURUSD', '--period', '5min', file);
    expect(misaligned.code).toBe(1);
    expect(misaligned.stderr).toContain('misaligned.csv:1: time is not on a 5min boundary');
    const usage = await importBars(env, '--code', 'EURUSD', file);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run import-bars');
    const unknown = await importBars(env, '--code', 'NOPE', '--period', '1min', file);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown instrument code NOPE') as string });
  });
});
