import { ApiPath, type AccountNoticeListView, type AccountNoticeView, type OrderView } from '@pipwise/domain';
import { and, eq, gt } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { outboxMessages, users } from '../src/db/schema.js';
import type { AccountNotices } from '../src/modules/notices/account.js';
import type { EngineOrderOutcome } from '../src/modules/trading/outcomes.js';
import type { Trader } from './factories.js';
import { DB_KINDS } from './harness.js';
import { accountNoticesOf, startTradingServer, TradingSocket, type TradingServer } from './trading-helpers.js';

/**
 * The trader is told what the engine did to their account: a take-profit, stop-loss, fill or stop-out
 * becomes one notice (the list under the bell and a NOTICE push) with the figures stored with the
 * order, a stop-out also an e-mail, and a crossing of the margin-call level (100 % by default) one
 * notice and one e-mail however long it lasts. EURUSD: spread 0.00008, contract 100,000.
 */
describe.each(DB_KINDS)('account notices on %s', (kind) => {
  let server: TradingServer;
  let notices: AccountNotices;
  let eurusd: number;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    eurusd = server.instrumentId('EURUSD');
    notices = accountNoticesOf(server);
    // On PostgreSQL the engine runs once this process has taken the engine's lead, shortly after start-up.
    await vi.waitFor(() => expect(server.engine.state).toBe('running'), { timeout: 30_000, interval: 50 });
  });
  afterAll(() => server.close());
  afterEach(() => settled());

  /** The engine's batches are written and their notices stored and sent. */
  const settled = async () => {
    await server.engine.settled();
    await notices.settled();
  };
  /** A tick once the engine has read what came before, then its look for margin calls (its timer's work, done now). */
  const tickAndLook = async (bid: string) => {
    await server.engine.settled();
    await server.tick('EURUSD', bid);
    await server.engine.marginCalls.sweep();
    await settled();
  };
  const list = async (trader: Trader) =>
    (await server.call<AccountNoticeListView>('GET', `${ApiPath.accountNoticeList}?page=1`, { token: trader.token })).data.data;
  const unread = async (trader: Trader) =>
    (await server.call<{ count: number }>('GET', ApiPath.accountNoticeUnread, { token: trader.token })).data.count;
  /** A trader who last signed in in English (e-mails are written in that language). */
  const englishTrader = async (balance: string) => {
    const trader = await server.trader({ balance });
    await server.database.db.update(users).set({ lang: 'en' }).where(eq(users.id, trader.userId));
    return trader;
  };
  const mails = async (trader: Trader) => {
    const [user] = await server.database.db.select({ email: users.email }).from(users).where(eq(users.id, trader.userId));
    return server.database.db
      .select({ subject: outboxMessages.subject, body: outboxMessages.body })
      .from(outboxMessages)
      .where(and(eq(outboxMessages.destination, user!.email!), gt(outboxMessages.id, 0)))
      .orderBy(outboxMessages.id);
  };
  const history = async (trader: Trader) =>
    (await server.call<{ data: OrderView[] }>('GET', `${ApiPath.myDeal}?status=3&page=1`, { token: trader.token })).data.data;

  it('a take-profit close makes exactly one notice, pushed once, with the stored P&L; no e-mail', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await server.trader({ balance: '10000' });
    const socket = await TradingSocket.open(server, trader.token, ['NOTICE']);
    const heard: EngineOrderOutcome[][] = [];
    const stopListening = server.ctx.bus.subscribe('trading.order_outcomes', ({ outcomes }) => heard.push(outcomes));
    const opened = await server.submit(trader, {
      type: 1,
      cont: '0.1',
      forex_id: eurusd,
      status: 1,
      multiple: 100,
      target_profit_price: '1.10100',
    });
    const order = opened.data as OrderView;
    // The engine has read the new position (an account it did not watch yet is read, not applied from the notice).
    await server.engine.settled();
    await server.tick('EURUSD', '1.10100'); // the bid reaches the TP: (1.101 − 1.10008) × 10,000 = 9.2
    await settled();
    stopListening();

    const [closed] = await history(trader);
    expect(closed).toMatchObject({ Id: order.Id, CloseReason: 'take_profit', FactProfits: 9.2 });
    const stored = await list(trader);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      kind: 'order',
      reason: 'take_profit',
      order_id: order.Id,
      code: order.ForexTradeLists.ShowCode,
      side: 1,
      lots: 0.1,
      price: 1.101,
      precision: 5,
      profit: closed!.FactProfits,
      read: false,
    });
    const pushed = await socket.next((m) => m.type === 'NOTICE');
    expect(pushed.data).toEqual(stored[0]);

    // Every process hears the same event: delivered again, it is still one notice, pushed once.
    for (const outcomes of heard) server.ctx.bus.publish('trading.order_outcomes', { outcomes });
    await settled();
    expect(await list(trader)).toHaveLength(1);
    expect(socket.of<AccountNoticeView>('NOTICE')).toHaveLength(1);
    expect(await mails(trader)).toEqual([]);

    expect(await unread(trader)).toBe(1);
    const read = await server.call('POST', ApiPath.accountNoticeRead, { token: trader.token });
    expect(read).toMatchObject({ code: 1, data: { marked: 1 } });
    expect(await unread(trader)).toBe(0);
    socket.close();
  });

  it('a crossing of the margin-call level is told once, and again only after the account left it', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await englishTrader('1000');
    // Margin 220.016, fee 1.10: balance 998.90. Margin level = (998.90 + (bid − 1.10008) × 100,000) ÷ 220.016.
    await server.submit(trader, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 500 });
    await tickAndLook('1.09500'); // 223 %
    expect(await list(trader)).toEqual([]);

    await tickAndLook('1.09200'); // (998.90 − 808) ÷ 220.016 = 86.77 %
    await tickAndLook('1.09190'); // 82.2 %: still in margin call
    await tickAndLook('1.09210'); // 91.3 %
    const calls = await list(trader);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ kind: 'margin_call', margin_level: 86.77, margin_call_level: 100, stop_out_level: 50 });
    const sent = await mails(trader);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('Margin call on your account');
    expect(sent[0]!.body).toContain('86.77 %');

    await tickAndLook('1.09500'); // back above 100 %
    await tickAndLook('1.09200'); // crossed again
    expect((await list(trader)).map((notice) => notice.kind)).toEqual(['margin_call', 'margin_call']);
    expect(await mails(trader)).toHaveLength(2);
  });

  it('a stop-out tells the trader with a notice and an e-mail holding the stored figures', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await englishTrader('1000');
    const socket = await TradingSocket.open(server, trader.token, ['NOTICE']);
    const order = (await server.submit(trader, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 500 }))
      .data as OrderView;
    await tickAndLook('1.09200'); // margin call first
    await tickAndLook('1.09000'); // equity 998.90 − 1008 < 0: stop-out

    const stored = await server.order(order.Id);
    expect(stored).toMatchObject({ status: 3, closeReason: 'stop_out', profit: '-1008.000000' });
    const notices = await list(trader);
    expect(notices.map((notice) => [notice.kind, notice.reason])).toEqual([
      ['order', 'stop_out'],
      ['margin_call', null],
    ]);
    expect(notices[0]).toMatchObject({ order_id: order.Id, profit: -1008, price: 1.09, lots: 1 });
    await socket.next((m) => m.type === 'NOTICE' && (m.data as AccountNoticeView).reason === 'stop_out');
    const sent = await mails(trader);
    expect(sent.map((mail) => mail.subject)).toEqual([
      'Margin call on your account',
      'Stop-out: positions closed on your account',
    ]);
    expect(sent[1]!.body).toContain(`EURUSD, 1 lots, closed at 1.09000, P&L -1008.00 USD (ticket ${order.Id})`);
    socket.close();
  });
  it('outcomes committed while no process was left to hear them are told once, when the next one starts', async () => {
    await server.tick('EURUSD', '1.10000');
    const trader = await englishTrader('10000');
    const pending = (
      await server.submit(trader, { type: 1, cont: '0.1', forex_id: eurusd, status: 0, target_price: '1.09500', multiple: 100 })
    ).data as OrderView;
    const open = (
      await server.submit(trader, {
        type: 1,
        cont: '0.1',
        forex_id: eurusd,
        status: 1,
        multiple: 100,
        stop_loss_price: '1.09600',
      })
    ).data as OrderView;
    await server.engine.settled();
    // The notices' listener gone, as if the process crashed right after the engine's commit.
    await notices.stop();
    await server.tick('EURUSD', '1.09400'); // fills the pending buy at the ask, and the bid is below the stop-loss
    await server.engine.settled();
    expect(await list(trader)).toEqual([]);

    notices.start();
    await settled();
    const [closed] = (await history(trader)).filter((order) => order.Id === open.Id);
    const told = await list(trader);
    expect(told.map((notice) => [notice.order_id, notice.reason]).sort()).toEqual(
      [
        [pending.Id, 'filled'],
        [open.Id, 'stop_loss'],
      ].sort(),
    );
    expect(told.find((notice) => notice.reason === 'stop_loss')).toMatchObject({
      price: closed!.UpdatePrice,
      profit: closed!.FactProfits,
      lots: 0.1,
      code: open.ForexTradeLists.ShowCode,
    });
    await notices.recoverOutcomes();
    await settled();
    expect(await list(trader)).toHaveLength(2);
  });
});
