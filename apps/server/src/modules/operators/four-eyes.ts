import { eq, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.js';
import { rowsOf } from '../../db/rows.js';
import { operators } from '../../db/schema.js';

/**
 * The checker rule of every four-eyes decision (adjustments, large withdrawals, changes to controls): the
 * second operator must be a different person from the first. Whoever was handed an operator's current
 * enrolment link (its creator when they added it alone, the approving superadmin, or whoever reset it)
 * could have used that link themselves, so an operator may be a second identity of anyone up its chain
 * of enrolers. Two operators are related when their chains meet: one enrolled the other, one person
 * enrolled both, or the chains join further up. Only operators whose chains stay apart (e.g. each added
 * from the command line on the host) count as two people.
 */
export class FourEyes {
  constructor(private readonly db: Db) {}

  /** Whether the two operators are one, or one person may have held both enrolment links. */
  async related(checkerId: number, makerId: number, executor: Executor = this.db): Promise<boolean> {
    if (checkerId === makerId) return true;
    // UNION (not UNION ALL) drops rows already seen, so a cycle of enrolers cannot loop forever.
    const rows = rowsOf(
      await executor.execute(sql`
      with recursive chain(start, id) as (
        select id, id from operators where id in (${checkerId}, ${makerId})
        union
        select chain.start, operators.enrolled_by_id
        from chain join operators on operators.id = chain.id
        where operators.enrolled_by_id is not null
      )
      select start, id from chain`),
    );
    const chainOf = (start: number) => new Set(rows.filter((row) => Number(row.start) === start).map((row) => Number(row.id)));
    const checkerChain = chainOf(checkerId);
    return [...chainOf(makerId)].some((id) => checkerChain.has(id));
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
