import {
  AccountType,
  CODE_RESEND_SECONDS,
  CODE_TTL_SECONDS,
  CodePurpose,
  conflict,
  rejected,
  type Language,
  type TOwnCodeRequest,
  type TSendCodeRequest,
} from '@pipwise/domain';
import type { Principal } from '../../http/auth.js';
import { translate } from '../../i18n/catalog.js';
import type { Channel, CodeTarget } from './codes.js';
import type { AccountsCore, RequestMeta } from './core.js';

/** Who may ask for a verification code and where it goes: registration, reset and password change. */
export class CodeRequests {
  constructor(private readonly core: AccountsCore) {}

  private get deps() {
    return this.core.deps;
  }

  /**
   * Sends a register code only to an unregistered destination (saying so, which registration needs
   * anyway) and a reset code only to a registered one. A reset request for an unknown destination does
   * the same work (a code is stored, under the same minute and daily rules) but sends it to nobody, so
   * every answer of the reset form and of forget_password is the same with and without an account.
   */
  async sendCode(channel: Channel, input: TSendCodeRequest, meta: RequestMeta) {
    const answer = { resend_after: CODE_RESEND_SECONDS, expires_in: CODE_TTL_SECONDS };
    const { target, find, phone } = await this.core.destination(channel, input.to, input.area_id, input.type);
    // New accounts only: people who registered before the list changed still get their reset codes.
    if (phone && input.type === CodePurpose.register) await this.deps.reference.refuseRestricted(phone.countries, meta.lang);
    if (this.deps.config.captchaRequired) await this.deps.captcha.verify(input.key, input.captcha);
    const existing = await find();
    if (input.type === CodePurpose.register) {
      if (!(await this.deps.reference.allows(channel === 'email' ? AccountType.email : AccountType.phone))) {
        throw rejected('register_type_disabled');
      }
      if (existing) throw conflict('account_exists');
    } else if (!existing) {
      await this.deps.codes.issue({ ...target, userId: null });
      return answer;
    }
    await this.issueAndDeliver({ ...target, userId: existing?.id ?? null }, meta.lang);
    return answer;
  }

  /**
   * A password-change code to the signed-in user's own email or phone: the destination comes from the
   * account, never from the request, so no one can have a code sent to another person's contact.
   */
  async sendOwnCode(principal: Principal, input: TOwnCodeRequest, meta: RequestMeta) {
    const { target } = await this.core.ownContact(principal, input.type);
    if (this.deps.config.captchaRequired) await this.deps.captcha.verify(input.key, input.captcha);
    await this.issueAndDeliver(target, meta.lang);
    return { resend_after: CODE_RESEND_SECONDS, expires_in: CODE_TTL_SECONDS };
  }

  private async issueAndDeliver(target: CodeTarget, lang: Language) {
    const { id, code } = await this.deps.codes.issue(target);
    try {
      await this.deliver(target, code, lang);
    } catch (error) {
      await this.deps.codes.discard(id);
      this.deps.log.warn({ err: error, channel: target.channel }, 'verification code delivery failed');
      throw rejected('code_send_failed');
    }
  }

  private async deliver(target: CodeTarget, code: string, lang: Language) {
    const params = { code, minutes: CODE_TTL_SECONDS / 60 };
    if (target.channel === 'sms') {
      await this.deps.sms.send({ to: target.destination, text: translate(lang, 'sms_code_body', params) });
      return;
    }
    const subject = target.purpose === CodePurpose.register ? 'mail_register_subject' : 'mail_reset_subject';
    await this.deps.mailer.send({
      to: target.destination,
      subject: translate(lang, subject),
      text: translate(lang, 'mail_code_body', params),
    });
  }
}
