import { randomBytes } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import type { operators } from '../../db/schema.js';
import { seal, unseal } from '../../sealing.js';
import { deriveKey } from '../../secret.js';

export const OPERATOR_PASSWORD_MIN_LENGTH = 12;

const TOTP_PERIOD_S = 30;
/** ±1 step: a code typed just before its step ends, or on a clock a little off, still counts. */
const TOTP_WINDOW = 1;

export const newOperatorPassword = () => randomBytes(15).toString('base64url');

export const newEnrolmentToken = () => randomBytes(32).toString('base64url');

const totpFor = (email: string, secret: OTPAuth.Secret) =>
  new OTPAuth.TOTP({ issuer: 'Pipwise', label: email, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_S, secret });

const sealContext = (email: string) => `operator-totp:${email.toLowerCase()}`;

/** Operators' TOTP secrets, sealed with a key derived from the app secret and bound to the operator's e-mail. */
export class OperatorTotp {
  private readonly key: Buffer;

  constructor(
    config: Config,
    private readonly clock: Clock,
  ) {
    this.key = deriveKey(config, 'operator-totp');
  }

  /** A new secret nobody is shown, sealed: the operator's until they enrol with one of their own. */
  sealedUnknown(email: string): string {
    return seal(this.key, sealContext(email), new OTPAuth.Secret({ size: 20 }).base32);
  }

  /** A new secret, sealed, and the `otpauth://` address that hands it to an authenticator app. */
  fresh(email: string): { sealed: string; otpauth: string } {
    const secret = new OTPAuth.Secret({ size: 20 });
    return { sealed: seal(this.key, sealContext(email), secret.base32), otpauth: totpFor(email, secret).toString() };
  }

  /** The TOTP step of a valid code for the operator's secret, or null. */
  acceptedStep(row: typeof operators.$inferSelect, otp: string): number | null {
    const secret = OTPAuth.Secret.fromBase32(unseal(this.key, sealContext(row.email), row.totpSecretSealed));
    const now = this.clock.now().getTime();
    const delta = /^\d{6}$/.test(otp)
      ? totpFor(row.email, secret).validate({ token: otp, timestamp: now, window: TOTP_WINDOW })
      : null;
    return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD_S) + delta;
  }
}
