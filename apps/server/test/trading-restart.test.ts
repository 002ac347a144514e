import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiPath, type OrderView } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { ledgerEntries } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, openTestDatabase, startTestServer } from './harness.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

/**
 * Restart safety: what was acknowledged survives, nothing fills or closes twice, and the new process
 * watches the open positions again. In-process, a server "crashes" (stops handling anything, no
 * graceful stop) and a new one starts on the same database; below, a real `kill -9`.
 */
describe.each(DB_KINDS)('restart on %s', (kind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function boot(database: Database): Promise<TradingServer> {
    const clock = new ManualClock(MARKET_OPEN_AT);
    const server = tradingServer(await startTestServer(kind, { clock, database }), clock);
    cleanups.push(() => server.engine.stop());
    return server;
  }

  it('after a crash the new process has every acknowledged order, watches them again and fills each once', async () => {
    const database = await openTestDatabase(kind);
    cleanups.push(() => database.close());
    const first = await boot(database);
    const eurusd = first.instrumentId('EURUSD');
    await first.tick('EURUSD', '1.10000');
    const trader = await first.trader({ balance: '5000' });
    const key = { 'idempotency-key': 'before-crash-1' };
    const withTp = (
      await first.submit(
        trader,
        { type: 1, cont: '0.1', forex_id: eurusd, status: 1, target_profit_price: '1.102', multiple: 100 },
        key,
      )
    ).data as OrderView;
    const pending = (
      await first.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 0, target_price: '1.095', multiple: 100 })
    ).data as OrderView;
    const withSl = (
      await first.submit(trader, { type: 2, cont: '0.1', forex_id: eurusd, status: 1, stop_loss_price: '1.1015', multiple: 100 })
    ).data as OrderView;
    await first.crash();

    const second = await boot(database);
    expect(second.engine.watch.orderCount).toBe(3);
    // The acknowledged submit is not repeated by a client retry after the crash.
    const retried = await second.submit(
      trader,
      { type: 1, cont: '0.1', forex_id: eurusd, status: 1, target_profit_price: '1.102', multiple: 100 },
      key,
    );
    expect((retried.data as OrderView).Id).toBe(withTp.Id);

    await second.tick('EURUSD', '1.10000');
    await second.tick('EURUSD', '1.09490'); // fills the pending order
    expect((await second.order(pending.Id)).status).toBe(1);
    await second.tick('EURUSD', '1.10200'); // TP of the buy; ask 1.10208 hits the sell's SL
    expect(await second.order(withTp.Id)).toMatchObject({ status: 3, closeReason: 'take_profit' });
    expect(await second.order(withSl.Id)).toMatchObject({ status: 3, closeReason: 'stop_loss' });
    await second.crash();

    // A third start: the same prices again change nothing that already happened.
    const ledgerBefore = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, trader.userId));
    const third = await boot(database);
    expect(third.engine.watch.orderCount).toBe(1);
    await third.tick('EURUSD', '1.09490');
    await third.tick('EURUSD', '1.10200');
    const ledgerAfter = await database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, trader.userId));
    expect(ledgerAfter).toHaveLength(ledgerBefore.length);
    expect((await third.order(pending.Id)).status).toBe(1);
    await expectLedgerInvariants(database.db);
    await third.crash();
  });
});

describe('kill -9 of the server process', () => {
  const serverDir = path.resolve(import.meta.dirname, '..');
  const dirs: string[] = [];
  const children: ReturnType<typeof spawn>[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const freePort = () =>
    new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });

  async function launch(dataDir: string) {
    const port = await freePort();
    // Node itself runs the server (tsx as a loader, not as a wrapper process), so the kill hits the server.
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    children.push(child);
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    const base = `http://127.0.0.1:${port}`;
    const until = Date.now() + 240_000;
    for (;;) {
      try {
        if ((await fetch(`${base}/api/nope`)).status === 404) break;
      } catch {
        if (Date.now() > until) throw new Error('the server did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const call = async <T>(method: 'GET' | 'POST', url: string, token?: string, body?: unknown) => {
      const response = await fetch(base + url, {
        method,
        headers: {
          lang: 'en',
          ...(token ? { authorization: token } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await response.json()) as { code: number; msg: string; data: T };
    };
    return { child, exited, call };
  }

  it('loses no acknowledged order and writes no fee twice', { timeout: 400_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pipwise-kill-'));
    dirs.push(dataDir);
    const first = await launch(dataDir);
    const demo = await first.call<{ token: string }>('GET', ApiPath.createDemo);
    expect(demo.code).toBe(1);
    const token = demo.data.token;
    const pairs = await first.call<{ Id: number; Code: string }[]>('GET', ApiPath.tradeList);
    const btc = pairs.data.find((p) => p.Code === 'BTCUSD')!;
    const order = { type: 1, cont: '0.01', forex_id: btc.Id, status: 1, multiple: 10 };
    const acknowledged: number[] = [];
    for (let i = 0; i < 8; i++) {
      const answer = await first.call<OrderView>('POST', ApiPath.submitOrder, token, order);
      expect(answer.code).toBe(1);
      acknowledged.push(answer.data.Id);
    }
    // More orders in flight at the moment of the kill: they may or may not have committed.
    const inFlight = Array.from({ length: 4 }, () => first.call('POST', ApiPath.submitOrder, token, order).catch(() => null));
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all(inFlight);

    const second = await launch(dataDir);
    const holding = await second.call<{ data: OrderView[]; total: number }>('GET', `${ApiPath.myDeal}?status=1&page=1`, token);
    const page2 = await second.call<{ data: OrderView[] }>('GET', `${ApiPath.myDeal}?status=1&page=2`, token);
    const ids = [...holding.data.data, ...page2.data.data].map((o) => o.Id);
    expect(ids).toEqual(expect.arrayContaining(acknowledged));
    const closed = await second.call('GET', `${ApiPath.closeOrder}?id=${acknowledged[0]}`, token);
    expect(closed.code).toBe(1);
    second.child.kill('SIGTERM');
    await second.exited;

    const database = await openDatabase({ dataDir });
    try {
      await expectLedgerInvariants(database.db);
    } finally {
      await database.close();
    }
  });
});
