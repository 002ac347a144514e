import {
  ApiPath,
  CashierType,
  DepositStatus,
  SocketTopic,
  type CoinChannelView,
  type DepositSymbolView,
  type DepositView,
  type OperatorDepositView,
  type WalletNoticeView,
  type WireChannelView,
} from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { depositChannels, deposits, ledgerEntries } from '../src/db/schema.js';
import { DEPOSITS_START, startDepositServer, type DepositServer } from './deposits-helpers.js';
import { TradingSocket } from './trading-helpers.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, ManualClock, openTestDatabase } from './harness.js';

const DAY_MS = 86_400_000;

/** Issue 11 items 2 and 4: a deposit from declaration to its one outcome, as the user and the operator see it. */
describe.each(DB_KINDS)('deposit lifecycle on %s', (kind) => {
  let server: DepositServer;
  const clock = new ManualClock(DEPOSITS_START);

  beforeAll(async () => {
    server = await startDepositServer(kind, { clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const creditsOf = (depositId: number) =>
    server.database.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'deposit'), eq(ledgerEntries.refId, depositId)));

  it('shows the seeded coin channels, their symbols and the bank accounts by currency', async () => {
    const trader = await server.trader();
    const info = await server.call<CoinChannelView[]>('GET', ApiPath.chargeInfo, { token: trader.token });
    expect(info.code).toBe(1);
    expect(info.data.map((channel) => `${channel.currency_code}/${channel.protocol_code}`)).toEqual([
      'USDT/TRC20',
      'USDT/ERC20',
      'USDC/ERC20',
    ]);
    expect(info.data[0]).toMatchObject({
      address: expect.stringMatching(/^T[1-9A-HJ-NP-Za-km-z]{33}$/),
      min_amount: 10,
      max_amount: 100000,
    });

    const symbols = await server.call<DepositSymbolView[]>('GET', ApiPath.chargeSymbols, { token: trader.token });
    expect(symbols.data).toEqual([
      { currency_code: 'USDT', protocols: ['TRC20', 'ERC20'] },
      { currency_code: 'USDC', protocols: ['ERC20'] },
    ]);

    const wires = await server.call<WireChannelView[]>('GET', ApiPath.wireInfo, { token: trader.token });
    expect(wires.data.map((wire) => `${wire.currency_code} ${wire.bank_swift}`)).toEqual(['USD CITIUS33', 'USD DEUTDEFF']);
    const dollars = await server.call<WireChannelView[]>('GET', `${ApiPath.wireInfo}?bank_coin=usd`, { token: trader.token });
    expect(dollars.data).toHaveLength(2);
    const euro = await server.call<WireChannelView[]>('GET', `${ApiPath.wireInfo}?bank_coin=eur`, { token: trader.token });
    expect(euro.data).toHaveLength(0);
    expect(dollars.data[1]).toMatchObject({ payee_account: expect.stringMatching(/^DE\d{20}$/), bank_swift: 'DEUTDEFF' });
  });

  it('a coin deposit: submitted unchecked with its timeline, approved, credited exactly once', async () => {
    const trader = await server.trader();
    const charge_id = await server.channel(CashierType.coin, 'USDT', 'TRC20');
    const submitted = await server.submitCoin(trader, {
      number: '250.5',
      proofImg: await server.proof(trader.userId),
      address: 'TXsender0000000000000000000000000',
      charge_id,
    });
    expect(submitted).toMatchObject({
      code: 1,
      msg: 'Deposit submitted. It will be credited once the payment is confirmed.',
      data: { number: 250.5, status: 0, status_name: 'Awaiting review', type: 1, currency_code: 'USDT', protocol_code: 'TRC20' },
    });
    expect(submitted.data.timeline).toMatchObject([{ status: 0, note: null }]);
    expect(await server.balanceOf(trader.userId)).toBe('0.00');

    const queue = await server.call<{ data: OperatorDepositView[] }>('GET', '/admin/api/deposits?status=0', {
      headers: await server.operatorHeaders('alice', 'finance'),
    });
    const queued = queue.data.data.find((row) => row.id === submitted.data.id);
    expect(queued).toMatchObject({ user_id: trader.userId, from_address: 'TXsender0000000000000000000000000' });
    expect(queued?.proof_url).toMatch(/^\/api\/common\/upload\/[A-Za-z0-9_-]{22}\?expires=\d+&sig=/);

    clock.advance(60_000);
    const approved = await server.operator('approve', submitted.data.id);
    expect(approved).toMatchObject({
      code: 1,
      msg: 'Deposit credited',
      data: { status: 1, credited_number: 250.5, decided_by: 'operator:alice@ops.test' },
    });
    expect(await server.balanceOf(trader.userId)).toBe('250.50');
    expect(await creditsOf(submitted.data.id)).toMatchObject([{ type: 'deposit', amount: '250.50' }]);

    const list = await server.list(trader, '?lang=de');
    expect(list.data.total).toBe(1);
    expect(list.data.data[0]).toMatchObject({ status: 1, status_name: 'Completed', remark: null });
    expect(list.data.data[0]!.timeline.map((step) => step.status)).toEqual([0, 1]);
    expect(list.data.data[0]!.created_at_tran).toMatch(/2026/);
  });

  it('an operator credits what arrived instead of what was declared; both are shown', async () => {
    const trader = await server.trader();
    const submitted = await server.submitWire(trader, {
      number: 1000,
      proofImg: await server.proof(trader.userId),
      wire_id: await server.channel(CashierType.bank, 'USD'),
    });
    expect(submitted.data).toMatchObject({ type: 2, currency_code: 'USD', protocol_code: null });
    const approved = await server.operator('approve', submitted.data.id, { credited_amount: '987.65' }, 'bob');
    expect(approved.data).toMatchObject({ number: 1000, credited_number: 987.65, decided_by: 'operator:bob@ops.test' });
    expect(await server.balanceOf(trader.userId)).toBe('987.65');

    const [row] = await server.database.db.select().from(deposits).where(eq(deposits.id, submitted.data.id));
    expect(row).toMatchObject({ amount: '1000.00', creditedAmount: '987.65', decidedBy: 'operator:bob@ops.test' });
    const list = await server.list(trader);
    expect(list.data.data[0]!.timeline[1]!.note).toBe('Credited 987.65 USD, the amount that arrived (declared 1000.00 USD)');
  });

  it('a rejection shows its reason as the remark, in the timeline, and credits nothing', async () => {
    const trader = await server.trader();
    const submitted = await server.submitCoin(trader, {
      number: '75',
      proofImg: await server.proof(trader.userId),
      charge_id: await server.channel(CashierType.coin, 'USDC'),
    });
    const rejected = await server.operator('reject', submitted.data.id, { reason: 'No payment with this reference arrived' });
    expect(rejected).toMatchObject({
      code: 1,
      msg: 'Deposit rejected',
      data: { status: 2, remark: 'No payment with this reference arrived' },
    });

    const list = await server.call<{ data: DepositView[] }>('GET', ApiPath.depositList, { token: trader.token, lang: 'fr' });
    expect(list.data.data[0]).toMatchObject({
      status: 2,
      status_name: 'Refusé',
      remark: 'No payment with this reference arrived',
    });
    expect(list.data.data[0]!.timeline[1]).toMatchObject({ status: 2, note: 'No payment with this reference arrived' });
    expect(await creditsOf(submitted.data.id)).toEqual([]);
    expect(await server.balanceOf(trader.userId)).toBe('0.00');

    // Decided is final: a later approval changes nothing.
    const late = await server.operator('approve', submitted.data.id);
    expect(late).toMatchObject({ code: 1009, msg: 'This deposit has already been decided; nothing was changed' });
    expect(await creditsOf(submitted.data.id)).toEqual([]);
  });

  it('a void makes the record invalid with the reason and credits nothing', async () => {
    const trader = await server.trader();
    const submitted = await server.submitWire(trader, {
      number: '300',
      proofImg: await server.proof(trader.userId),
      wire_id: await server.channel(CashierType.bank, 'USD'),
    });
    const voided = await server.operator('void', submitted.data.id, { reason: 'Duplicate of an earlier request' });
    expect(voided).toMatchObject({
      code: 1,
      msg: 'Deposit voided',
      data: { status: 3, status_name: 'Voided by us', status_reason: 'voided', remark: 'Duplicate of an earlier request' },
    });
    expect(await creditsOf(submitted.data.id)).toEqual([]);
  });

  it('records left unchecked past deposit_expiry_days become invalid, by the system; younger ones stay', async () => {
    const trader = await server.trader();
    const proofImg = await server.proof(trader.userId);
    const charge_id = await server.channel(CashierType.coin, 'USDT', 'ERC20');
    const old = await server.submitCoin(trader, { number: '40', proofImg, charge_id });
    clock.advance(3 * DAY_MS);
    const younger = await server.submitCoin(trader, { number: '41', proofImg: await server.proof(trader.userId), charge_id });

    clock.advance(4 * DAY_MS - 1000);
    expect(await server.deposits.expireStale(clock.now())).not.toContain(old.data.id);
    clock.advance(2000);
    const expired = await server.deposits.expireStale(clock.now());
    expect(expired).toContain(old.data.id);
    expect(expired).not.toContain(younger.data.id);
    // A second sweep finds nothing new: a record enters a status once.
    expect(await server.deposits.expireStale(clock.now())).not.toContain(old.data.id);

    const list = await server.list(trader);
    const byId = new Map(list.data.data.map((record) => [record.id, record]));
    expect(byId.get(old.data.id)).toMatchObject({ status: 3, remark: 'Not confirmed within the allowed time' });
    expect(byId.get(old.data.id)!.timeline.map((step) => step.status)).toEqual([0, 3]);
    expect(byId.get(younger.data.id)).toMatchObject({ status: 0 });
    const [row] = await server.database.db.select().from(deposits).where(eq(deposits.id, old.data.id));
    expect(row?.decidedBy).toBe('system');

    const late = await server.operator('approve', old.data.id);
    expect(late.code).toBe(1009);
    expect(await creditsOf(old.data.id)).toEqual([]);
  });

  it("tells the user's open apps on the socket (WALLET) when a deposit is credited or rejected", async () => {
    const trader = await server.trader();
    const socket = await TradingSocket.open(server, trader.token, [SocketTopic.wallet]);
    const stranger = await TradingSocket.open(server, (await server.trader()).token, [SocketTopic.wallet]);
    try {
      const declare = async () =>
        (
          await server.submitWire(trader, {
            number: '150',
            proofImg: await server.proof(trader.userId),
            wire_id: await server.channel(CashierType.bank, 'USD'),
          })
        ).data.id;
      const credited = await declare();
      await server.operator('approve', credited);
      const refused = await declare();
      await server.operator('reject', refused, { reason: 'No such payment' });
      await socket.next((message) => message.type === SocketTopic.wallet && (message.data as WalletNoticeView).id === refused);
      expect(socket.of<WalletNoticeView>(SocketTopic.wallet)).toEqual([
        { cause: 'deposit', id: credited, status: DepositStatus.finished },
        { cause: 'deposit', id: refused, status: DepositStatus.rejected },
      ]);
      expect(stranger.of(SocketTopic.wallet)).toEqual([]);
    } finally {
      socket.close();
      stranger.close();
    }
  });

  it('accepts form bodies, and lists by type with paging', async () => {
    const trader = await server.trader();
    const proofImg = await server.proof(trader.userId);
    const form = await server.call<DepositView>('POST', ApiPath.wireSubmit, {
      token: trader.token,
      form: { number: '150.25', proofImg, wire_id: String(await server.channel(CashierType.bank, 'USD')) },
    });
    expect(form).toMatchObject({ code: 1, data: { number: 150.25, type: 2 } });
    await server.submitCoin(trader, {
      number: 20,
      proofImg: `/api/common/upload/${await server.proof(trader.userId)}?expires=1&sig=x`,
      charge_id: await server.channel(CashierType.coin, 'USDT', 'TRC20'),
    });

    expect((await server.list(trader)).data.total).toBe(2);
    const wires = await server.list(trader, '?type=2');
    expect(wires.data.data.map((record) => record.type)).toEqual([2]);
    expect((await server.list(trader, '?type=1&page=2')).data.data).toEqual([]);
  });
});

describe.each(DB_KINDS)('deposits across a restart on %s', (kind) => {
  it('seeds channels once, and a start sweeps records that expired while no engine ran; a gateway does not', async () => {
    const clock = new ManualClock(DEPOSITS_START);
    const database = await openTestDatabase(kind);
    try {
      const first = await startDepositServer(kind, { clock, database });
      const trader = await first.trader();
      const submitted = await first.submitCoin(trader, {
        number: '30',
        proofImg: await first.proof(trader.userId),
        charge_id: await first.channel(CashierType.coin, 'USDT', 'TRC20'),
      });
      await first.close();

      clock.advance(8 * DAY_MS);
      const gateway = await startDepositServer(kind, { clock, database, env: { ROLE: 'gateway' } });
      expect((await gateway.list(trader)).data.data[0]).toMatchObject({ status: 0 });
      await gateway.close();

      const second = await startDepositServer(kind, { clock, database });
      expect((await second.list(trader)).data.data[0]).toMatchObject({ id: submitted.data.id, status: 3 });
      expect(await database.db.select().from(depositChannels)).toHaveLength(5);
      await expectLedgerInvariants(database.db);
      await second.close();
    } finally {
      await database.close();
    }
  });
});
