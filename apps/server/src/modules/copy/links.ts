import type { CopySkipReasonValue } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { copies, copyActivity, copyOrders, copyProviders } from '../../db/schema.js';
import { activityRowOf, type ActivityRow } from './present.js';

/** A link of a wave with its activity line, as the statement that writes both reads it. */
export interface WaveEntry {
  copy_id: number;
  provider_order_id: number;
  follower_order_id: number | null;
  status: 'open' | 'skipped';
  skip_reason: CopySkipReasonValue | null;
  kind: 'copied' | 'skipped';
  code: string | null;
  side: number;
  lots: string | null;
  price: string | null;
}

/**
 * One statement for a wave of copies (thousands of rows): the links, and an activity line for each link
 * not written before (a second run after a crash adds nothing). Answers the activity lines written.
 */
export async function writeWave(db: Executor, entries: WaveEntry[]): Promise<ActivityRow[]> {
  const rows = rowsOf(
    await db.execute(sql`
      WITH wave AS (
        SELECT * FROM jsonb_to_recordset(${JSON.stringify(entries)}::jsonb) AS w(
          copy_id bigint, provider_order_id bigint, follower_order_id bigint, status text, skip_reason text,
          kind text, code text, side smallint, lots numeric, price numeric)
      ),
      linked AS (
        INSERT INTO ${copyOrders} (copy_id, provider_order_id, follower_order_id, status, skip_reason)
        SELECT copy_id, provider_order_id, follower_order_id, status, skip_reason FROM wave
        ON CONFLICT DO NOTHING
        RETURNING copy_id
      )
      INSERT INTO ${copyActivity} (copy_id, kind, provider_order_id, order_id, code, side, lots, price, skip_reason)
      SELECT w.copy_id, w.kind, w.provider_order_id, w.follower_order_id, w.code, w.side, w.lots, w.price, w.skip_reason
      FROM wave w JOIN linked USING (copy_id)
      RETURNING *`),
  );
  return rows.map(activityRowOf);
}

/** Providers with copies to serve: their users, so a change of a user's orders finds its provider. */
export async function servedProviders(db: Executor): Promise<Map<number, number>> {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT DISTINCT p.user_id, p.id FROM ${copyProviders} p JOIN ${copies} c ON c.provider_id = p.id
      WHERE c.status <> 'stopped'`),
  );
  return new Map(rows.map((row) => [Number(row.user_id), Number(row.id)]));
}
