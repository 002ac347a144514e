import { ApiPath, type OrderView } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, TradingSocket, type TradingServer } from './trading-helpers.js';

/**
 * Every order lifecycle through real HTTP and the socket, with prices set by hand: EURUSD has a spread
 * of 0.00008, a contract of 100,000, margin = notional ÷ leverage and (trade_fee_type 2) fee = 0.5 % of
 * the margin.
 */
describe.each(DB_KINDS)('trading lifecycles on %s', (kind) => {
  let server: TradingServer;
  let eurusd: number;
  let gbpusd: number;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    eurusd = server.instrumentId('EURUSD');
    gbpusd = server.instrumentId('GBPUSD');
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const ledgerOf = async (userId: number) =>
    server.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId)).orderBy(ledgerEntries.id);

  it('market buy → close: fills at the ask, charges the fee, credits the result at the bid', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '10000' });
    const socket = await TradingSocket.open(server, trader.token);
    const opened = await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(opened).toMatchObject({ code: 1, msg: 'Order filled' });
    const order = opened.data as OrderView;
    expect(order).toMatchObject({
      OrderType: 1,
      Quantity: 0.1,
      Status: 1,
      Price: 1.10008,
      OriginPrice: 1.10008,
      CautionMoney: 110.008,
      TradeFee: 0.55,
      ForexTradeLists: { ShowCode: expect.any(String), Code: 'EURUSD', PricePrecision: 5 },
    });
    expect((await server.wallet(trader.userId)).balance).toBe('9999.45');

    await server.tick('EURUSD', '1.10108');
    const holding = await server.call<{ data: OrderView[]; total: number; all_fact_profits: number; balance: number }>(
      'GET',
      `${ApiPath.myDeal}?status=1&page=1`,
      { token: trader.token },
    );
    expect(holding.data).toMatchObject({ total: 1, all_fact_profits: 10, balance: 9999.45 });
    expect(holding.data.data[0]).toMatchObject({ Id: order.Id, UpdatePrice: 1.10108, FactProfits: 10 });
    const detail = await server.call('GET', ApiPath.forexDetail, { token: trader.token });
    expect(detail.data).toMatchObject({
      balance: 9999.45,
      net_value: 10009.45,
      current_margin: 110.008,
      available_prepayment: 9899.44,
      lock_balance: 0,
    });

    const push = await socket.next((m) => m.type === 'FOREX_TRADE');
    expect(push.data).toMatchObject({ CautionMoneyAll: 110.008, TransOrder: [{ Id: order.Id }] });

    const closed = await server.call('GET', `${ApiPath.closeOrder}?id=${order.Id}`, { token: trader.token });
    expect(closed).toMatchObject({
      code: 1,
      msg: 'Position closed',
      data: { Status: 3, UpdatePrice: 1.10108, FactProfits: 10, CloseReason: 'manual' },
    });
    expect((await server.wallet(trader.userId)).balance).toBe('10009.45');
    expect((await socket.next((m) => m.type === 'FOREX_CLOSED')).data).toEqual([order.Id]);
    expect((await ledgerOf(trader.userId)).map((l) => [l.type, l.amount])).toEqual([
      ['deposit', '10000.00'],
      ['trade_fee', '-0.55'],
      ['trade_profit', '10.00'],
    ]);
    const history = await server.call<{ data: OrderView[]; all_fact_profits: number }>('GET', `${ApiPath.myDeal}?status=3`, {
      token: trader.token,
      lang: 'de',
    });
    expect(history.data.all_fact_profits).toBe(10);
    expect(history.data.data[0]).toMatchObject({ CloseReasonTran: 'Manuell geschlossen' });
    socket.close();
  });

  it('market sell → close: opens at the bid and closes at the ask', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '5000' });
    const opened = await server.submit(trader, { type: 2, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 });
    expect(opened.data).toMatchObject({ OrderType: 2, Price: 1.1, CautionMoney: 110, TradeFee: 0.55 });
    await server.tick('EURUSD', '1.09900'); // ask 1.09908
    const closed = await server.call('POST', ApiPath.closeOrder, {
      token: trader.token,
      body: { id: (opened.data as OrderView).Id },
    });
    expect(closed.data).toMatchObject({ UpdatePrice: 1.09908, FactProfits: 9.2 });
    expect((await server.wallet(trader.userId)).balance).toBe('5008.65');
  });

  it('pending buy → fill when the ask falls to the target → take profit', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '1000' });
    const socket = await TradingSocket.open(server, trader.token);
    const placed = await server.submit(trader, {
      type: 1,
      cont: '0.1',
      forex_id: eurusd,
      status: 0,
      target_price: '1.09500',
      target_profit_price: '1.10000',
      multiple: 100,
    });
    expect(placed).toMatchObject({
      code: 1,
      msg: 'Pending order placed',
      data: { Status: 0, Price: 1.095, OriginPrice: 1.10008, OpenedAt: null, ClosedAt: null, CloseReason: null },
    });
    const id = (placed.data as OrderView).Id;
    const placedAt = server.manualClock.now().getTime();
    // Reserved: margin 109.5 + fee 0.5475 at the target price, to cents.
    expect(await server.wallet(trader.userId)).toEqual({ balance: '1000.00', lockBalance: '110.05' });

    await server.tick('EURUSD', '1.09600'); // ask 1.09608: not yet
    expect((await server.order(id)).status).toBe(0);
    server.manualClock.advance(60_000);
    await server.tick('EURUSD', '1.09490'); // ask 1.09498 ≤ 1.095: fills at this tick's ask
    const filledAt = server.manualClock.now().getTime();
    const filled = await server.order(id);
    expect(filled).toMatchObject({ status: 1, openPrice: '1.0949800000', margin: '109.498000', fee: '0.55', reserved: '0.00' });
    expect(await server.wallet(trader.userId)).toEqual({ balance: '999.45', lockBalance: '0.00' });

    server.manualClock.advance(60_000);
    await server.tick('EURUSD', '1.10000'); // bid reaches the TP
    const closedAt = server.manualClock.now().getTime();
    const closed = await server.order(id);
    expect(closed).toMatchObject({ status: 3, closeReason: 'take_profit', closePrice: '1.1000000000', profit: '50.200000' });
    expect((await server.wallet(trader.userId)).balance).toBe('1049.65');
    expect((await socket.next((m) => m.type === 'FOREX_CLOSED')).data).toEqual([id]);

    // The receipt in history: placed, opened at the fill and closed by the take profit, each at its own time.
    const history = await server.call<{ data: OrderView[] }>('GET', `${ApiPath.myDeal}?status=3`, { token: trader.token });
    const receipt = history.data.data.find((order) => order.Id === id)!;
    expect(receipt).toMatchObject({
      Price: 1.09498,
      UpdatePrice: 1.1,
      CautionMoney: 109.498,
      TradeFee: 0.55,
      FactProfits: 50.2,
      CloseReason: 'take_profit',
      CloseReasonTran: 'Take profit',
    });
    expect(Date.parse(receipt.CreatedAt)).toBe(placedAt);
    expect(Date.parse(receipt.OpenedAt!)).toBe(filledAt);
    expect(Date.parse(receipt.ClosedAt!)).toBe(closedAt);
    socket.close();
  });

  it('pending → cancel releases the reservation; a second cancel changes nothing', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '1000' });
    const placed = await server.submit(trader, {
      type: 2,
      cont: '0.2',
      forex_id: eurusd,
      status: 0,
      target_price: '1.11',
      multiple: 50,
    });
    const id = (placed.data as OrderView).Id;
    expect((await server.wallet(trader.userId)).lockBalance).not.toBe('0.00');
    const cancelled = await server.call('GET', `${ApiPath.cancelOrder}?id=${id}`, { token: trader.token });
    expect(cancelled).toMatchObject({ code: 1, msg: 'Order cancelled', data: { Status: 3, CloseReason: 'cancelled' } });
    expect(await server.wallet(trader.userId)).toEqual({ balance: '1000.00', lockBalance: '0.00' });
    const again = await server.call('GET', `${ApiPath.cancelOrder}?id=${id}`, { token: trader.token });
    expect(again).toMatchObject({ code: 1002, msg: 'This order is no longer pending' });
    // The cancelled target is no longer watched.
    await server.tick('EURUSD', '1.11000');
    expect((await server.order(id)).status).toBe(3);
  });

  it('stop loss closes a buy at the bid that reached it; TP/SL can be edited while holding', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '2000' });
    const opened = await server.submit(trader, {
      type: 1,
      cont: '0.1',
      forex_id: eurusd,
      status: 1,
      stop_loss_price: '1.09000',
      multiple: 100,
    });
    const id = (opened.data as OrderView).Id;
    const edited = await server.call('GET', `${ApiPath.setStopPrice}?id=${id}&stop_loss_price=1.0990&target_profit_price=1.2`, {
      token: trader.token,
    });
    expect(edited).toMatchObject({ code: 1, data: { TargetLossPrice: 1.099, TargetProfitPrice: 1.2 } });
    await server.tick('EURUSD', '1.09950');
    expect((await server.order(id)).status).toBe(1);
    await server.tick('EURUSD', '1.09850'); // through the SL: closes at this tick's bid
    expect(await server.order(id)).toMatchObject({
      status: 3,
      closeReason: 'stop_loss',
      closePrice: '1.0985000000',
      profit: '-15.800000',
    });
    expect((await server.wallet(trader.userId)).balance).toBe('1983.65');
  });

  it('stop-out on a gap closes every position, most losing first, and writes the negative balance off', async () => {
    await server.tick('EURUSD', '1.10000');
    await server.tick('GBPUSD', '1.30000');
    const trader = await server.trader({ balance: '1000' });
    const socket = await TradingSocket.open(server, trader.token);
    const eur = (await server.submit(trader, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 500 }))
      .data as OrderView;
    const gbp = (await server.submit(trader, { type: 1, cont: '0.5', forex_id: gbpusd, status: 1, multiple: 500 }))
      .data as OrderView;
    // Margins 220.016 + 130.006 = 350.022; fees 1.10 + 0.65; balance 998.25.
    expect((await server.wallet(trader.userId)).balance).toBe('998.25');
    await server.tick('EURUSD', '1.09500'); // EUR −508: equity 490.25, level 140 %
    expect((await server.order(eur.Id)).status).toBe(1);
    await server.tick('EURUSD', '1.09000'); // EUR −1008 (GBP −6): equity −15.75: stop-out
    const eurAfter = await server.order(eur.Id);
    expect(eurAfter).toMatchObject({ status: 3, closeReason: 'stop_out', profit: '-1008.000000' });
    // Balance 998.25 − 1008 < 0 → written off to zero; GBP (margin 130.006, floating −6) is then at −4.6 %: closed too.
    const gbpAfter = await server.order(gbp.Id);
    expect(gbpAfter).toMatchObject({ status: 3, closeReason: 'stop_out' });
    const ledger = await ledgerOf(trader.userId);
    expect(ledger.filter((l) => l.type === 'trade_profit').map((l) => l.refId)).toEqual([eur.Id, gbp.Id]);
    expect(ledger.filter((l) => l.type === 'write_off').length).toBeGreaterThanOrEqual(1);
    expect((await server.wallet(trader.userId)).balance).toBe('0.00');
    for (const id of [eur.Id, gbp.Id]) {
      await socket.next((m) => m.type === 'FOREX_CLOSED' && (m.data as number[]).includes(id));
    }
    socket.close();
  });

  it('stop-out leaves the remaining positions once the level is restored', async () => {
    await server.tick('EURUSD', '1.10000');
    await server.tick('GBPUSD', '1.30000');
    const trader = await server.trader({ balance: '1000' });
    const eur = (await server.submit(trader, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 500 }))
      .data as OrderView;
    const gbp = (await server.submit(trader, { type: 2, cont: '0.5', forex_id: gbpusd, status: 1, multiple: 500 }))
      .data as OrderView;
    // GBP sell gains while EUR loses: at EUR 1.09250 equity = 998.25 − 758 + 3.96 ≈ 244, used 350.022 → 69.7 %.
    await server.tick('GBPUSD', '1.29900');
    await server.tick('EURUSD', '1.09250');
    expect((await server.order(eur.Id)).status).toBe(1);
    // At EUR 1.09100 equity ≈ 94 (27 %): closing EUR realises −908; then equity = balance 90.25 + 3.96 on used 130.006 → 72 %.
    await server.tick('EURUSD', '1.09100');
    expect(await server.order(eur.Id)).toMatchObject({ status: 3, closeReason: 'stop_out' });
    expect((await server.order(gbp.Id)).status).toBe(1);
    expect((await server.wallet(trader.userId)).balance).toBe('90.25');
  });

  it('demo reset closes and cancels everything and restores the starting balance with ledger rows', async () => {
    await server.tick('EURUSD', '1.10000');
    const demo = await server.trader({ balance: '100000', isDemo: true });
    const held = (await server.submit(demo, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 100 }))
      .data as OrderView;
    const pending = (
      await server.submit(demo, { type: 1, cont: '1', forex_id: eurusd, status: 0, target_price: '1.05', multiple: 100 })
    ).data as OrderView;
    await server.tick('EURUSD', '1.09000');
    const reset = await server.call('GET', ApiPath.resetDemo, { token: demo.token });
    expect(reset).toMatchObject({ code: 1, msg: 'Demo account reset', data: { balance: 100000 } });
    expect(await server.order(held.Id)).toMatchObject({ status: 3, closeReason: 'demo_reset' });
    expect(await server.order(pending.Id)).toMatchObject({ status: 3, closeReason: 'demo_reset' });
    expect(await server.wallet(demo.userId)).toEqual({ balance: '100000.00', lockBalance: '0.00' });
    const types = (await ledgerOf(demo.userId)).map((l) => l.type);
    expect(types).toEqual(['demo_grant', 'trade_fee', 'trade_profit', 'demo_reset']);

    const real = await server.trader({ balance: '10' });
    const refused = await server.call('GET', ApiPath.resetDemo, { token: real.token });
    expect(refused).toMatchObject({ code: 1002, msg: 'Only demo accounts can be reset' });
    expect((await server.wallet(real.userId)).balance).toBe('10.00');
  });

  it('the ledger reads in the request language with a localized date', async () => {
    const trader = await server.trader({ balance: '123.45' });
    const en = await server.call<{
      data: { Value: number; MemoTran: string; CreatedAtTran: string; Type: string }[];
      total: number;
    }>('GET', `${ApiPath.ledger}?page=1`, { token: trader.token });
    expect(en.data.total).toBe(1);
    expect(en.data.data[0]).toMatchObject({ Value: 123.45, Type: 'deposit' });
    const hk = await server.call<{ data: { MemoTran: string; CreatedAtTran: string }[] }>('GET', ApiPath.ledger, {
      token: trader.token,
      lang: 'hk',
    });
    expect(hk.data.data[0]!.MemoTran).not.toBe(en.data.data[0]!.MemoTran);
    expect(hk.data.data[0]!.CreatedAtTran).not.toBe(en.data.data[0]!.CreatedAtTran);
    const balance = await server.call('GET', ApiPath.getBalance, { token: trader.token });
    expect(balance.data).toEqual({ balance: 123.45, lock_balance: 0, currency: 'USD' });
    const feeRows = await server.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, trader.userId), eq(ledgerEntries.type, 'trade_fee')));
    expect(feeRows).toEqual([]);
  });
});
