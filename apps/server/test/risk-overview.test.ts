import { dec } from '@pipwise/domain';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { depositChannels, deposits, payoutMethods, uploads, users, withdrawCurrencies, withdrawals } from '../src/db/schema.js';
import type { Trader } from './factories.js';
import { DB_KINDS, startTestServer } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

interface RiskView {
  instruments: {
    code: string;
    long_lots: number;
    short_lots: number;
    net_lots: number;
    net_exposure_usd: number | null;
    floating_pnl: number;
  }[];
  book: { net_exposure_usd: number; floating_pnl: number; clients_net_exposure_usd: number; clients_floating_pnl: number };
  stop_out_level: number;
  nearest_stop_out: { uid: number; equity: number; used_margin: number; margin_level: number }[];
  today: { deposits: { count: number; amount: number }; withdrawals: { count: number; amount: number }; new_users: number };
  at: string;
}

describe.each(DB_KINDS)('risk overview on %s', (kind) => {
  let server: TradingServer;
  let a: Trader;
  let b: Trader;
  let c: Trader;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    await server.tick('EURUSD', '1.10000');
    await server.tick('GBPUSD', '1.30000');
    a = await server.trader({ balance: '10000' });
    b = await server.trader({ balance: '10000' });
    c = await server.trader({ balance: '1200' });
    const eurusd = server.instrumentId('EURUSD');
    const gbpusd = server.instrumentId('GBPUSD');
    for (const [trader, body] of [
      [a, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 100 }],
      [b, { type: 2, cont: '0.3', forex_id: eurusd, status: 1, multiple: 100 }],
      [b, { type: 1, cont: '0.5', forex_id: gbpusd, status: 1, multiple: 100 }],
      [c, { type: 1, cont: '1', forex_id: eurusd, status: 1, multiple: 100 }],
      // A pending order is no exposure.
      [a, { type: 1, cont: '2', forex_id: eurusd, status: 0, multiple: 100, target_price: '1.00000' }],
    ] as const) {
      const placed = await server.submit(trader, body);
      expect(placed.code, placed.msg).toBe(1);
    }
    await server.tick('EURUSD', '1.09500');
    await server.engine.settled();
  });
  afterAll(() => server.close());

  const uidOf = async (trader: Trader) =>
    (await server.database.db.select({ uid: users.uid }).from(users).where(eq(users.id, trader.userId)))[0]!.uid;
  const risk = async (target = server, operator = 'desk') =>
    target.call<RiskView>('GET', '/admin/api/risk', { headers: await target.operatorHeaders(operator, 'finance') });

  /**
   * By hand, at EURUSD 1.09500/1.09508 and GBPUSD 1.30000/1.30012 (100,000 a lot):
   * A buys 1 EURUSD at 1.10008: (1.09500 − 1.10008) × 100,000 = −508.00, margin 1,100.08;
   * B sells 0.3 EURUSD at 1.10000: −(1.09508 − 1.10000) × 30,000 = +147.60, margin 330.00,
   *   and buys 0.5 GBPUSD at 1.30012: (1.30000 − 1.30012) × 50,000 = −6.00, margin 650.06;
   * C buys 1 EURUSD at 1.10008: −508.00, margin 1,100.08.
   * Net EURUSD 2 − 0.3 = 1.7 lots × 100,000 × mid 1.09504 = 186,156.80 USD; GBPUSD 0.5 × 100,000 × 1.30006 = 65,003.00.
   */
  const expected = {
    instruments: [
      { code: 'EURUSD', long_lots: 2, short_lots: 0.3, net_lots: 1.7, net_exposure_usd: 186156.8, floating_pnl: -868.4 },
      { code: 'GBPUSD', long_lots: 0.5, short_lots: 0, net_lots: 0.5, net_exposure_usd: 65003, floating_pnl: -6 },
    ],
    book: {
      net_exposure_usd: -251159.8,
      floating_pnl: 874.4,
      clients_net_exposure_usd: 251159.8,
      clients_floating_pnl: -874.4,
    },
    stop_out_level: 50,
  };

  /** Equity and margin level from each trader's cash after the fees, and the floating P&L above. */
  const nearest = async () => {
    const account = async (trader: Trader, floating: string, used: string) => {
      const equity = dec((await server.wallet(trader.userId)).balance).plus(floating);
      return {
        uid: await uidOf(trader),
        equity: equity.toDecimalPlaces(2).toNumber(),
        used_margin: Number(used),
        margin_level: equity.dividedBy(used).times(100).toDecimalPlaces(2).toNumber(),
      };
    };
    return [await account(c, '-508', '1100.08'), await account(a, '-508', '1100.08'), await account(b, '141.6', '980.06')];
  };

  it('answers per instrument and for the book from the engine, with the accounts nearest stop-out', async () => {
    const answer = await risk();
    expect(answer.code, answer.msg).toBe(1);
    expect(answer.data).toMatchObject(expected);
    expect(answer.data.nearest_stop_out).toEqual(await nearest());
    // C: 1,194.50 cash − 508 = 686.50 equity over 1,100.08 margin.
    expect(answer.data.nearest_stop_out[0]).toMatchObject({ equity: 686.5, margin_level: 62.4 });
  });

  it("counts today's finished deposits, completed withdrawals and new real users", async () => {
    const db = server.database.db;
    const now = server.clock.now();
    const yesterday = new Date(now.getTime() - 86_400_000);
    const [channel] = await db.select().from(depositChannels).limit(1);
    const proof = async () => {
      const id = randomBytes(16).toString('base64url');
      await db.insert(uploads).values({
        id,
        userId: a.userId,
        mimeType: 'image/png',
        bytes: 1,
        width: 1,
        height: 1,
        sha256: id,
        data: Buffer.from([1]),
      });
      return id;
    };
    const deposit = async (status: number, amount: string, credited: string | null, decidedAt: Date | null) =>
      db.insert(deposits).values({
        userId: a.userId,
        channelId: channel!.id,
        type: channel!.type,
        currencyCode: 'USDT',
        payTo: 'x',
        amount,
        creditedAmount: credited,
        proofUploadId: await proof(),
        status,
        decidedAt,
        createdAt: yesterday,
      });
    await deposit(1, '300', '250.50', now);
    await deposit(1, '100', '100', now);
    await deposit(1, '999', '999', yesterday);
    await deposit(0, '500', null, null);
    const [currency] = await db.select().from(withdrawCurrencies).limit(1);
    const [method] = await db
      .insert(payoutMethods)
      .values({ userId: b.userId, type: currency!.type, currencyId: currency!.id, address: 'x', usableAt: yesterday })
      .returning();
    const withdrawal = (status: number, amount: string, decidedAt: Date | null) =>
      db.insert(withdrawals).values({
        userId: b.userId,
        type: currency!.type,
        currencyId: currency!.id,
        methodId: method!.id,
        amount,
        fee: '1',
        usdPrice: '1',
        received: amount,
        currencyCode: 'USDT',
        protocol: 'TRC20',
        status,
        decidedAt,
        createdAt: yesterday,
      });
    await withdrawal(1, '40.25', now);
    await withdrawal(2, '70', now);
    await withdrawal(1, '80', yesterday);
    await server.trader({ isDemo: true });
    // The answer is shared for a moment by every poller; the next moment reads again.
    server.manualClock.advance(10_000);
    const { data } = await risk();
    expect(data.today).toEqual({
      deposits: { count: 2, amount: 350.5 },
      withdrawals: { count: 1, amount: 40.25 },
      new_users: 3,
    });
  });

  it('a gateway (no engine here) answers the same from the database', async () => {
    const gateway = await startTestServer(kind, {
      clock: server.manualClock,
      database: server.database,
      bus: server.ctx.bus,
      env: { ROLE: 'gateway' },
    });
    try {
      // The gateway hears quotes over the shared bus.
      server.feed.tick('EURUSD', '1.09500');
      server.feed.tick('GBPUSD', '1.30000');
      const answer = await risk(gateway as TradingServer, 'desk-at-gateway');
      expect(answer.code, answer.msg).toBe(1);
      expect(answer.data).toMatchObject(expected);
      expect(answer.data.nearest_stop_out).toEqual(await nearest());
    } finally {
      await gateway.close();
    }
  });

  it('is for finance and support only', async () => {
    const compliance = await server.operatorHeaders('kyc', 'compliance');
    expect((await server.call('GET', '/admin/api/risk', { headers: compliance })).code).toBe(1003);
    expect((await server.call('GET', '/admin/api/risk', { token: a.token })).code).toBe(999);
    const support = await server.operatorHeaders('help', 'support');
    expect((await server.call('GET', '/admin/api/risk', { headers: support })).code).toBe(1);
  });
});
