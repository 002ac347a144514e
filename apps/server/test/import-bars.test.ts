import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selectRows } from '../src/modules/market/klines.js';
import { databaseName } from '../src/cli/command.js';
import { cliDatabase, runCli, spawnCli, type CliDatabase } from './cli-helpers.js';
import { DB_KINDS } from './harness.js';

describe.each(DB_KINDS)('import-bars CLI on %s', (kind) => {
  let target: CliDatabase;
  /** Runs the CLI's main on the test's database, returning its exit code and output. */
  const importBars = (...args: string[]) => runCli('import-bars', args, target.env);
  const bars = async (period: string) => {
    const database = await target.open();
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
    target = await cliDatabase(kind, 'import');
  });
  afterAll(async () => {
    await target.drop();
  });

  it('rejects a file with a bad row, names the line, and imports nothing', async () => {
    const file = path.join(target.dir, 'bad.csv');
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
    const result = await importBars('--code', 'EURUSD', '--period', '1min', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('bad.csv:3: needs low ≤ open, close ≤ high');
    expect(result.stderr).toContain('bad.csv:4: high "abc" is not a non-negative number');
    expect(result.stderr).toContain('bad.csv:5: unreadable date or time');
    expect(result.stderr).toContain('bad.csv:6: rows must be in ascending time order');
    expect(result.stderr).toContain('nothing was imported');
    expect(await bars('1min')).toEqual([]);
  });

  it('imports valid rows in both layouts and rebuilds every longer period from them', async () => {
    const mt4 = path.join(target.dir, 'eurusd-mt4.csv');
    const rows = ['2026.03.02,14:00,1.08412,1.08420,1.08401,1.08415,132'];
    const prices = [1.08415, 1.0843, 1.08398, 1.08441, 1.08407, 1.08422, 1.08436, 1.08419, 1.08425];
    for (const [i, close] of prices.entries()) {
      const open = i === 0 ? 1.08415 : prices[i - 1]!;
      rows.push(
        `2026.03.02,14:${String(i + 1).padStart(2, '0')},${open.toFixed(5)},${(Math.max(open, close) + 0.00005).toFixed(5)},${(Math.min(open, close) - 0.00005).toFixed(5)},${close.toFixed(5)},${10 + i}`,
      );
    }
    writeFileSync(mt4, `${rows.join('\r\n')}\r\n`);
    // As npm runs it, once: a process of its own.
    const first = await spawnCli('import-bars', ['--code', 'eurusd', '--period', '1min', mt4], target.env);
    // stderr says only which database it opened.
    expect(first.stderr).toBe(`database: ${databaseName({ dataDir: target.dir, databaseUrl: target.env.DATABASE_URL })}\n`);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('imported 10 1min bars of EURUSD (2026-03-02T14:00:00.000Z → 2026-03-02T14:09:00.000Z)');

    const iso = path.join(target.dir, 'eurusd-iso.csv');
    writeFileSync(iso, 'datetime;open;high;low;close;volume\n2026-03-02T14:10:00Z;1.08425;1.08450;1.08420;1.08444;7\n');
    const second = await importBars('--code', 'EURUSD', '--period', '1min', iso);
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
    const file = path.join(target.dir, 'misaligned.csv');
    writeFileSync(file, '2026.03.02,14:03,1.1,1.2,1.0,1.15,5\n');
    const misaligned = await importBars('--code', 'EURUSD', '--period', '5min', file);
    expect(misaligned.code).toBe(1);
    expect(misaligned.stderr).toContain('misaligned.csv:1: time is not on a 5min boundary');
    const usage = await importBars('--code', 'EURUSD', file);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('usage: npm run import-bars');
    const unknown = await importBars('--code', 'NOPE', '--period', '1min', file);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining('unknown instrument code NOPE') as string });
  });
});
