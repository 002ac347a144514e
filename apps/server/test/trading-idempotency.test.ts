import { ApiPath, type OrderView } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, orders } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Issue 10 item 17: an Idempotency-Key names one request; its retries, even racing, get the first answer. */
describe.each(DB_KINDS)('Idempotency-Key on %s', (kind) => {
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

  const ordersOf = (userId: number) => server.database.db.select().from(orders).where(eq(orders.userId, userId));

  it('a key sent again with another order is refused with 1009 and places nothing', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '3000' });
    const headers = { 'idempotency-key': 'intent-a1' };
    const body = { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 };
    const first = await server.submit(trader, body, headers);
    expect(first.code).toBe(1);

    const larger = await server.submit(trader, { ...body, cont: '0.2' }, headers);
    expect(larger).toMatchObject({ code: 1009, msg: 'This Idempotency-Key was already used for another request' });
    const otherSide = await server.submit(trader, { ...body, type: 2 }, headers);
    expect(otherSide.code).toBe(1009);
    expect(await ordersOf(trader.userId)).toHaveLength(1);

    // The same order sent again (as a form, field order changed) is a retry: the first answer.
    const retry = await server.call('POST', ApiPath.submitOrder, {
      token: trader.token,
      headers,
      form: { multiple: '100', status: '1', forex_id: String(eurusd), cont: '0.1', type: '1' },
    });
    expect(retry).toMatchObject({ code: 1, data: { Id: (first.data as OrderView).Id } });
    expect(await ordersOf(trader.userId)).toHaveLength(1);
  });

  it('racing orders under one key with different bodies: one order, every other answer is it or 1009', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '3000' });
    const headers = { 'idempotency-key': 'intent-race-b2' };
    const lots = ['0.1', '0.2', '0.1', '0.3', '0.1'];
    const answers = await Promise.all(
      lots.map((cont) => server.submit(trader, { type: 1, cont, forex_id: eurusd, status: 1, multiple: 100 }, headers)),
    );
    const placed = await ordersOf(trader.userId);
    expect(placed).toHaveLength(1);
    // Whichever came first owns the key: the same body gets its order, any other body 1009.
    lots.forEach((cont, i) => {
      if (Number(cont) === Number(placed[0]!.lots)) expect(answers[i]).toMatchObject({ code: 1, data: { Id: placed[0]!.id } });
      else expect(answers[i]!.code).toBe(1009);
    });
  });

  it('a close key reused to close another position is refused with 1009', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '3000' });
    const body = { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 };
    const a = ((await server.submit(trader, body)).data as OrderView).Id;
    const b = ((await server.submit(trader, body)).data as OrderView).Id;
    const headers = { 'idempotency-key': 'close-c3' };
    expect(await server.call('POST', ApiPath.closeOrder, { token: trader.token, headers, body: { id: a } })).toMatchObject({
      code: 1,
    });
    const other = await server.call('POST', ApiPath.closeOrder, { token: trader.token, headers, body: { id: b } });
    expect(other.code).toBe(1009);
    expect((await server.order(b)).status).toBe(1);
  });

  it('20 concurrent closes with one key all get the first answer, and one profit is credited', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '5000' });
    const opened = await server.submit(trader, { type: 1, cont: '0.5', forex_id: eurusd, status: 1, multiple: 100 });
    const id = (opened.data as OrderView).Id;
    await server.tick('EURUSD', '1.10200');
    const headers = { 'idempotency-key': 'close-tap-d4' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => server.call('POST', ApiPath.closeOrder, { token: trader.token, headers, body: { id } })),
    );
    expect(answers[0]).toMatchObject({ code: 1, msg: 'Position closed', data: { Id: id, Status: 3, FactProfits: 96 } });
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const credits = await server.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refId, id), eq(ledgerEntries.type, 'trade_profit')));
    expect(credits).toHaveLength(1);
  });
});
