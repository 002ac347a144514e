import { z } from 'zod';
import { CodePurpose } from '../contract.js';
import { intFromInput, optionalInput, optionalText, positiveIntId, requiredText, safeText } from './common.js';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 64;

/** 8–64 characters with at least one letter and one digit. */
export const password = (requiredKey = 'password_required') =>
  safeText(requiredKey)
    .min(1, { error: requiredKey })
    .min(PASSWORD_MIN, { error: 'password_rules' })
    .max(PASSWORD_MAX, { error: 'password_rules' })
    .regex(/\p{L}/u, { error: 'password_rules' })
    .regex(/\p{Nd}/u, { error: 'password_rules' });

const code = requiredText('code_required', 6).regex(/^\d{6}$/, { error: 'code_invalid' });

/** 1: by email; 2: by phone (with area_id). Used by registration and password reset. */
const accountType = intFromInput('register_type_invalid').pipe(
  z.union([z.literal(1), z.literal(2)], { error: 'register_type_invalid' }),
);

export const AccountType = { email: 1, phone: 2 } as const;

/** `verify_reg_type` setting: which registration methods are offered. */
export const VerifyRegType = { email: 1, phone: 2, either: 3 } as const;

/**
 * docs/api.md: account, password, login_type. `login_type` is ignored (the account's shape tells email from
 * phone), so it is not read at all, whatever its type. `key` and `captcha` (as for send_email) are needed
 * only once an account has had several wrong passwords: the answer `captcha_required` asks for them.
 */
export const ZLoginRequest = z.object({
  account: requiredText('account_required', 254),
  password: safeText('password_required').min(1, { error: 'password_required' }).max(PASSWORD_MAX, { error: 'field_too_long' }),
  key: optionalText(64),
  captcha: optionalText(16),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

/** An ISO 3166 alpha-2 country code, in any case ("de" reads as DE). */
export const countryCode = requiredText('country_required', 8)
  .transform((value) => value.toUpperCase())
  .pipe(z.string().regex(/^[A-Z]{2}$/, { error: 'country_invalid' }));

/** The version of the risk disclosure the person read and accepted (setting `risk_disclosure_version`). */
const acceptedDisclosure = positiveIntId('risk_disclosure_required');

/**
 * type 1: `account` is the email; type 2: the phone number is `mobile` or `account` (national number,
 * with or without the dialling code of `area_id`). `country` is the country of residence and
 * `risk_disclosure_version` the disclosure version accepted, as brokers must ask at sign-up.
 */
export const ZRegisterRequest = z
  .object({
    type: accountType,
    area_id: optionalInput(intFromInput('area_invalid')),
    account: optionalText(254),
    password: password(),
    re_password: safeText('password_mismatch').max(PASSWORD_MAX, { error: 'field_too_long' }),
    invite_code: optionalText(32),
    sms_code: code,
    key: optionalText(64),
    mobile: optionalText(32),
    country: countryCode,
    risk_disclosure_version: acceptedDisclosure,
  })
  .refine((body) => body.account !== undefined || (body.type === AccountType.phone && body.mobile !== undefined), {
    error: 'account_required',
    path: ['account'],
  })
  .refine((body) => body.password === body.re_password, { error: 'password_mismatch', path: ['re_password'] });
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

/** `key` is the captcha id from GET /api/captcha and `captcha` the text read from its image. */
export const ZSendCodeRequest = z.object({
  to: requiredText('destination_required', 254),
  area_id: optionalInput(intFromInput('area_invalid')),
  type: intFromInput('code_purpose_invalid').pipe(
    z.union([z.literal(CodePurpose.register), z.literal(CodePurpose.reset)], { error: 'code_purpose_invalid' }),
  ),
  key: optionalText(64),
  captcha: optionalText(16),
});
export type TSendCodeRequest = z.infer<typeof ZSendCodeRequest>;

/**
 * `type` picks where the code was sent: 1 the user's email, 2 their phone; default the email when they have
 * one. `re_password`, the confirmation, is optional (docs/api.md lists three fields) but must match when sent.
 */
export const ZAmendPasswordRequest = z
  .object({
    new_password: password('form_incomplete'),
    re_password: optionalInput(safeText('form_incomplete').max(PASSWORD_MAX, { error: 'field_too_long' })),
    auth_code: code,
    type: optionalInput(accountType),
  })
  .refine((body) => body.re_password === undefined || body.new_password === body.re_password, {
    error: 'password_mismatch',
    path: ['re_password'],
  });
export type TAmendPasswordRequest = z.infer<typeof ZAmendPasswordRequest>;

/** A password-change code to the signed-in user's own email (type 1) or phone (type 2); `key`/`captcha` as for send_email. */
export const ZOwnCodeRequest = z.object({
  type: optionalInput(accountType),
  key: optionalText(64),
  captcha: optionalText(16),
});
export type TOwnCodeRequest = z.infer<typeof ZOwnCodeRequest>;

/** GET /api/user/invite_info: the code of the user's invite link and how many registered with it. */
export interface InviteInfoView {
  invite_code: string;
  invited_count: number;
}

export const ZForgetPasswordRequest = z
  .object({
    type: accountType,
    account: requiredText('account_required', 254),
    area_id: optionalInput(intFromInput('area_invalid')),
    new_password: password('form_incomplete'),
    secondary_password: safeText('form_incomplete').max(PASSWORD_MAX, { error: 'field_too_long' }),
    auth_code: code,
  })
  .refine((body) => body.new_password === body.secondary_password, { error: 'password_mismatch', path: ['secondary_password'] });
export type TForgetPasswordRequest = z.infer<typeof ZForgetPasswordRequest>;

/**
 * Without fields: a new demo account, whose answer carries `demo_secret` once. With `demo_id` (its uid,
 * which is public) and that `demo_secret` (kept by the device): a new session of the same demo account.
 */
export const ZDemoRequest = z
  .object({
    demo_id: optionalText(32).pipe(
      z
        .string()
        .regex(/^\d{1,12}$/, { error: 'demo_not_found' })
        .optional(),
    ),
    demo_secret: optionalText(64).pipe(
      z
        .string()
        .regex(/^[\w-]{20,64}$/, { error: 'demo_not_found' })
        .optional(),
    ),
  })
  .refine((query) => (query.demo_id === undefined) === (query.demo_secret === undefined), {
    error: 'demo_not_found',
    path: ['demo_secret'],
  });

/** POST /api/user/risk_disclosure: the signed-in user accepts this version of the risk disclosure. */
export const ZAcceptDisclosureRequest = z.object({ version: acceptedDisclosure });
export type TAcceptDisclosureRequest = z.infer<typeof ZAcceptDisclosureRequest>;

export const ZSettingQuery = z.object({ key: requiredText('setting_key_required', 64) });

/** Settings anyone may read through GET /api/default/setting (everything else stays on the server). */
export const PUBLIC_SETTING_KEYS = [
  'is_show_mobile',
  'verify_reg_type',
  'service_link',
  'service_link_type',
  'trade_fee_type',
  'complaint_email',
  'restricted_countries',
  'risk_disclosure_version',
] as const;
export type PublicSettingKey = (typeof PUBLIC_SETTING_KEYS)[number];

/** An absolute http(s) address: a host name (no user or password before it), an optional port, no spaces. */
const isWebAddress = (value: string) => /^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?([/?#]\S*)?$/i.test(value);

/** A path of this site: one leading slash (`//host` and `/\host` lead browsers to another site). */
const isSitePath = (value: string) => /^\/(?![/\\])\S*$/.test(value);

/**
 * `service_link`: none (''), a web address or a path of this site, which the app frames or opens. Never
 * a script or data address: `javascript:` in a link the app opens runs in the app's origin.
 */
export const ZServiceLinkSetting = safeText()
  .max(2000, { error: 'setting_too_long' })
  .refine((value) => value === '' || isWebAddress(value) || isSitePath(value), { error: 'service_link_invalid' });

/** `complaint_email`: none ('') or an e-mail address, which the app shows and writes to. */
export const ZComplaintEmailSetting = safeText()
  .max(254, { error: 'setting_too_long' })
  .refine((value) => value === '' || z.email().safeParse(value).success, { error: 'complaint_email_invalid' });

/** The user as the client sees it (docs/api.md). `area_code` is the dialling code (e.g. "+852"), "" without a phone. */
export interface UserView {
  id: number;
  uid: number;
  email: string;
  mobile: string;
  area_code: string;
  is_demo: 0 | 1;
  invite_code: string;
  invited_count: number;
  /** ISO 3166 code of the country of residence; "" for demo accounts and accounts older than the question. */
  country: string;
  /** The risk disclosure version last accepted; null: never. */
  risk_disclosure_version: number | null;
  /** 1 while a real account has not accepted the disclosure in force: orders are refused (1010) until it does. */
  risk_disclosure_due: 0 | 1;
}

export interface SessionView {
  token: string;
  user: UserView;
}

/** A new demo account's session: `demo_secret` is shown only here and is needed to come back to it. */
export interface DemoSessionView extends SessionView {
  demo_secret?: string;
}

export interface AreaView {
  id: number;
  code: string;
  global_code: string;
  name: string;
}

export interface BasicInfoView {
  service_link: string;
  service_link_type: number;
  verify_reg_type: number;
  trade_fee_type: number;
  is_show_mobile: number;
  complaint_email: string;
  /** ISO 3166 codes, comma-separated, of the countries the service is not provided to (docs/api.md policy notice). */
  restricted_countries: string;
  /** The risk disclosure in force; a real account accepts it at sign-up and again whenever it rises. */
  risk_disclosure_version: number;
}

export interface CaptchaView {
  id: string;
  /** `data:image/svg+xml;base64,…` */
  b64s: string;
}
