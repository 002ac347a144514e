import { dec, rejected, roundBalance, type Dec } from '@pipwise/domain';
import { count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { ledgerEntries, wallets } from '../../db/schema.js';

/** Why a balance moved; each has a memo text `ledger_<type>` in the wallet catalogue. */
export type LedgerType =
  'demo_grant' | 'demo_reset' | 'trade_fee' | 'trade_profit' | 'write_off' | 'deposit' | 'withdrawal' | 'withdrawal_refund';

export interface LedgerPosting {
  userId: number;
  amount: Dec | string;
  type: LedgerType;
  memoParams?: Record<string, string | number>;
  refType?: 'order' | 'deposit' | 'withdrawal';
  refId?: number;
}

export interface WalletBalance {
  balance: Dec;
  lockBalance: Dec;
}

/**
 * The only writer of wallets and the ledger. Every balance change goes through `post`, inside the
 * caller's transaction, so the change and its ledger row commit or roll back together.
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
    const [row] = await tx.select().from(wallets).where(eq(wallets.userId, userId)).for('update');
    if (!row) throw new Error(`wallet of user ${userId} does not exist`);
    return { balance: dec(row.balance), lockBalance: dec(row.lockBalance) };
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
        UPDATE ${wallets} SET balance = balance + ${amount}::numeric, updated_at = now()
        WHERE user_id = ${posting.userId}
        RETURNING balance
      )
      INSERT INTO ${ledgerEntries} (user_id, type, amount, balance_after, memo_key, memo_params, ref_type, ref_id)
      SELECT ${posting.userId}::bigint, ${posting.type}::text, ${amount}::numeric, changed.balance, ${`ledger_${posting.type}`}::text,
             ${JSON.stringify(posting.memoParams ?? {})}::jsonb, ${posting.refType ?? null}::text, ${posting.refId ?? null}::bigint
      FROM changed
      RETURNING balance_after`);
    const [row] = (result as { rows: { balance_after: string }[] }).rows;
    if (!row) throw new Error(`wallet of user ${posting.userId} does not exist`);
    const balanceAfter = dec(row.balance_after);
    if (balanceAfter.isNegative() && !options.allowNegative) throw rejected('insufficient_balance');
    return balanceAfter;
  }

  /** Cash balances of many accounts at once (the risk engine's load and refresh). */
  async balances(userIds: number[]): Promise<Map<number, string>> {
    const result = new Map<number, string>();
    for (let start = 0; start < userIds.length; start += 5_000) {
      const rows = await this.db
        .select({ userId: wallets.userId, balance: wallets.balance })
        .from(wallets)
        .where(inArray(wallets.userId, userIds.slice(start, start + 5_000)));
      for (const row of rows) result.set(row.userId, row.balance);
    }
    return result;
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

  /** Moves money between free and locked (pending orders, withdrawals under review); not a balance change. */
  async adjustLock(tx: Executor, userId: number, delta: Dec | string) {
    const amount = roundBalance(delta);
    const [row] = await tx
      .update(wallets)
      .set({ lockBalance: sql`${wallets.lockBalance} + ${amount.toFixed(2)}`, updatedAt: sql`now()` })
      .where(eq(wallets.userId, userId))
      .returning({ lockBalance: wallets.lockBalance });
    if (!row) throw new Error(`wallet of user ${userId} does not exist`);
    if (dec(row.lockBalance).isNegative()) throw new Error(`lock balance of user ${userId} would go negative`);
  }
}
