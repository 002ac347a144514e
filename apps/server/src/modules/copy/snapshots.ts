import { dayOf } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import { rowsOf } from '../../db/rows.js';
import { equitySnapshots } from '../../db/schema.js';
import type { CopyCore } from './core.js';

const PAGE = 5_000;

/**
 * Every account's equity at 00:00 UTC (balance + floating P&L), the series the providers' figures are
 * computed from. The leader looks every minute whether today's is written; a day the leader was down at
 * midnight is taken as soon as one leads again, under its own day. Days missed whole stay gaps, which
 * the figures bridge as one longer period.
 */
export class EquitySnapshots {
  private lastDay: string | null = null;

  constructor(private readonly core: CopyCore) {}

  async takeIfDue() {
    const day = dayOf(this.core.now());
    if (this.lastDay === day) return;
    const [row] = rowsOf(await this.core.db.execute(sql`SELECT 1 FROM ${equitySnapshots} WHERE day = ${day} LIMIT 1`));
    if (!row) await this.take(day);
    this.lastDay = day;
  }

  /**
   * Writes the day's snapshot of every account; one already there (a second run) is kept. A page of
   * accounts is read in one statement, wallets with their positions (one read per account took the
   * leader over a minute at 100,000 accounts).
   */
  async take(day: string) {
    const { wallet, trading } = this.core.deps;
    for (let after = 0; ;) {
      const page = await wallet.balancesAfter(after, PAGE);
      if (page.length === 0) break;
      const figures = await trading.figuresOfMany(page.map(({ userId }) => userId));
      const values = page.map(({ userId, balance }) => ({
        userId,
        day,
        equity: (figures.get(userId)?.equity ?? balance).toDecimalPlaces(2).toFixed(2),
      }));
      await this.core.db.insert(equitySnapshots).values(values).onConflictDoNothing();
      after = page.at(-1)!.userId;
    }
  }
}
