import { randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.js';
import { sessions, users, wallets } from '../src/db/schema.js';
import { hashToken } from '../src/modules/accounts/module.js';
import { WalletService } from '../src/modules/wallet/service.js';

let sequence = 0;

export interface Trader {
  userId: number;
  token: string;
}

/**
 * A user with a wallet and a session, made straight in the database (registration has its own
 * suites). The starting money is credited through WalletService, so it has its ledger row and the
 * ledger invariant holds from the first moment.
 */
export async function createTrader(db: Db, options: { balance?: string; isDemo?: boolean; now?: Date } = {}): Promise<Trader> {
  const [trader] = await createTraders(db, [options.balance ?? '10000'], options);
  return trader!;
}

/** Many traders at once (one transaction, a statement a table), one for each starting balance. */
export async function createTraders(
  db: Db,
  balances: string[],
  options: { isDemo?: boolean; now?: Date } = {},
): Promise<Trader[]> {
  const now = options.now ?? new Date('2026-11-18T00:00:00Z');
  const wallet = new WalletService(db);
  const made = balances.map((balance) => {
    sequence += 1;
    const unique = `${process.pid}${sequence}${randomBytes(3).readUIntBE(0, 3)}`;
    return { balance, unique, token: randomBytes(24).toString('hex') };
  });
  const userIds = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(users)
      .values(
        made.map(({ unique }) => ({
          uid: Number(unique.slice(-12)),
          email: `trader${unique}@example.test`,
          isDemo: options.isDemo ? 1 : 0,
          inviteCode: `T${unique}`.slice(0, 24),
          createdAt: now,
          // Signed up as registration asks: the disclosure in force accepted.
          riskDisclosureVersion: 1,
        })),
      )
      .returning({ id: users.id });
    const ids = inserted.map((user) => user.id);
    await tx.insert(wallets).values(ids.map((userId) => ({ userId })));
    await wallet.postMany(
      tx,
      made
        .map(({ balance }, i) => ({
          userId: ids[i]!,
          amount: balance,
          type: options.isDemo ? ('demo_grant' as const) : ('deposit' as const),
        }))
        .filter((posting) => posting.amount !== '0'),
    );
    await tx.insert(sessions).values(
      made.map(({ token }, i) => ({
        userId: ids[i]!,
        tokenHash: hashToken(token),
        createdAt: now,
        expiresAt: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
      })),
    );
    return ids;
  });
  return made.map(({ token }, i) => ({ userId: userIds[i]!, token }));
}

/** Rows of a raw query; PGlite and node-postgres both answer with `{ rows }`. */
async function rowsOf(db: Db, query: SQL): Promise<unknown[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: unknown[] }).rows;
}

/**
 * The money invariants, checked after every trading test: every balance equals the sum of its ledger
 * and is not negative; every holding order carries its margin and opening price; every pending order
 * its reservation, and locked money covers them; no order was charged, credited or written off twice;
 * no closed order lacks its closing data.
 */
export async function expectLedgerInvariants(db: Db) {
  const mismatched = await rowsOf(
    db,
    sql`
    SELECT w.user_id, w.balance, COALESCE(SUM(l.amount), 0) AS ledger
    FROM wallets w LEFT JOIN ledger_entries l ON l.user_id = w.user_id
    GROUP BY w.user_id, w.balance
    HAVING w.balance <> COALESCE(SUM(l.amount), 0) OR w.balance < 0`,
  );
  expect(mismatched, 'balance = sum(ledger) and ≥ 0 for every account').toEqual([]);

  const holdingWithoutMargin = await rowsOf(
    db,
    sql`
    SELECT id FROM orders WHERE status = 1 AND (margin <= 0 OR open_price IS NULL OR opened_at IS NULL)`,
  );
  expect(holdingWithoutMargin, 'no holding order without its margin').toEqual([]);

  const locks = await rowsOf(
    db,
    sql`
    SELECT w.user_id, w.lock_balance,
      (SELECT COALESCE(SUM(o.reserved), 0) FROM orders o WHERE o.user_id = w.user_id AND o.status = 0) AS orders,
      (SELECT COALESCE(SUM(d.amount), 0) FROM withdrawals d WHERE d.user_id = w.user_id AND d.status = 0) AS withdrawals
    FROM wallets w
    WHERE w.lock_balance <>
      (SELECT COALESCE(SUM(o.reserved), 0) FROM orders o WHERE o.user_id = w.user_id AND o.status = 0)
      + (SELECT COALESCE(SUM(d.amount), 0) FROM withdrawals d WHERE d.user_id = w.user_id AND d.status = 0)`,
  );
  expect(locks, 'locked money = reservations of pending orders and withdrawals under review').toEqual([]);

  const cashier = await rowsOf(
    db,
    sql`
    SELECT 'deposit' AS kind, d.id FROM deposits d
    LEFT JOIN ledger_entries l ON l.ref_type = 'deposit' AND l.ref_id = d.id AND l.type = 'deposit'
    WHERE (d.status = 1) <> (l.id IS NOT NULL) OR (d.status = 1 AND l.amount <> d.credited_amount)
    UNION ALL
    SELECT 'withdrawal', w.id FROM withdrawals w
    LEFT JOIN ledger_entries l ON l.ref_type = 'withdrawal' AND l.ref_id = w.id AND l.type = 'withdrawal'
    LEFT JOIN ledger_entries f ON f.ref_type = 'withdrawal' AND f.ref_id = w.id AND f.type = 'withdrawal_fee'
    WHERE (w.status = 1) <> (l.id IS NOT NULL)
       OR (w.status = 1 AND (l.amount <> -(w.amount - w.fee) OR COALESCE(f.amount, 0) <> -w.fee))
       OR (w.status <> 1 AND f.id IS NOT NULL)`,
  );
  expect(
    cashier,
    'finished deposits credited their credited amount, completed withdrawals debited amount and fee, others nothing',
  ).toEqual([]);

  const twice = await rowsOf(
    db,
    sql`
    SELECT ref_id, type, COUNT(*) AS n FROM ledger_entries WHERE ref_type = 'order'
    GROUP BY ref_id, type HAVING COUNT(*) > 1`,
  );
  expect(twice, 'no order charged, credited or written off twice').toEqual([]);

  const credits = await rowsOf(
    db,
    sql`
    SELECT o.id FROM orders o
    JOIN ledger_entries l ON l.ref_type = 'order' AND l.ref_id = o.id AND l.type = 'trade_profit'
    WHERE o.status <> 3 OR l.amount <> ROUND(o.profit, 2)`,
  );
  expect(credits, 'credits only for closed orders, equal to their result').toEqual([]);

  const incomplete = await rowsOf(
    db,
    sql`
    SELECT id FROM orders WHERE status = 3 AND (closed_at IS NULL OR close_reason IS NULL
      OR (close_reason NOT IN ('cancelled', 'margin_short') AND open_price IS NOT NULL AND (close_price IS NULL OR profit IS NULL)))`,
  );
  expect(incomplete, 'closed orders record how they closed').toEqual([]);
}
