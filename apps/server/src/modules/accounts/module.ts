import type { CoreDeps, Module } from '../../context.js';
import type { SettingsService } from '../settings/service.js';
import type { WalletService } from '../wallet/service.js';
import { CaptchaService, svgCaptchaGenerator, type CaptchaGenerator } from './captcha.js';
import { Pepper, VerificationCodes } from './codes.js';
import { Outbox, SmtpMailer, type Mailer, type SmsProvider } from './delivery.js';
import { ReferenceService } from './reference.js';
import { accountRoutes } from './routes.js';
import { AccountsService, hashToken } from './service.js';

export { hashToken };

declare module '../../realtime/bus.js' {
  interface BusEvents {
    /** A session ended (logout, password change): sockets logged in with it must drop the login. */
    'session.revoked': { sessionIds: number[]; userId: number };
  }
}

/** What the accounts module is built from besides the core: the wallet, and replaceable edges. */
export interface AccountsOptions {
  wallet: WalletService;
  settings: SettingsService;
  /** Default: svg-captcha. Tests wrap it to learn the answer of a real image. */
  captchaGenerator?: CaptchaGenerator;
  /** Default: SMTP when SMTP_URL is set, otherwise the outbox. */
  mailer?: Mailer;
  /** Default: the outbox. */
  smsProvider?: SmsProvider;
}

export function createAccountsModule(deps: CoreDeps, options: AccountsOptions) {
  const { db } = deps.database;
  const smtp = !options.mailer && deps.config.smtpUrl ? new SmtpMailer(deps.config.smtpUrl, deps.config.mailFrom) : null;
  const mailer = options.mailer ?? smtp ?? new Outbox(db, deps.log, 'email');
  const sms = options.smsProvider ?? new Outbox(db, deps.log, 'sms');
  const pepper = new Pepper(db);
  const reference = new ReferenceService(db, options.settings);
  const captcha = new CaptchaService(db, deps.clock, options.captchaGenerator ?? svgCaptchaGenerator, (value) =>
    pepper.hash(`captcha:${value}`),
  );
  const codes = new VerificationCodes(db, deps.clock, pepper);
  const service = new AccountsService({
    db,
    clock: deps.clock,
    bus: deps.bus,
    config: deps.config,
    log: deps.log,
    wallet: options.wallet,
    reference,
    codes,
    captcha,
    mailer,
    sms,
  });
  const module: Module = {
    name: 'accounts',
    routes: accountRoutes(service, reference, captcha),
    stop: async () => smtp?.close(),
  };
  return { service, reference, module, captcha };
}
