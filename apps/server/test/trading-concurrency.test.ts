import { ApiPath, type OrderView } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, orders } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Races that must not move money twice: parallel closes, parallel orders, a manual close against a TP, retries. */
describe.each(DB_KINDS)('trading under concurrency on %s', (kind) => {
  let server: TradingServer;
  let eurusd: number;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    eurusd = server.instrumentId('EURUSD');
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const creditsOf = (orderId: number) =>
    server.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'order'), eq(ledgerEntries.refId, orderId), eq(ledgerEntries.type, 'trade_profit')));

  it('50 parallel closes of one order: exactly one succeeds and one credit is written', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '10000' });
    const opened = await server.submit(trader, { type: 1, cont: '0.5', forex_id: eurusd, status: 1, multiple: 100 });
    const id = (opened.data as OrderView).Id;
    await server.tick('EURUSD', '1.10200');
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => server.call('GET', `${ApiPath.closeOrder}?id=${id}`, { token: trader.token })),
    );
    expect(answers.filter((a) => a.code === 1)).toHaveLength(1);
    expect(answers.filter((a) => a.code !== 1).map((a) => a.msg)).toEqual(Array(49).fill('This position is already closed'));
    expect(await creditsOf(id)).toHaveLength(1);
    // 0.5 lot from 1.10008 to 1.10200: +96, minus the fee 0.5 % × 550.04.
    expect((await server.wallet(trader.userId)).balance).toBe('10093.25');
  });

  it('parallel orders that together exceed free margin: only the ones that fit are accepted', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '1000' });
    // Each: margin 220.016 + fee 1.10, and the spread costs 8 at once; four fit in 1000, the fifth does not.
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => server.submit(trader, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 500 })),
    );
    const accepted = answers.filter((a) => a.code === 1);
    expect(accepted).toHaveLength(4);
    expect(answers.filter((a) => a.code !== 1).map((a) => a.msg)).toEqual(
      Array(6).fill('Insufficient free margin for this order'),
    );
    const held = await server.database.db.select().from(orders).where(eq(orders.userId, trader.userId));
    expect(held).toHaveLength(4);
    expect((await server.wallet(trader.userId)).balance).toBe('995.60');
    const detail = await server.call<{ available_prepayment: number }>('GET', ApiPath.forexDetail, { token: trader.token });
    expect(detail.data.available_prepayment).toBeGreaterThanOrEqual(0);
  });

  it('a manual close racing a take-profit trigger closes the order once', async () => {
    for (let round = 0; round < 5; round++) {
      await server.tick('EURUSD', '1.10000');
      const trader = await server.trader({ balance: '5000' });
      const opened = await server.submit(trader, {
        type: 1,
        cont: '0.1',
        forex_id: eurusd,
        status: 1,
        target_profit_price: '1.10100',
        multiple: 100,
      });
      const id = (opened.data as OrderView).Id;
      const manual = server.call('GET', `${ApiPath.closeOrder}?id=${id}`, { token: trader.token });
      server.feed.tick('EURUSD', '1.10150'); // the engine queues the TP close at once
      const answer = await manual;
      await server.engine.settled();
      const order = await server.order(id);
      expect(order.status).toBe(3);
      expect(['manual', 'take_profit']).toContain(order.closeReason);
      expect(answer.code === 1).toBe(order.closeReason === 'manual');
      expect(await creditsOf(id)).toHaveLength(1);
    }
  });

  it('an Idempotency-Key replays the first answer: one order, one fee, even when the retries race', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '3000' });
    const body = { type: 2, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 };
    const headers = { 'idempotency-key': 'submit-7f3a' };
    const answers = await Promise.all(Array.from({ length: 5 }, () => server.submit(trader, body, headers)));
    expect(answers.every((a) => a.code === 1)).toBe(true);
    const ids = new Set(answers.map((a) => (a.data as OrderView).Id));
    expect(ids.size).toBe(1);
    expect(await server.database.db.select().from(orders).where(eq(orders.userId, trader.userId))).toHaveLength(1);
    expect((await server.wallet(trader.userId)).balance).toBe('2999.45');

    const [id] = [...ids];
    const closeHeaders = { 'idempotency-key': 'close-7f3a' };
    const first = await server.call('GET', `${ApiPath.closeOrder}?id=${id}`, { token: trader.token, headers: closeHeaders });
    const retry = await server.call('GET', `${ApiPath.closeOrder}?id=${id}`, { token: trader.token, headers: closeHeaders });
    expect(first).toMatchObject({ code: 1, msg: 'Position closed' });
    expect(retry).toMatchObject({ code: 1, msg: 'Position closed', data: { Id: id, Status: 3 } });
    expect(await creditsOf(id!)).toHaveLength(1);

    const reused = await server.submit(trader, body, closeHeaders);
    expect(reused).toMatchObject({ code: 1009, msg: 'This Idempotency-Key was already used for another request' });
    const badKey = await server.submit(trader, body, { 'idempotency-key': 'no spaces allowed' });
    expect(badKey).toMatchObject({ code: 1001, msg: 'Invalid Idempotency-Key header' });
    expect(await server.database.db.select().from(orders).where(eq(orders.userId, trader.userId))).toHaveLength(1);
  });
});
