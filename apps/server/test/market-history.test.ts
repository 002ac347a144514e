import { KLINE_PERIODS, PERIOD_SECONDS, type KlinePeriod } from '@pipwise/domain';
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Module } from '../src/context.js';
import { INSTRUMENT_SEEDS } from '../src/modules/market/catalog.js';
import { selectRows } from '../src/modules/market/klines.js';
import { DB_KINDS, ManualClock, startTestServer, type TestServer } from './harness.js';

/** Tuesday 2026-11-17 10:07:20 UTC. */
const START = Date.UTC(2026, 10, 17, 10, 7, 20);

describe.each(DB_KINDS)('chart history on %s', (kind) => {
  let server: TestServer;
  let clock: ManualClock;
  let market: Module;
  const rows = <T>(statement: SQL) => selectRows<T>(server.database.db, statement);

  beforeAll(async () => {
    clock = new ManualClock(START);
    server = await startTestServer(kind, { clock, market: 'simulated', backfill: true });
    market = server.ctx.modules.find((m) => m.name === 'market')!;
  });
  afterAll(() => server.close());

  it('back-fills at least 500 bars of every period for every instrument on first start', async () => {
    const counts = await rows<{ code: string; period: string; bars: number }>(sql`
      SELECT i.code, k.period, count(*)::int AS bars FROM klines k JOIN instruments i ON i.id = k.instrument_id
      GROUP BY i.code, k.period`);
    expect(counts).toHaveLength(INSTRUMENT_SEEDS.length * KLINE_PERIODS.length);
    for (const row of counts) expect(row.bars, `${row.code} ${row.period}`).toBeGreaterThanOrEqual(500);
  });

  it('has low ≤ open, close ≤ high in every bar, and every bar on its UTC period boundary', async () => {
    const [bad] = await rows<{ broken: number }>(sql`
      SELECT count(*)::int AS broken FROM klines
      WHERE low > open OR low > close OR high < open OR high < close OR low <= 0`);
    expect(bad!.broken).toBe(0);
    for (const period of KLINE_PERIODS) {
      const [misaligned] = await rows<{ n: number }>(sql`
        SELECT count(*)::int AS n FROM klines WHERE period = ${period} AND open_time % ${PERIOD_SECONDS[period]} <> 0`);
      expect(misaligned!.n, period).toBe(0);
    }
  });

  /** Bars of `coarse` that differ from the aggregate of the `fine` bars inside them (where all of those are stored). */
  const mismatches = (fine: KlinePeriod, coarse: KlinePeriod) =>
    rows<{ instrument_id: number; open_time: number }>(sql`
      WITH agg AS (
        SELECT instrument_id, (open_time / ${PERIOD_SECONDS[coarse]}) * ${PERIOD_SECONDS[coarse]} AS bucket,
               (array_agg(open ORDER BY open_time))[1] AS open, max(high) AS high, min(low) AS low,
               (array_agg(close ORDER BY open_time DESC))[1] AS close, sum(volume) AS volume,
               min(open_time) AS first_time
        FROM klines WHERE period = ${fine} GROUP BY 1, 2),
      earliest AS (SELECT instrument_id, min(open_time) AS t FROM klines WHERE period = ${fine} GROUP BY 1)
      SELECT k.instrument_id, k.open_time FROM klines k
      JOIN earliest e ON e.instrument_id = k.instrument_id AND k.open_time >= e.t
      LEFT JOIN agg a ON a.instrument_id = k.instrument_id AND a.bucket = k.open_time
      WHERE k.period = ${coarse}
        AND (a.bucket IS NULL OR a.open <> k.open OR a.high <> k.high OR a.low <> k.low OR a.close <> k.close
             OR abs(a.volume - k.volume) > 0.05)`);

  it('makes each 5min bar the aggregate of its five 1min bars, and each longer period of the shorter one', async () => {
    const [checked] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM klines k WHERE period = '5min'
      AND open_time >= (SELECT min(open_time) FROM klines m WHERE m.period = '1min' AND m.instrument_id = k.instrument_id)`);
    expect(checked!.n).toBeGreaterThan(INSTRUMENT_SEEDS.length * 50);
    expect(await mismatches('1min', '5min')).toEqual([]);
    expect(await mismatches('5min', '15min')).toEqual([]);
    expect(await mismatches('30min', '60min')).toEqual([]);
    expect(await mismatches('60min', '1day')).toEqual([]);
  });

  it('closes the gap after a pause: a restart continues every chart up to the current minute', async () => {
    await market.stop!();
    clock.advance(3 * 3600_000);
    await market.start!();
    await market.stop!();
    const nowMinute = Math.floor(clock.now().getTime() / 60_000) * 60;
    const [latest] = await rows<{ t: string }>(sql`
      SELECT max(open_time)::text AS t FROM klines k JOIN instruments i ON i.id = k.instrument_id
      WHERE i.code = 'EURUSD' AND k.period = '1min'`);
    expect(Number(latest!.t)).toBe(nowMinute - 60);
    const [gap] = await rows<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM klines k JOIN instruments i ON i.id = k.instrument_id
      WHERE i.code = 'EURUSD' AND k.period = '1min' AND k.open_time >= ${nowMinute - 4 * 3600}`);
    expect(gap!.n).toBe(4 * 60);
    expect(await mismatches('1min', '5min')).toEqual([]);
    expect(await mismatches('5min', '15min')).toEqual([]);
  });
});
