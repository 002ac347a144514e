import { ApiPath, type DrawMethodView, type WithdrawalView, type WithdrawCurrencyView } from '@pipwise/domain';
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import {
  cashierEvents,
  idempotencyKeys,
  ledgerEntries,
  outboxMessages,
  payoutMethods,
  sessions,
  uploads,
  wallets,
  withdrawals,
} from '../src/db/schema.js';
import { hashToken } from '../src/modules/accounts/module.js';
import { createTrader, type Trader } from './factories.js';
import { ManualClock, startTestServer, type DbKind, type TestServer } from './harness.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

type Envelope<T> = Awaited<ReturnType<TestServer['call']>> & { data: T };

/** Valid mainnet addresses of each seeded protocol (the ERC20 one in its EIP-55 checksum casing). */
export const ADDRESSES = {
  TRC20: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  ERC20: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
  USDC: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
} as const;

export const COOLDOWN_MS = 24 * 3_600_000;

export interface WithdrawalServer extends TradingServer {
  trader(options?: { balance?: string; isDemo?: boolean }): Promise<Trader>;
  /** The id of a seeded withdraw currency: 'TRC20', 'ERC20' (USDT), 'USDC' (coins) or 'USD', 'EUR' (banks). */
  currency(key: 'TRC20' | 'ERC20' | 'USDC' | 'USD' | 'EUR'): Promise<WithdrawCurrencyView>;
  bind(trader: Trader, body: Record<string, unknown>): Promise<Envelope<DrawMethodView>>;
  /** A coin method bound and past its cool-down (the clock moves on). */
  usableMethod(trader: Trader, protocol?: 'TRC20' | 'ERC20' | 'USDC'): Promise<{ methodId: number; currencyId: number }>;
  draw(trader: Trader, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Envelope<WithdrawalView>>;
  operator(action: 'approve' | 'reject' | 'void', id: number, body?: Record<string, unknown>): Promise<Envelope<WithdrawalView>>;
  cancel(trader: Trader, id: number): Promise<Envelope<WithdrawalView>>;
  list(trader: Trader, query?: string): Promise<Envelope<{ data: WithdrawalView[]; total: number }>>;
  /** Rows the cashier writes, and the money: to show a refusal changed nothing. */
  snapshot(): Promise<Record<string, unknown>>;
  /** Another logged-in session of the same user: each session has its own request limits. */
  session(trader: Trader): Promise<Trader>;
  /** A verified real-name record, through the identity service (submitted with two uploads, approved). */
  verify(userId: number): Promise<void>;
  /**
   * Buys 0.5 lot of EURUSD at 100× for `trader` at the next weekday noon (cool-downs move the clock on,
   * past trading hours) and answers the free margin left, the figure forexDetail shows as withdrawable.
   */
  holdMargin(trader: Trader): Promise<number>;
}

/** A server with the manual market clock at a trading hour, KYC not required and operator rates that do not age (their own tests turn both on). */
export async function startWithdrawalServer(kind: DbKind): Promise<WithdrawalServer> {
  const clock = new ManualClock(MARKET_OPEN_AT);
  const server = tradingServer(await startTestServer(kind, { clock }), clock);
  // The cool-downs move the clock by days; the operator rates' age limit has its own test (withdrawals-rates).
  await server.ctx.settings.set({ withdraw_requires_kyc: '0', withdraw_rate_max_age_hours: '100000' });
  const db = server.database.db;
  const total = async (
    table:
      | typeof withdrawals
      | typeof cashierEvents
      | typeof ledgerEntries
      | typeof idempotencyKeys
      | typeof payoutMethods
      | typeof outboxMessages,
  ) => Number((await db.select({ n: count() }).from(table))[0]!.n);
  const upload = async (userId: number) => {
    const id = randomBytes(16).toString('base64url');
    const data = randomBytes(32);
    await db
      .insert(uploads)
      .values({ id, userId, mimeType: 'image/png', bytes: data.length, width: 1, height: 1, sha256: 'x', data });
    return id;
  };

  const extra = {
    trader: (options: { balance?: string; isDemo?: boolean } = {}) => createTrader(db, { now: clock.now(), ...options }),
    async currency(key: 'TRC20' | 'ERC20' | 'USDC' | 'USD' | 'EUR') {
      const type = key === 'USD' || key === 'EUR' ? 2 : 1;
      const owner = await createTrader(db, { balance: '0' });
      const list = await server.call<WithdrawCurrencyView[]>('GET', `${ApiPath.drawSymbols}?type=${type}`, {
        token: owner.token,
      });
      const found = list.data.find((row) =>
        type === 2 ? row.code === key : key === 'USDC' ? row.code === 'USDC' : row.code === 'USDT' && row.protocol === key,
      );
      if (!found) throw new Error(`no seeded withdraw currency ${key}`);
      return found;
    },
    bind: (trader: Trader, body: Record<string, unknown>) =>
      server.call<DrawMethodView>('POST', ApiPath.bindDrawMethod, { token: trader.token, body }),
    async usableMethod(trader: Trader, protocol: 'TRC20' | 'ERC20' | 'USDC' = 'TRC20') {
      const currency = await extra.currency(protocol);
      const bound = await extra.bind(trader, { type: 1, draw_id: currency.id, dc_address: ADDRESSES[protocol] });
      if (bound.code !== 1) throw new Error(`bind failed: ${bound.msg}`);
      clock.advance(COOLDOWN_MS);
      return { methodId: bound.data.id, currencyId: currency.id };
    },
    draw: (trader: Trader, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      server.call<WithdrawalView>('POST', ApiPath.draw, { token: trader.token, body, headers }),
    operator: async (action: 'approve' | 'reject' | 'void', id: number, body: Record<string, unknown> = {}) =>
      server.call<WithdrawalView>('POST', `/admin/api/withdrawals/${id}/${action}`, {
        body,
        headers: await server.operatorHeaders('alice', 'finance'),
      }),
    cancel: (trader: Trader, id: number) =>
      server.call<WithdrawalView>('POST', ApiPath.drawCancel, { token: trader.token, body: { id } }),
    list: (trader: Trader, query = '') =>
      server.call<{ data: WithdrawalView[]; total: number }>('GET', `${ApiPath.drawList}${query}`, { token: trader.token }),
    async snapshot() {
      const money = await db
        .select({ userId: wallets.userId, balance: wallets.balance, lock: wallets.lockBalance })
        .from(wallets);
      const methods = await db.select({ id: payoutMethods.id, deletedAt: payoutMethods.deletedAt }).from(payoutMethods);
      const records = await db.select({ id: withdrawals.id, status: withdrawals.status }).from(withdrawals);
      return {
        money: money.sort((a, b) => a.userId - b.userId),
        methods: methods.sort((a, b) => a.id - b.id),
        records: records.sort((a, b) => a.id - b.id),
        events: await total(cashierEvents),
        ledger: await total(ledgerEntries),
        keys: await total(idempotencyKeys),
        outbox: await total(outboxMessages),
      };
    },
    async session(trader: Trader) {
      const token = randomBytes(24).toString('hex');
      const now = clock.now();
      await db.insert(sessions).values({
        userId: trader.userId,
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 365 * 86_400_000),
      });
      return { userId: trader.userId, token };
    },
    async verify(userId: number) {
      await server.ctx.identity.submit(userId, {
        name: 'Ada Lovelace',
        card_id: 'X1234567',
        front_pic: await upload(userId),
        reverse_pic: await upload(userId),
      });
      await server.ctx.identity.approve(userId, { actor: 'operator:alice@ops.test' });
    },
    async holdMargin(trader: Trader) {
      const at = new Date(server.manualClock.now());
      do at.setUTCDate(at.getUTCDate() + 1);
      while (at.getUTCDay() === 0 || at.getUTCDay() >= 5);
      at.setUTCHours(12, 0, 0, 0);
      server.manualClock.set(at);
      await server.tick('EURUSD', '1.10000');
      const opened = await server.submit(trader, {
        type: 1,
        cont: '0.5',
        forex_id: server.instrumentId('EURUSD'),
        status: 1,
        multiple: 100,
      });
      if (opened.code !== 1) throw new Error(`the position did not open: ${opened.code} ${opened.msg}`);
      const detail = await server.call<{ withdrawable: number }>('GET', ApiPath.forexDetail, { token: trader.token });
      return detail.data.withdrawable;
    },
  };
  return Object.assign(server, extra);
}

export async function walletOf(server: TestServer, userId: number) {
  const [row] = await server.database.db.select().from(wallets).where(eq(wallets.userId, userId));
  return { balance: row!.balance, lock: row!.lockBalance };
}
