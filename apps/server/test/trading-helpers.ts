import { ApiPath, SOCKET_PATH } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { WebSocket } from 'ws';
import { ManualClock } from '../src/clock.js';
import { orders, wallets } from '../src/db/schema.js';
import type { CopyService } from '../src/modules/copy/service.js';
import type { AccountNotices } from '../src/modules/notices/account.js';
import type { RiskEngine } from '../src/modules/trading/engine.js';
import { createTrader, type Trader } from './factories.js';
import { startTestServer, type DbKind, type TestServer } from './harness.js';

/** A Wednesday noon (UTC): every session of the seeded instruments is open. */
export const MARKET_OPEN_AT = '2026-11-18T12:00:00Z';

export interface TradingServer extends TestServer {
  engine: RiskEngine;
  /** The market clock, set by hand. */
  manualClock: ManualClock;
  /** Quotes `code` at `bid` through the whole tick pipeline and waits until the engine has acted on it. */
  tick(code: string, bid: string): Promise<void>;
  instrumentId(code: string): number;
  trader(options?: { balance?: string; isDemo?: boolean }): Promise<Trader>;
  submit(trader: Trader, body: Record<string, unknown>, headers?: Record<string, string>): ReturnType<TestServer['call']>;
  order(id: number): Promise<typeof orders.$inferSelect>;
  wallet(userId: number): Promise<{ balance: string; lockBalance: string }>;
}

/** The copy module's service of a test server (its copier, providers, follows, fees and snapshots). */
export function copyServiceOf(server: TestServer): CopyService {
  return (server.ctx.modules.find((m) => m.name === 'copy') as unknown as { service: CopyService }).service;
}

/** The notices module's account notices of a test server (margin calls, close-outs, their e-mails). */
export function accountNoticesOf(server: TestServer): AccountNotices {
  return (server.ctx.modules.find((m) => m.name === 'notices') as unknown as { account: AccountNotices }).account;
}

export function engineOf(server: TestServer): RiskEngine {
  const module = server.ctx.modules.find((m) => m.name === 'trading') as unknown as { engine: RiskEngine };
  return module.engine;
}

/** Wraps a test server with the trading steps every lifecycle test uses. */
export function tradingServer(server: TestServer, manualClock: ManualClock): TradingServer {
  const engine = engineOf(server);
  return Object.assign(server, {
    engine,
    manualClock,
    async tick(code: string, bid: string) {
      server.feed.tick(code, bid);
      await engine.settled();
    },
    instrumentId(code: string) {
      const instrument = server.market.getInstrumentByCode(code);
      if (!instrument) throw new Error(`no instrument ${code}`);
      return instrument.id;
    },
    trader: (options?: { balance?: string; isDemo?: boolean }) => createTrader(server.database.db, options),
    submit(trader: Trader, body: Record<string, unknown>, headers: Record<string, string> = {}) {
      return server.call('POST', ApiPath.submitOrder, { token: trader.token, body, headers });
    },
    async order(id: number) {
      const [row] = await server.database.db.select().from(orders).where(eq(orders.id, id));
      return row!;
    },
    async wallet(userId: number) {
      const [row] = await server.database.db.select().from(wallets).where(eq(wallets.userId, userId));
      return { balance: row!.balance, lockBalance: row!.lockBalance };
    },
  });
}

export async function startTradingServer(kind: DbKind, options: { clock?: ManualClock } = {}): Promise<TradingServer> {
  const clock = options.clock ?? new ManualClock(MARKET_OPEN_AT);
  return tradingServer(await startTestServer(kind, { clock }), clock);
}

/** A logged-in socket subscribed to the trading topics, recording what it receives. */
export class TradingSocket {
  readonly messages: { type: string; data: unknown }[] = [];
  private waiters: (() => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      this.messages.push(JSON.parse(raw.toString('utf8')) as { type: string; data: unknown });
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  static async open(server: TestServer, token: string, topics = ['FOREX_TRADE', 'FOREX_CLOSED']) {
    const ws = new WebSocket(server.baseUrl.replace('http', 'ws') + SOCKET_PATH);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const socket = new TradingSocket(ws);
    ws.send(JSON.stringify({ type: 'login', token }));
    for (const topic of topics) ws.send(JSON.stringify({ type: 'sub', topic }));
    // Messages are handled in order: the pong proves the login and subscriptions are in place.
    ws.send(JSON.stringify({ type: 'ping' }));
    await socket.next((m) => m.type === 'pong');
    return socket;
  }

  of<T>(type: string): T[] {
    return this.messages.filter((m) => m.type === type).map((m) => m.data as T);
  }

  /** The first message (already received or still to come) that matches. */
  async next(match: (message: { type: string; data: unknown }) => boolean, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      if (Date.now() > deadline)
        throw new Error(`no matching socket message; got ${JSON.stringify(this.messages.map((m) => m.type))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close() {
    this.ws.close();
  }
}
