import { disclosureRequired, forbidden, rejected, type TAcceptDisclosureRequest, type UserView } from '@pipwise/domain';
import { eq, sql } from 'drizzle-orm';
import { idArray } from '../../db/rows.js';
import { LRUCache } from 'lru-cache';
import { users } from '../../db/schema.js';
import type { Principal } from '../../http/auth.js';
import type { AccountsCore } from './core.js';

/** Accounts whose accepted version this process remembers; the least recently trading are forgotten beyond this. */
const ACCEPTED_CAPACITY = 100_000;

/**
 * The risk disclosure a real account accepts at sign-up and again whenever operators raise setting
 * `risk_disclosure_version`; until it has, it places no order. Demo accounts risk no money and are never
 * asked. Order placement is a hot path, so the version each account accepted is remembered: it only
 * ever rises, so a remembered one that still covers the version in force is true, and one that does not
 * is read again before refusing (an acceptance in another process is seen at once).
 */
export class RiskDisclosure {
  /** By user id: the version accepted, Infinity for demo accounts. */
  private readonly accepted = new LRUCache<number, number>({ max: ACCEPTED_CAPACITY });

  constructor(private readonly core: AccountsCore) {}

  private current(): Promise<number> {
    return this.core.disclosureInForce();
  }

  private async read(userId: number): Promise<number> {
    const [row] = await this.core.db
      .select({ isDemo: users.isDemo, version: users.riskDisclosureVersion })
      .from(users)
      .where(eq(users.id, userId))
      .limit(1);
    const version = row?.isDemo === 1 ? Infinity : (row?.version ?? 0);
    this.accepted.set(userId, version);
    return version;
  }

  /** Remembers what these accounts accepted, in one read: before orders placed for many accounts at once. */
  remember = async (userIds: number[]): Promise<void> => {
    const unknown = userIds.filter((userId) => !this.accepted.has(userId));
    if (unknown.length === 0) return;
    const rows = await this.core.db
      .select({ id: users.id, isDemo: users.isDemo, version: users.riskDisclosureVersion })
      .from(users)
      .where(sql`${users.id} = ANY(${idArray(unknown)})`);
    for (const row of rows) this.accepted.set(row.id, row.isDemo === 1 ? Infinity : (row.version ?? 0));
  };

  /** Before an order: 1010 until the account has accepted the disclosure in force. */
  refuseUntilAccepted = async (userId: number): Promise<void> => {
    const current = await this.current();
    if ((this.accepted.get(userId) ?? 0) >= current) return;
    if ((await this.read(userId)) < current) throw disclosureRequired();
  };

  /**
   * The signed-in real account accepts `version`, which must be the one in force (a screen left open
   * across a change accepts the text it showed, not the new one). Accepting it again changes nothing.
   */
  async accept(principal: Principal, input: TAcceptDisclosureRequest): Promise<UserView> {
    if (principal.isDemo) throw forbidden('risk_disclosure_real_only');
    if (input.version !== (await this.current())) throw rejected('risk_disclosure_outdated');
    await this.core.db
      .update(users)
      .set({ riskDisclosureVersion: input.version, riskDisclosureAcceptedAt: this.core.now() })
      .where(eq(users.id, principal.userId));
    this.accepted.set(principal.userId, input.version);
    return this.core.view(principal.userId);
  }
}
