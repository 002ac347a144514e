import { ApiPath, type OrderView } from '@pipwise/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, TradingSocket, type TradingServer } from './trading-helpers.js';

/** What moves an order between the app's lists, and what the lists show of it. */
describe.each(DB_KINDS)('order lists on %s', (kind) => {
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

  it('a fill, a take profit and a cancel each tell the owner’s sockets which orders moved', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '1000' });
    const socket = await TradingSocket.open(server, trader.token, ['FOREX_FILLED', 'FOREX_CLOSED']);
    const pending = (body: Record<string, unknown>) =>
      server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 0, multiple: 100, ...body });
    const filling = ((await pending({ target_price: '1.09500', target_profit_price: '1.10000' })).data as OrderView).Id;
    const cancelling = ((await pending({ target_price: '1.08000' })).data as OrderView).Id;

    await server.tick('EURUSD', '1.09490'); // ask 1.09498 reaches the first target only
    expect((await socket.next((m) => m.type === 'FOREX_FILLED')).data).toEqual([filling]);

    await server.tick('EURUSD', '1.10000'); // bid reaches its take profit
    expect((await socket.next((m) => m.type === 'FOREX_CLOSED')).data).toEqual([filling]);

    await server.call('POST', ApiPath.cancelOrder, { token: trader.token, body: { id: cancelling } });
    await socket.next((m) => m.type === 'FOREX_CLOSED' && (m.data as number[]).includes(cancelling));
    expect(socket.of('FOREX_FILLED')).toEqual([[filling]]);
    expect(socket.of('FOREX_CLOSED')).toEqual([[filling], [cancelling]]);
    socket.close();
  });

  it('a cancelled order reads as cancelled: no exit price, no P&L, no fee', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '1000' });
    const placed = await server.submit(trader, {
      type: 1,
      cont: '0.2',
      forex_id: eurusd,
      status: 0,
      target_price: '1.09000',
      multiple: 100,
    });
    const id = (placed.data as OrderView).Id;
    // While pending, the fee its reservation holds is shown as the estimate it is.
    expect((placed.data as OrderView).TradeFee).toBe(1.09);
    const cancelled = await server.call<OrderView>('POST', ApiPath.cancelOrder, { token: trader.token, body: { id } });
    expect(cancelled.data).toMatchObject({ Status: 3, CloseReason: 'cancelled', CloseReasonTran: 'Cancelled' });
    expect(cancelled.data).toMatchObject({ UpdatePrice: null, FactProfits: null, TradeFee: null });
    const history = await server.call<{ data: OrderView[] }>('GET', `${ApiPath.myDeal}?status=3`, { token: trader.token });
    expect(history.data.data).toEqual([cancelled.data]);
    expect((await server.wallet(trader.userId)).balance).toBe('1000.00');
  });

  it('pages by cursor: rows that leave or join between pages are neither skipped nor repeated', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '100000' });
    const place = async () =>
      (
        (
          await server.submit(trader, {
            type: 1,
            cont: '0.01',
            forex_id: eurusd,
            status: 0,
            target_price: '1.00000',
            multiple: 100,
          })
        ).data as OrderView
      ).Id;
    const cancel = async (id: number) => {
      server.manualClock.advance(1_000); // each lands at the top of History
      await server.call('POST', ApiPath.cancelOrder, { token: trader.token, body: { id } });
    };
    const page = async (status: number, cursor?: number) =>
      (
        await server.call<{ data: OrderView[]; next_cursor: number | null }>(
          'GET',
          `${ApiPath.myDeal}?status=${status}${cursor ? `&cursor=${cursor}` : ''}`,
          { token: trader.token },
        )
      ).data;
    const placed: number[] = [];
    for (let i = 0; i < 25; i++) placed.push(await place());
    const newestFirst = [...placed].reverse();

    // Pending: three rows of the first page leave and a new order joins before the next page.
    const first = await page(0);
    expect(first.data.map((o) => o.Id)).toEqual(newestFirst.slice(0, 10));
    for (const id of newestFirst.slice(0, 3)) await cancel(id);
    await place();
    const seen = first.data.map((o) => o.Id);
    for (let cursor = first.next_cursor; cursor !== null;) {
      const next = await page(0, cursor);
      seen.push(...next.data.map((o) => o.Id));
      cursor = next.next_cursor;
    }
    expect(seen).toEqual(newestFirst);

    // History: new rows join at the top while it is read; the rows after the cursor stay as they were.
    const history = await page(3);
    expect(history.data.map((o) => o.Id)).toEqual(newestFirst.slice(0, 3).reverse());
    expect(history.next_cursor).toBeNull();
    for (const id of newestFirst.slice(3, 15)) await cancel(id);
    const top = await page(3);
    expect(top.data.map((o) => o.Id)).toEqual(newestFirst.slice(3, 15).reverse().slice(0, 10));
    for (const id of newestFirst.slice(15, 20)) await cancel(id);
    const rest = await page(3, top.next_cursor!);
    expect(rest.data.map((o) => o.Id)).toEqual([...newestFirst.slice(3, 5).reverse(), ...newestFirst.slice(0, 3).reverse()]);
    expect(rest.next_cursor).toBeNull();
  });
});
