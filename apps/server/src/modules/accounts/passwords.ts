import { AccountType, CodePurpose, rejected, type TAmendPasswordRequest, type TForgetPasswordRequest } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema.js';
import type { Principal } from '../../http/auth.js';
import { hashPassword } from '../../security/secrets.js';
import type { Channel } from './codes.js';
import type { AccountsCore, RequestMeta } from './core.js';
import type { AccountSessions } from './sessions.js';

/** Password changes, each authorised by a code and ending sessions: the signed-in user's, and the reset. */
export class Passwords {
  constructor(
    private readonly core: AccountsCore,
    private readonly sessions: AccountSessions,
  ) {}

  /** Needs a reset code sent to the user's own email (type 1) or phone (type 2); other sessions end. */
  async amendPassword(principal: Principal, input: TAmendPasswordRequest, meta: RequestMeta): Promise<void> {
    const { codes } = this.core.deps;
    const { user, target } = await this.core.ownContact(principal, input.type);
    const codeId = await codes.check(target, input.auth_code, meta.ip);
    const passwordHash = await hashPassword(input.new_password);
    const revoked = await this.core.db.transaction(async (tx) => {
      await codes.consume(tx, codeId);
      await tx.update(users).set({ passwordHash, passwordChangedAt: this.core.now() }).where(eq(users.id, user.id));
      return this.sessions.revokeSessions(tx, user.id, principal.sessionId);
    });
    this.sessions.publishRevoked(user.id, revoked);
  }

  /** Resets the password with a code sent to the account's email or phone; every session ends. */
  async forgetPassword(input: TForgetPasswordRequest, meta: RequestMeta): Promise<void> {
    const { codes } = this.core.deps;
    const channel: Channel = input.type === AccountType.email ? 'email' : 'sms';
    const { target, find } = await this.core.destination(channel, input.account, input.area_id, CodePurpose.reset);
    const user = await find();
    // An unknown destination's code (see sendCode) was sent to nobody: its checks answer as a known
    // one's do, and one guessed by chance is only a wrong code.
    const codeId = await codes.check({ ...target, userId: user?.id ?? null }, input.auth_code, meta.ip);
    if (!user || user.isDemo === 1) throw rejected('code_incorrect');
    const passwordHash = await hashPassword(input.new_password);
    const revoked = await this.core.db.transaction(async (tx) => {
      await codes.consume(tx, codeId);
      await tx.update(users).set({ passwordHash, passwordChangedAt: this.core.now() }).where(eq(users.id, user.id));
      return this.sessions.revokeSessions(tx, user.id);
    });
    this.sessions.publishRevoked(user.id, revoked);
  }
}
