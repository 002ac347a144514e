import {
  ApiPath,
  dec,
  ResponseCode,
  SocketTopic,
  withdrawalQuote,
  WithdrawalStatus,
  type WalletNoticeView,
  type DrawMethodView,
  type WithdrawalView,
  type WithdrawCurrencyView,
} from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, outboxMessages, users, withdrawals } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { accountNoticesOf, TradingSocket } from './trading-helpers.js';
import { ADDRESSES, COOLDOWN_MS, startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

describe.each(DB_KINDS)('withdrawals and payout methods on %s', (kind) => {
  let server: WithdrawalServer;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const ledgerOf = (userId: number, id: number) =>
    server.database.db
      .select({ type: ledgerEntries.type, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.refType, 'withdrawal'), eq(ledgerEntries.refId, id)))
      .orderBy(ledgerEntries.id);

  it('bind → cool-down refusal → withdraw locks the amount → approve debits amount and fee exactly once', async () => {
    const trader = await server.trader({ balance: '1000' });
    await server.database.db.update(users).set({ lang: 'fr' }).where(eq(users.id, trader.userId));
    const trc20 = await server.currency('TRC20');
    const bound = await server.bind(trader, { type: 1, draw_id: trc20.id, dc_address: ADDRESSES.TRC20 });
    expect(bound.code).toBe(1);
    expect(bound.msg).toMatch(/^Payout method added\. It can receive withdrawals from .+UTC$/);
    const usableAt = new Date(server.manualClock.now().getTime() + COOLDOWN_MS).toISOString();
    expect(bound.data).toMatchObject({ type: 1, dc_address: ADDRESSES.TRC20, usable: false, usable_at: usableAt });
    expect(bound.data.draw_currency).toEqual({ id: trc20.id, code: 'USDT', protocol: 'TRC20' });

    const [user] = await server.database.db.select({ email: users.email }).from(users).where(eq(users.id, trader.userId));
    const mail = await server.database.db.select().from(outboxMessages).where(eq(outboxMessages.destination, user!.email!));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe('Un moyen de versement a été ajouté à votre compte Pipwise');
    expect(mail[0]!.body).toContain('USDT TRC20 TLa2f6…YjU7');

    const early = await server.draw(trader, { draw_currency_id: trc20.id, number: '100', draw_method_id: bound.data.id });
    expect(early).toMatchObject({ code: ResponseCode.rejected, data: null });
    expect(early.msg).toMatch(/^For your security, a new payout method can be used from .+UTC$/);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '0.00' });

    server.manualClock.advance(COOLDOWN_MS);
    const methods = await server.call<DrawMethodView[]>('GET', `${ApiPath.getDrawMethod}?draw_type=1`, { token: trader.token });
    expect(methods.data.map((method) => [method.id, method.usable])).toEqual([[bound.data.id, true]]);

    const requested = await server.draw(trader, {
      draw_currency_id: trc20.id,
      number: '100',
      memo: 'rent',
      draw_method_id: bound.data.id,
    });
    expect(requested).toMatchObject({ code: 1, msg: 'Withdrawal request submitted for review' });
    expect(requested.data).toMatchObject({
      number: 100,
      fee: 1,
      real_number: 99,
      status: 0,
      status_name: 'Under review',
      address: ADDRESSES.TRC20,
      notes: 'rent',
      draw_currency: { code: 'USDT', protocol: 'TRC20' },
    });
    expect(requested.data.timeline.map((step) => step.status)).toEqual([0]);
    const id = requested.data.id;

    const balance = await server.call<{ balance: number; lock_balance: number }>('GET', ApiPath.getBalance, {
      token: trader.token,
    });
    expect(balance.data).toMatchObject({ balance: 1000, lock_balance: 100 });
    const detail = await server.call<{ withdrawable: number }>('GET', ApiPath.forexDetail, { token: trader.token });
    expect(detail.data.withdrawable).toBe(900);

    const approved = await server.operator('approve', id);
    expect(approved).toMatchObject({ code: 1, msg: 'Withdrawal completed' });
    expect(approved.data).toMatchObject({ status: 1, status_name: 'Completed' });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '900.00', lock: '0.00' });
    expect(await ledgerOf(trader.userId, id)).toEqual([
      { type: 'withdrawal', amount: '-99.00' },
      { type: 'withdrawal_fee', amount: '-1.00' },
    ]);

    for (const action of ['approve', 'reject', 'void'] as const) {
      const again = await server.operator(action, id, { reason: 'late click' });
      expect(again).toMatchObject({
        code: ResponseCode.conflict,
        msg: 'This withdrawal has already been decided and cannot change',
      });
    }
    expect((await server.cancel(trader, id)).msg).toBe('This withdrawal has already been decided and cannot change');
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '900.00', lock: '0.00' });
    expect(await ledgerOf(trader.userId, id)).toHaveLength(2);

    const list = await server.list(trader, '?type=1');
    expect(list.data.total).toBe(1);
    expect(list.data.data[0]!.timeline.map((step) => [step.status, step.status_name])).toEqual([
      [0, 'Under review'],
      [1, 'Completed'],
    ]);
    expect(list.data.data[0]!.created_at_tran).toMatch(/UTC/);
  });

  it('reject, the user’s cancel and void each release the lock and move no money', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    const ids: number[] = [];
    for (const number of ['100', '200', '300']) {
      const made = await server.draw(trader, { draw_currency_id: currencyId, number, draw_method_id: methodId });
      expect(made.code).toBe(1);
      ids.push(made.data.id);
    }
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '600.00' });

    const rejectedOne = await server.operator('reject', ids[0]!, { reason: 'Address on a sanctions list' });
    expect(rejectedOne).toMatchObject({ code: 1, msg: 'Withdrawal rejected; the funds were released' });
    expect(rejectedOne.data).toMatchObject({ status: 2, status_name: 'Rejected', remark: 'Address on a sanctions list' });
    expect(rejectedOne.data.timeline.at(-1)).toMatchObject({ status: 2, note: 'Address on a sanctions list' });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '500.00' });

    const cancelled = await server.cancel(trader, ids[1]!);
    expect(cancelled).toMatchObject({ code: 1, msg: 'Withdrawal cancelled; the funds are available again' });
    expect(cancelled.data).toMatchObject({ status: 3, status_name: 'Cancelled by you', status_reason: 'cancelled' });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '300.00' });

    const voided = await server.operator('void', ids[2]!, { reason: 'Duplicate request' });
    expect(voided.data).toMatchObject({ status: 3, remark: 'Duplicate request' });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '0.00' });
    for (const id of ids) expect(await ledgerOf(trader.userId, id)).toEqual([]);

    const queue = await server.call<{ data: unknown[] }>('GET', '/admin/api/withdrawals?status=3', {
      headers: await server.operatorHeaders('alice', 'finance'),
    });
    expect(queue.data.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ids[1], user_id: trader.userId, decided_by: 'user' }),
        expect.objectContaining({ id: ids[2], decided_by: 'operator:alice@ops.test' }),
      ]),
    );
  });

  it("tells the user's open apps on the socket (WALLET) when a request is made, cancelled or approved", async () => {
    const trader = await server.trader({ balance: '1000' });
    const socket = await TradingSocket.open(server, trader.token, [SocketTopic.wallet]);
    try {
      // Skips the payout method's 24-hour cool-down on the app clock; the socket stays open across it.
      const { methodId, currencyId } = await server.usableMethod(trader);
      server.ctx.hub.sweep();
      const request = () => server.draw(trader, { draw_currency_id: currencyId, number: '100', draw_method_id: methodId });
      const cancelled = (await request()).data.id;
      expect((await server.cancel(trader, cancelled)).code).toBe(1);
      const approved = (await request()).data.id;
      expect(await server.operator('approve', approved)).toMatchObject({ code: 1, data: { status: WithdrawalStatus.completed } });
      await socket.next(
        (message) =>
          message.type === SocketTopic.wallet && (message.data as WalletNoticeView).status === WithdrawalStatus.completed,
      );
      expect(socket.of<WalletNoticeView>(SocketTopic.wallet)).toEqual([
        { cause: 'withdrawal', id: cancelled, status: WithdrawalStatus.unreviewed },
        { cause: 'withdrawal', id: cancelled, status: WithdrawalStatus.invalid },
        { cause: 'withdrawal', id: approved, status: WithdrawalStatus.unreviewed },
        { cause: 'withdrawal', id: approved, status: WithdrawalStatus.completed },
      ]);
    } finally {
      socket.close();
    }
  });

  it('charges the fee and promises the received amount of withdrawalQuote, for fixed and rate currencies', async () => {
    const trader = await server.trader({ balance: '100000' });
    const cases: { key: 'ERC20' | 'USDC' | 'EUR'; number: string; bind: Record<string, unknown> }[] = [
      { key: 'ERC20', number: '123.45', bind: { type: 1, dc_address: ADDRESSES.ERC20 } },
      { key: 'USDC', number: '1234.57', bind: { type: 1, dc_address: ADDRESSES.USDC } },
      {
        key: 'EUR',
        number: '333.33',
        bind: {
          type: 2,
          bank_name: 'Deutsche Bank',
          payee_name: 'Ada Lovelace',
          payee_account: 'DE89 3704 0044 0532 0130 00',
          bank_swift: 'deutdeff',
        },
      },
    ];
    const currencies: WithdrawCurrencyView[] = [];
    const methodIds: number[] = [];
    for (const entry of cases) {
      const currency = await server.currency(entry.key);
      currencies.push(currency);
      const bound = await server.bind(trader, { ...entry.bind, draw_id: currency.id });
      expect(bound.code).toBe(1);
      methodIds.push(bound.data.id);
    }
    server.manualClock.advance(COOLDOWN_MS);
    for (const [index, entry] of cases.entries()) {
      const currency = currencies[index]!;
      const quote = withdrawalQuote(entry.number, currency);
      const made = await server.draw(trader, {
        draw_currency_id: currency.id,
        number: entry.number,
        draw_method_id: methodIds[index],
      });
      expect(made.code).toBe(1);
      expect(made.data).toMatchObject({
        number: Number(entry.number),
        fee: quote.fee.toNumber(),
        real_number: quote.received.toNumber(),
      });
      const [row] = await server.database.db.select().from(withdrawals).where(eq(withdrawals.id, made.data.id));
      expect({ fee: row!.fee, received: row!.received }).toEqual({
        fee: quote.fee.toFixed(2),
        received: quote.received.toFixed(2),
      });
    }
    // ERC20 is a fixed 5; USDC 0.5 % of 1234.57 = 6.17285 → 6.17, received 1228.40; EUR 1 % → 3.33, 330 × 0.92 = 303.60.
    expect(cases.map((entry, index) => withdrawalQuote(entry.number, currencies[index]!).fee.toFixed(2))).toEqual([
      '5.00',
      '6.17',
      '3.33',
    ]);
  });

  it('never lets margin in use leave: at most the free margin, the same figure forexDetail shows', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    const withdrawable = await server.holdMargin(trader);
    expect(withdrawable).toBeGreaterThan(0);
    expect(withdrawable).toBeLessThan(Number((await walletOf(server, trader.userId)).balance) - 500);

    const before = await server.snapshot();
    const tooMuch = await server.draw(trader, {
      draw_currency_id: currencyId,
      number: dec(withdrawable).plus('0.01').toFixed(2),
      draw_method_id: methodId,
    });
    expect(tooMuch).toMatchObject({ code: ResponseCode.rejected, data: null });
    expect(tooMuch.msg).toBe(
      `You can withdraw at most ${withdrawable.toFixed(2)} USD (margin in use and locked funds stay in the account)`,
    );
    expect(await server.snapshot()).toEqual(before);

    const exact = await server.draw(trader, {
      draw_currency_id: currencyId,
      number: withdrawable.toFixed(2),
      draw_method_id: methodId,
    });
    expect(exact.code).toBe(1);
    const after = await server.call<{ withdrawable: number }>('GET', ApiPath.forexDetail, { token: trader.token });
    expect(after.data.withdrawable).toBe(0);

    // Once approved, the risk engine measures the position against the smaller balance at once.
    await server.engine.settled();
    const riskBefore = server.engine.tradePush(trader.userId)!.HazardRate;
    expect(riskBefore).not.toBeNull();
    expect((await server.operator('approve', exact.data.id)).code).toBe(1);
    await server.engine.settled();
    expect(server.engine.tradePush(trader.userId)!.HazardRate).toBeGreaterThan(riskBefore!);

    // Equity now equals the margin in use: the margin call is told by e-mail. Looked for here, and not
    // left to the engine's timer, so its mail lands in this test and not in a later test's snapshot.
    await server.engine.marginCalls.sweep();
    await accountNoticesOf(server).settled();
    const [user] = await server.database.db.select({ email: users.email }).from(users).where(eq(users.id, trader.userId));
    const told = await server.database.db.select().from(outboxMessages).where(eq(outboxMessages.destination, user!.email!));
    expect(told.map((mail) => mail.subject)).toContain('帳戶追加保證金通知'); // the user's language: hk, the default
  });

  it('deleting a method leaves requests made with it as they were; it can no longer be chosen', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader, 'ERC20');
    const made = await server.draw(trader, { draw_currency_id: currencyId, number: '50', draw_method_id: methodId });
    expect(made.code).toBe(1);
    const deleted = await server.call('POST', ApiPath.delDrawMethod, { token: trader.token, body: { id: methodId } });
    expect(deleted).toMatchObject({ code: 1, msg: 'Payout method deleted' });
    const methods = await server.call<DrawMethodView[]>('GET', `${ApiPath.getDrawMethod}?draw_type=1`, { token: trader.token });
    expect(methods.data).toEqual([]);

    const listed = await server.list(trader);
    expect(listed.data.data[0]).toMatchObject({ id: made.data.id, address: ADDRESSES.ERC20, status: 0 });
    expect((await server.operator('approve', made.data.id)).code).toBe(1);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '950.00', lock: '0.00' });

    const again = await server.draw(trader, { draw_currency_id: currencyId, number: '50', draw_method_id: methodId });
    expect(again).toMatchObject({ code: ResponseCode.notFound, msg: 'Payout method not found' });
    const deletedAgain = await server.call('POST', ApiPath.delDrawMethod, { token: trader.token, body: { id: methodId } });
    expect(deletedAgain).toMatchObject({ code: ResponseCode.notFound, msg: 'Payout method not found' });
    const rebound = await server.bind(trader, { type: 1, draw_id: currencyId, dc_address: ADDRESSES.ERC20 });
    expect(rebound.code).toBe(1);
  });

  it('binds bank accounts: IBANs in electronic form, plain account numbers where IBANs do not apply; duplicates refused', async () => {
    const trader = await server.trader({ balance: '0' });
    const eur = await server.currency('EUR');
    const usd = await server.currency('USD');
    const iban = await server.bind(trader, {
      type: 2,
      draw_id: eur.id,
      bank_name: 'Barclays',
      payee_name: 'Ada Lovelace',
      payee_account: 'gb82 west 1234 5698 7654 32',
      bank_swift: 'BARCGB22',
    });
    expect(iban.data).toMatchObject({ payee_account: 'GB82WEST12345698765432', bank_swift: 'BARCGB22', type: 2 });
    const plain = await server.bind(trader, {
      type: 2,
      draw_id: usd.id,
      bank_name: 'Chase',
      payee_name: 'Ada Lovelace',
      payee_account: '0123-456789',
    });
    expect(plain.data).toMatchObject({ payee_account: '0123456789', bank_swift: null });
    const duplicate = await server.bind(trader, {
      type: 2,
      draw_id: eur.id,
      bank_name: 'Barclays',
      payee_name: 'Ada Lovelace',
      payee_account: 'GB82WEST12345698765432',
    });
    expect(duplicate).toMatchObject({ code: ResponseCode.conflict, msg: 'This payout method is already added' });

    const erc20 = await server.currency('ERC20');
    expect((await server.bind(trader, { type: 1, draw_id: erc20.id, dc_address: ADDRESSES.ERC20 })).code).toBe(1);
    const lower = await server.bind(trader, { type: 1, draw_id: erc20.id, dc_address: ADDRESSES.ERC20.toLowerCase() });
    expect(lower).toMatchObject({ code: ResponseCode.conflict, msg: 'This payout method is already added' });
    const banks = await server.call<DrawMethodView[]>('GET', `${ApiPath.getDrawMethod}?draw_type=2&draw_id=${eur.id}`, {
      token: trader.token,
    });
    expect(banks.data.map((method) => method.id)).toEqual([iban.data.id]);
  });

  it('takes the bind and the request as forms, the way the app posts them', async () => {
    const trader = await server.trader({ balance: '1000' });
    const usdt = await server.currency('TRC20');
    const usd = await server.currency('USD');
    const coin = await server.call<DrawMethodView>('POST', ApiPath.bindDrawMethod, {
      token: trader.token,
      form: { type: '1', draw_id: String(usdt.id), dc_address: ADDRESSES.TRC20 },
    });
    expect(coin.data).toMatchObject({ type: 1, dc_address: ADDRESSES.TRC20 });
    const bank = await server.call<DrawMethodView>('POST', ApiPath.bindDrawMethod, {
      token: trader.token,
      form: {
        type: '2',
        draw_id: String(usd.id),
        bank_name: 'Chase',
        payee_name: 'Ada Lovelace',
        payee_account: '000123456789',
        bank_swift: 'CHASUS33',
      },
    });
    expect(bank.data).toMatchObject({ type: 2, payee_account: '000123456789', bank_swift: 'CHASUS33' });
    server.manualClock.advance(COOLDOWN_MS);
    const made = await server.call<WithdrawalView>('POST', ApiPath.draw, {
      token: trader.token,
      form: { draw_currency_id: String(usd.id), number: '150.50', memo: 'school fees', draw_method_id: String(bank.data.id) },
    });
    expect(made.code).toBe(1);
    expect(made.data).toMatchObject({
      number: 150.5,
      fee: 1.51,
      real_number: 148.99,
      payee_account: '000123456789',
      bank_name: 'Chase',
      type: 2,
    });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '150.50' });
  });

  it('replays an Idempotency-Key: one record and one lock per key; another request with the key is refused', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(trader);
    const body = { draw_currency_id: currencyId, number: '100', draw_method_id: methodId };
    const refused = await server.draw(trader, { ...body, number: '5000' }, { 'idempotency-key': 'intent-1' });
    expect(refused.code).toBe(ResponseCode.rejected);
    const first = await server.draw(trader, body, { 'idempotency-key': 'intent-1' });
    const second = await server.draw(trader, body, { 'idempotency-key': 'intent-1' });
    expect(first.code).toBe(1);
    expect(second).toMatchObject({ code: 1, msg: first.msg, data: { id: first.data.id } });
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '100.00' });
    const other = await server.draw(trader, { ...body, number: '200' }, { 'idempotency-key': 'intent-1' });
    expect(other).toMatchObject({ code: ResponseCode.conflict, data: null });
    expect(other.msg).not.toBe(first.msg);
    const rows = await server.database.db.select().from(withdrawals).where(eq(withdrawals.userId, trader.userId));
    expect(rows).toHaveLength(1);
  });

  it('with withdraw_requires_kyc on, refuses until the user is verified', async () => {
    await server.ctx.settings.set({ withdraw_requires_kyc: '1' });
    try {
      const trader = await server.trader({ balance: '1000' });
      const { methodId, currencyId } = await server.usableMethod(trader);
      const body = { draw_currency_id: currencyId, number: '100', draw_method_id: methodId };
      const before = await server.snapshot();
      const refused = await server.draw(trader, body);
      expect(refused).toMatchObject({
        code: ResponseCode.forbidden,
        msg: 'Complete real-name verification before withdrawing',
        data: null,
      });
      const german = await server.call('POST', ApiPath.draw, { token: trader.token, body, lang: 'de' });
      expect(german.msg).toBe('Schließen Sie vor einer Auszahlung die Identitätsprüfung ab');
      expect(await server.snapshot()).toEqual(before);

      await server.verify(trader.userId);
      expect((await server.draw(trader, body)).code).toBe(1);
    } finally {
      await server.ctx.settings.set({ withdraw_requires_kyc: '0' });
    }
  });
});
