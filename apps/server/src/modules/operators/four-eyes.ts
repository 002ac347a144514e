import { eq, or, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { operators } from '../../db/schema.js';

/**
 * The checker rule of every four-eyes decision (adjustments, large withdrawals, changes to controls): the
 * second operator must be a different person from the first. An operator whose current enrolment link
 * the maker was handed — one the maker created alone, or reset — may be the maker's second identity: the
 * maker could have used that link themselves. Either way round counts. An operator whose addition a
 * second superadmin approved was handed to that approver, not to the one who asked for it.
 */
export class FourEyes {
  constructor(private readonly db: Db) {}

  /** Whether the two operators are one, or one was handed the other's enrolment link. */
  async related(checkerId: number, makerId: number, executor: Executor = this.db): Promise<boolean> {
    if (checkerId === makerId) return true;
    const rows = await executor
      .select({ id: operators.id, enrolledById: operators.enrolledById })
      .from(operators)
      .where(or(eq(operators.id, checkerId), eq(operators.id, makerId)));
    const other = (id: number) => (id === checkerId ? makerId : checkerId);
    return rows.some((row) => row.enrolledById === other(row.id));
  }

  /** As `related`, for a maker known only by the actor written on the record (`operator:<email>`). */
  async relatedToActor(checkerId: number, makerActor: string, executor: Executor = this.db): Promise<boolean> {
    if (!makerActor.startsWith('operator:')) return false;
    const email = makerActor.slice('operator:'.length).toLowerCase();
    const [maker] = await executor
      .select({ id: operators.id })
      .from(operators)
      .where(eq(sql`lower(${operators.email})`, email));
    return maker ? this.related(checkerId, maker.id, executor) : false;
  }
}
