import { dec, rejected, roundBalance, type Dec } from '@pipwise/domain';
import { count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { idArray, idArrayText, rowsOf } from '../../db/rows.js';
import { ledgerEntries, wallets } from '../../db/schema.js';

/** Why a balance moved; each has a memo text `ledger_<type>` in the wallet catalogue. */
export type LedgerType =
  | 'demo_grant'
  | 'demo_reset'
  | 'trade_fee'
  | 'trade_profit'
  | 'write_off'
  | 'deposit'
  | 'withdrawal'
  | 'withdrawal_fee'
  | 'adjustment'
  | 'copy_fee'
  | 'copy_fee_income';

export interface LedgerPosting {
  userId: number;
  amount: Dec | string;
  type: LedgerType;
  memoParams?: Record<string, string | number>;
  refType?: 'order' | 'deposit' | 'withdrawal' | 'adjustment' | 'copy';
  refId?: number;
}

export interface WalletBalance {
  balance: Dec;
  lockBalance: Dec;
}

/** A wallet as read outside a lock: its version says whether it is still the same when written. */
export interface WalletAt extends WalletBalance {
  version: number;
}

/** A cash balance as exact text with its wallet's version (what the risk engine watches). */
export interface CashAt {
  balance: string;
  version: number;
}

/**
 * How far back a look for changed wallets reaches past the last one: a wallet's change is stamped with
 * the time its transaction began and seen when that commits, which every wallet change does within
 * seconds (the engine also reads every watched wallet now and then, for any that took longer).
 */
const CHANGE_OVERLAP = '60 seconds';

/** Moves a wallet only if it is still at the version the caller read (see `claimedCte`). */
export interface WalletClaim {
  userId: number;
  version: number;
  balanceDelta: Dec;
  lockDelta: Dec;
}

/**
 * The only writer of wallets and the ledger. Every balance change goes through `post`, inside the
 * caller's transaction, or through `claimedCte` and `postedCte` inside the caller's single statement,
 * so the change and its ledger row commit or roll back together. Every change and every lock bumps
 * the wallet's version, which is what lets a write that read the account without a lock prove that
 * nothing changed since.
 */
export class WalletService {
  constructor(private readonly db: Db) {}

  async create(tx: Executor, userId: number) {
    await tx.insert(wallets).values({ userId }).onConflictDoNothing();
  }

  async get(userId: number, tx: Executor = this.db): Promise<WalletBalance> {
    const [row] = await tx.select().from(wallets).where(eq(wallets.userId, userId)).limit(1);
    return { balance: dec(row?.balance ?? '0'), lockBalance: dec(row?.lockBalance ?? '0') };
  }

  /** Locks the wallet row until the transaction ends: concurrent money paths for one user serialise here. */
  async lock(tx: Executor, userId: number): Promise<WalletBalance> {
    const row = (await this.lockMany(tx, [userId])).get(userId);
    if (!row) throw new Error(`wallet of user ${userId} does not exist`);
    return row;
  }

  /**
   * Locks many wallets until the transaction ends, in user id order, so two transactions locking
   * overlapping sets cannot deadlock, and bumps their versions: whoever read them before must read
   * again (each answered at its version after that bump). Wallets that do not exist are absent from the result.
   */
  async lockMany(tx: Executor, userIds: number[]): Promise<Map<number, WalletAt>> {
    // Two statements, each an index scan however many wallets the table holds: the locks taken in
    // order, then the versions bumped (a join of the two in one statement made PostgreSQL scan the table).
    await tx.execute(sql`SELECT user_id FROM ${wallets} WHERE user_id = ANY(${idArray(userIds)}) ORDER BY user_id FOR UPDATE`);
    const rows = rowsOf(
      await tx.execute(sql`
        UPDATE ${wallets} SET version = version + 1, updated_at = now() WHERE user_id = ANY(${idArray(userIds)})
        RETURNING user_id, balance, lock_balance, version`),
    );
    return new Map(
      rows.map((row) => [
        Number(row.user_id),
        { balance: dec(row.balance as string), lockBalance: dec(row.lock_balance as string), version: Number(row.version) },
      ]),
    );
  }

  /**
   * The wallets at their current versions, each with the caller's rows about that user read in the
   * same snapshot: `lateral` is a query that may refer to `w.user_id`; its columns come after the
   * wallet's (user_id, balance, lock_balance, version), one row per lateral row (nulls without one).
   */
  async readWith(executor: Executor, userIds: number[], lateral: SQL): Promise<Record<string, unknown>[]> {
    return rowsOf(
      await executor.execute(sql`
        SELECT w.user_id, w.balance, w.lock_balance, w.version, l.*
        FROM ${wallets} w LEFT JOIN LATERAL (${lateral}) l ON true
        WHERE w.user_id = ANY(${idArray(userIds)})`),
    );
  }

  /** The wallet part of a `readWith` row. */
  walletAt(row: Record<string, unknown>): WalletAt {
    return {
      balance: dec(row.balance as string),
      lockBalance: dec(row.lock_balance as string),
      version: Number(row.version),
    };
  }

  /**
   * CTE `claimed` for a caller's one-statement write: each claimed wallet still at its claimed version
   * moves by its deltas (and to the next version); the others stay as they are and are absent from
   * `claimed` (user_id, balance_before), so the caller writes nothing for them and tries again.
   * `claims` and `ids` are the SQL for the two parameters `claimValues` makes (values or `statement`
   * slots). The `= ANY(ids)` keeps the update on the primary key: joined only to a JSON recordset, the
   * planner scanned every wallet.
   */
  claimedCte(claims: SQL, ids: SQL): SQL {
    return sql`claimed AS (
      UPDATE ${wallets} w
      SET balance = w.balance + c.balance_delta, lock_balance = w.lock_balance + c.lock_delta,
          version = w.version + 1, updated_at = now()
      FROM jsonb_to_recordset(${claims}::jsonb) AS c(user_id bigint, version bigint, balance_delta numeric, lock_delta numeric)
      WHERE w.user_id = ANY(${ids}::bigint[]) AND w.user_id = c.user_id AND w.version = c.version
      RETURNING w.user_id, w.balance - c.balance_delta AS balance_before
    )`;
  }

  /** The parameters of `claimedCte` for these claims. */
  claimValues(claims: WalletClaim[]): { claims: string; ids: string } {
    return {
      claims: JSON.stringify(
        claims.map((claim) => ({
          user_id: claim.userId,
          version: claim.version,
          balance_delta: roundBalance(claim.balanceDelta).toFixed(2),
          lock_delta: roundBalance(claim.lockDelta).toFixed(2),
        })),
      ),
      ids: idArrayText(claims.map((claim) => claim.userId)),
    };
  }

  /**
   * CTE `posted`, after `claimed` in the same statement: the ledger rows of `postings`, a query over
   * the caller's CTEs yielding (seq, user_id, type, amount, memo_params, ref_type, ref_id), for claimed
   * wallets only, each with the balance after it. The claim's balance delta of a user must be the sum
   * of that user's postings (the ledger invariant checks it after every test).
   */
  postedCte(postings: SQL): SQL {
    return sql`posted AS (
      INSERT INTO ${ledgerEntries} (user_id, type, amount, balance_after, memo_key, memo_params, ref_type, ref_id)
      SELECT p.user_id, p.type, p.amount,
             claimed.balance_before + sum(p.amount) OVER (PARTITION BY p.user_id ORDER BY p.seq),
             'ledger_' || p.type, p.memo_params, p.ref_type, p.ref_id
      FROM (${postings}) p JOIN claimed USING (user_id)
      ORDER BY p.seq
    )`;
  }

  /**
   * Adds `amount` (negative to debit, rounded to cents) to the balance and writes the ledger row.
   * A debit that would take the balance below zero is refused unless `allowNegative` (the caller
   * then writes the shortfall off in the same transaction).
   */
  async post(tx: Executor, posting: LedgerPosting, options: { allowNegative?: boolean } = {}): Promise<Dec> {
    const amount = roundBalance(posting.amount).toFixed(2);
    // One statement (one round trip) for the balance change and its ledger row; a refused debit throws
    // below and the caller's transaction rolls both back.
    const result: unknown = await tx.execute(sql`
      WITH changed AS (
        UPDATE ${wallets} SET balance = balance + ${amount}::numeric, version = version + 1, updated_at = now()
        WHERE user_id = ${posting.userId}
        RETURNING balance
      )
      INSERT INTO ${ledgerEntries} (user_id, type, amount, balance_after, memo_key, memo_params, ref_type, ref_id)
      SELECT ${posting.userId}::bigint, ${posting.type}::text, ${amount}::numeric, changed.balance, ${`ledger_${posting.type}`}::text,
             ${JSON.stringify(posting.memoParams ?? {})}::jsonb, ${posting.refType ?? null}::text, ${posting.refId ?? null}::bigint
      FROM changed
      RETURNING balance_after`);
    const [row] = rowsOf(result);
    if (!row) throw new Error(`wallet of user ${posting.userId} does not exist`);
    const balanceAfter = dec(row.balance_after as string);
    if (balanceAfter.isNegative() && !options.allowNegative) throw rejected('insufficient_balance');
    return balanceAfter;
  }

  /**
   * Many postings in one statement, in the order given, for wallets the caller has locked: each wallet
   * moves by the sum of its postings, and each ledger row carries the balance after it (the wallet's
   * balance before plus the postings up to it). Nothing is refused: a caller whose postings may take a
   * balance below zero writes it off among them, as `post` with `allowNegative` lets it. Answers each
   * wallet's balance after.
   */
  async postMany(tx: Executor, postings: LedgerPosting[]): Promise<Map<number, Dec>> {
    if (postings.length === 0) return new Map();
    const values = postings.map((posting, seq) => ({
      seq,
      user_id: posting.userId,
      type: posting.type,
      amount: roundBalance(posting.amount).toFixed(2),
      memo_params: posting.memoParams ?? {},
      ref_type: posting.refType ?? null,
      ref_id: posting.refId ?? null,
    }));
    const result = rowsOf(
      await tx.execute(sql`
        WITH p AS (
          SELECT * FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb)
            AS p(seq int, user_id bigint, type text, amount numeric, memo_params jsonb, ref_type text, ref_id bigint)
        ),
        changed AS (
          UPDATE ${wallets} w SET balance = w.balance + t.delta, version = w.version + 1, updated_at = now()
          FROM (SELECT user_id, sum(amount) AS delta FROM p GROUP BY user_id) t
          WHERE w.user_id = t.user_id
          RETURNING w.user_id, w.balance - t.delta AS balance_before, w.balance
        ),
        posted AS (
          INSERT INTO ${ledgerEntries} (user_id, type, amount, balance_after, memo_key, memo_params, ref_type, ref_id)
          SELECT p.user_id, p.type, p.amount,
                 changed.balance_before + sum(p.amount) OVER (PARTITION BY p.user_id ORDER BY p.seq),
                 'ledger_' || p.type, p.memo_params, p.ref_type, p.ref_id
          FROM p JOIN changed USING (user_id)
          ORDER BY p.seq
        )
        SELECT user_id, balance FROM changed`),
    );
    const after = new Map(result.map((row) => [Number(row.user_id), dec(row.balance as string)]));
    if (after.size !== new Set(postings.map((posting) => posting.userId)).size)
      throw new Error('postMany: a wallet does not exist');
    return after;
  }

  /**
   * Wallets changed since `since` (the database's time, as this answered last; null: none), with the
   * time to ask from next: the database's now less `CHANGE_OVERLAP`, since `updated_at` is the time its
   * transaction began and a change becomes visible only when that commits. Without an index on
   * `updated_at` this scans the wallets in the database, and sends over only those that changed.
   */
  async changedSince(since: string | null): Promise<{ changed: Map<number, CashAt>; next: string }> {
    const rows = rowsOf(
      await this.db.execute(sql`
        WITH t AS (SELECT (now() - ${CHANGE_OVERLAP}::interval)::text AS next)
        SELECT t.next, w.user_id, w.balance, w.version
        FROM t LEFT JOIN ${wallets} w ON w.updated_at >= ${since}::timestamptz`),
    );
    const changed = new Map<number, CashAt>();
    for (const row of rows)
      if (row.user_id !== null)
        changed.set(Number(row.user_id), { balance: row.balance as string, version: Number(row.version) });
    return { changed, next: rows[0]!.next as string };
  }

  /** Cash balances of many accounts at once, with their versions (the risk engine's load and refresh). */
  async balances(userIds: number[]): Promise<Map<number, CashAt>> {
    const result = new Map<number, CashAt>();
    for (let start = 0; start < userIds.length; start += 5_000) {
      const rows = rowsOf(
        await this.db.execute(
          sql`SELECT user_id, balance, version FROM ${wallets} WHERE user_id = ANY(${idArray(userIds.slice(start, start + 5_000))})`,
        ),
      );
      for (const row of rows) result.set(Number(row.user_id), { balance: row.balance as string, version: Number(row.version) });
    }
    return result;
  }

  /** Every wallet's user and balance, a page at a time by user id (the daily equity snapshot walks them). */
  async balancesAfter(afterUserId: number, limit: number): Promise<{ userId: number; balance: Dec }[]> {
    const rows = await this.db
      .select({ userId: wallets.userId, balance: wallets.balance })
      .from(wallets)
      .where(sql`${wallets.userId} > ${afterUserId}`)
      .orderBy(wallets.userId)
      .limit(limit);
    return rows.map((row) => ({ userId: row.userId, balance: dec(row.balance) }));
  }

  /** Ledger rows of these types for these accounts, oldest first: money that came in or went out from outside trading. */
  async entriesOfTypes(userIds: number[], types: readonly LedgerType[]) {
    if (userIds.length === 0) return [];
    return this.db
      .select({ userId: ledgerEntries.userId, amount: ledgerEntries.amount, at: ledgerEntries.createdAt })
      .from(ledgerEntries)
      .where(
        sql`${ledgerEntries.userId} = ANY(${idArray(userIds)}) AND ${ledgerEntries.type} = ANY(${`{${types.join(',')}}`}::text[])`,
      )
      .orderBy(ledgerEntries.id);
  }

  /** The account's ledger, newest first, one page at a time. */
  async history(userId: number, page: number, pageSize: number) {
    const where = eq(ledgerEntries.userId, userId);
    const [rows, [totals]] = await Promise.all([
      this.db
        .select()
        .from(ledgerEntries)
        .where(where)
        .orderBy(desc(ledgerEntries.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      this.db.select({ total: count() }).from(ledgerEntries).where(where),
    ]);
    return { rows, total: Number(totals?.total ?? 0) };
  }

  /**
   * `adjustLock` for many wallets in one statement (each delta already the sum of cent-rounded parts),
   * for wallets the caller has locked.
   */
  async adjustLocks(tx: Executor, deltas: Map<number, Dec>) {
    const values = [...deltas]
      .filter(([, delta]) => !delta.isZero())
      .map(([userId, delta]) => ({ user_id: userId, delta: roundBalance(delta).toFixed(2) }));
    if (values.length === 0) return;
    const rows = rowsOf(
      await tx.execute(sql`
        UPDATE ${wallets} w SET lock_balance = w.lock_balance + d.delta, version = w.version + 1, updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(values)}::jsonb) AS d(user_id bigint, delta numeric)
        WHERE w.user_id = d.user_id
        RETURNING w.user_id, w.lock_balance`),
    );
    if (rows.length !== values.length) throw new Error('adjustLocks: a wallet does not exist');
    const negative = rows.find((row) => dec(row.lock_balance as string).isNegative());
    if (negative) throw new Error(`lock balance of user ${String(negative.user_id)} would go negative`);
  }

  /** Moves money between free and locked (pending orders, withdrawals under review); not a balance change. */
  async adjustLock(tx: Executor, userId: number, delta: Dec | string) {
    const amount = roundBalance(delta);
    const [row] = await tx
      .update(wallets)
      .set({
        lockBalance: sql`${wallets.lockBalance} + ${amount.toFixed(2)}`,
        version: sql`${wallets.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(eq(wallets.userId, userId))
      .returning({ lockBalance: wallets.lockBalance });
    if (!row) throw new Error(`wallet of user ${userId} does not exist`);
    if (dec(row.lockBalance).isNegative()) throw new Error(`lock balance of user ${userId} would go negative`);
  }
}
