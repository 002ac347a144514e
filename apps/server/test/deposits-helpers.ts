import { ApiPath, type DepositView, type OperatorDepositView } from '@pipwise/domain';
import { randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { cashierEvents, depositChannels, deposits, idempotencyKeys, ledgerEntries, uploads, wallets } from '../src/db/schema.js';
import type { Database } from '../src/db/client.js';
import type { DepositsService } from '../src/modules/deposits/service.js';
import { createTrader, type Trader } from './factories.js';
import { startTestServer, type DbKind, type ManualClock, type TestServer } from './harness.js';

/** 2026-11-18 is when the factories' sessions start; a ManualClock starts here too. */
export const DEPOSITS_START = '2026-11-18T09:00:00Z';

type Envelope<T> = Awaited<ReturnType<TestServer['call']>> & { data: T };

export interface DepositServer extends TestServer {
  deposits: DepositsService;
  trader(options?: { balance?: string; isDemo?: boolean }): Promise<Trader>;
  /** An upload owned by `userId`, made in the database (the upload endpoint has its own suite). */
  proof(userId: number): Promise<string>;
  channel(type: number, currency: string, protocol?: string): Promise<number>;
  submitCoin(trader: Trader, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Envelope<DepositView>>;
  submitWire(trader: Trader, body: Record<string, unknown>, headers?: Record<string, string>): Promise<Envelope<DepositView>>;
  operator(
    action: 'approve' | 'reject' | 'void',
    id: number,
    body?: Record<string, unknown>,
    /** The finance operator `<name>@ops.test` (default alice). */
    name?: string,
  ): Promise<Envelope<OperatorDepositView>>;
  list(trader: Trader, query?: string): Promise<Envelope<{ data: DepositView[]; total: number }>>;
  /** Rows the cashier writes, to show a refusal changed nothing. */
  counts(): Promise<{ deposits: number; events: number; ledger: number; keys: number }>;
  balanceOf(userId: number): Promise<string>;
}

export async function startDepositServer(
  kind: DbKind,
  options: { clock?: ManualClock; database?: Database; env?: Record<string, string> } = {},
): Promise<DepositServer> {
  const server = await startTestServer(kind, options);
  const db = server.database.db;
  const module = server.ctx.modules.find((candidate) => candidate.name === 'deposits') as unknown as { service: DepositsService };
  const total = async (table: typeof deposits | typeof cashierEvents | typeof ledgerEntries | typeof idempotencyKeys) =>
    Number((await db.select({ n: count() }).from(table))[0]!.n);
  return Object.assign(server, {
    deposits: module.service,
    trader: (traderOptions: { balance?: string; isDemo?: boolean } = {}) => createTrader(db, { balance: '0', ...traderOptions }),
    async proof(userId: number) {
      const id = randomBytes(16).toString('base64url');
      const data = randomBytes(32);
      await db
        .insert(uploads)
        .values({ id, userId, mimeType: 'image/png', bytes: data.length, width: 1, height: 1, sha256: 'x', data });
      return id;
    },
    async channel(type: number, currency: string, protocol?: string) {
      const rows = await db.select().from(depositChannels).where(eq(depositChannels.currencyCode, currency));
      const found = rows.find((row) => row.type === type && (protocol === undefined || row.protocolCode === protocol));
      if (!found) throw new Error(`no seeded channel ${currency} ${protocol ?? ''}`);
      return found.id;
    },
    submitCoin: (trader: Trader, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      server.call<DepositView>('POST', ApiPath.chargeSubmit, { token: trader.token, body, headers }),
    submitWire: (trader: Trader, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      server.call<DepositView>('POST', ApiPath.wireSubmit, { token: trader.token, body, headers }),
    operator: async (action: 'approve' | 'reject' | 'void', id: number, body: Record<string, unknown> = {}, name = 'alice') =>
      server.call<OperatorDepositView>('POST', `/admin/api/deposits/${id}/${action}`, {
        body,
        headers: await server.operatorHeaders(name, 'finance'),
      }),
    list: (trader: Trader, query = '') =>
      server.call<{ data: DepositView[]; total: number }>('GET', `${ApiPath.depositList}${query}`, { token: trader.token }),
    async counts() {
      return {
        deposits: await total(deposits),
        events: await total(cashierEvents),
        ledger: await total(ledgerEntries),
        keys: await total(idempotencyKeys),
      };
    },
    async balanceOf(userId: number) {
      const [row] = await db.select({ balance: wallets.balance }).from(wallets).where(eq(wallets.userId, userId));
      return row!.balance;
    },
  });
}
