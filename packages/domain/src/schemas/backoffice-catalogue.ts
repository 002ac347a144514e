import { z } from 'zod';
import { CashierType, FIXED_FEE_TYPE } from '../cashier.js';
import { LANGUAGES, type Language } from '../languages.js';
import { dec } from '../money.js';
import { ZComplaintEmailSetting, ZServiceLinkSetting } from './accounts.js';
import { ZCompanySave } from './company.js';
import { ZNewsCreate } from './content.js';
import { intFromInput, pageQuery, requiredText, safeText } from './common.js';
import { ZAnnouncementCreate } from './notices.js';

// The operator API's catalogue, content, settings and cashier-terms requests (`/admin/api`,
// docs/admin-api.md): the server parses with these and the back office's forms check with them.

/**
 * A decimal from JSON (number or string) kept as exact text: plain digits, at most `scale` decimals and
 * `integerDigits` before the point (what the column holds); `positive` refuses zero. A JSON number is
 * read through its shortest round-trip text (the literal the operator typed); 1e-7 is refused.
 */
export const decimalInput = (messageKey: string, scale: number, options: { positive?: boolean; integerDigits?: number } = {}) => {
  const pattern = new RegExp(`^\\d{1,${options.integerDigits ?? 12}}${scale > 0 ? `(\\.\\d{1,${scale}})?` : ''}$`);
  return z
    .union([z.string(), z.number()], { error: messageKey })
    .transform((value) => (typeof value === 'number' ? String(value) : value.trim()))
    .refine((text) => pattern.test(text) && (!options.positive || dec(text).gt(0)), { error: messageKey })
    .transform((text) => dec(text).toFixed());
};

/** A flag from JSON: true or false only (a form's "1" is not a boolean). */
export const flagInput = (messageKey: string) => z.boolean({ error: messageKey });

/** An ordering number as every list sorts by. */
export const sortInput = (messageKey: string) =>
  z.number({ error: messageKey }).int({ error: messageKey }).min(-1_000_000, { error: messageKey }).max(1_000_000, {
    error: messageKey,
  });

/** A text in every one of the product's languages (category names): none missing, none empty, no others. */
export const namesInAllLanguages = (messageKey: string, max = 100) =>
  z
    .record(z.string(), safeText(messageKey).trim().min(1, { error: messageKey }).max(max, { error: 'field_too_long' }), {
      error: messageKey,
    })
    .refine(
      (names) =>
        LANGUAGES.every((language) => Object.hasOwn(names, language)) &&
        Object.keys(names).every((key) => (LANGUAGES as readonly string[]).includes(key)),
      { error: messageKey },
    )
    .transform((names) => names as Record<Language, string>);

/** Back-office content lists (news, announcements): `?lang=&published=0|1&page=&page_size=` (at most 100 a page). */
export const ZContentAdminQuery = pageQuery.extend({
  lang: z.enum(LANGUAGES, { error: 'content_lang_filter_invalid' }).optional(),
  published: z.enum(['0', '1'], { error: 'content_published_filter_invalid' }).optional(),
  page_size: intFromInput('page_size_invalid', (number) =>
    number.min(1, { error: 'page_size_invalid' }).max(100, { error: 'page_size_invalid' }),
  ).default(20),
});
export type ContentAdminQuery = z.infer<typeof ZContentAdminQuery>;

// The catalogue: instruments and categories.

/** Highest leverage an operator may offer (1:1000). */
export const MAX_LEVERAGE = 1000;

export const ZInstrumentChange = z.object({
  // The spread's decimals are checked against the instrument's precision once it is read.
  spread: decimalInput('instrument_spread_invalid', 10).optional(),
  leverages: z
    .array(
      z
        .number({ error: 'instrument_leverages_invalid' })
        .int({ error: 'instrument_leverages_invalid' })
        .min(1, { error: 'instrument_leverages_invalid' })
        .max(MAX_LEVERAGE, { error: 'instrument_leverages_invalid' }),
      { error: 'instrument_leverages_invalid' },
    )
    .min(1, { error: 'instrument_leverages_invalid' })
    .max(20, { error: 'instrument_leverages_invalid' })
    .refine((list) => new Set(list).size === list.length, { error: 'instrument_leverages_invalid' })
    .optional(),
  fee_rate: decimalInput('instrument_fee_rate_invalid', 8, { integerDigits: 4 }).optional(),
  min_lots: decimalInput('instrument_lots_invalid', 4, { positive: true }).optional(),
  lot_step: decimalInput('instrument_lots_invalid', 4, { positive: true }).optional(),
  max_lots: decimalInput('instrument_lots_invalid', 4, { positive: true }).optional(),
  enabled: flagInput('instrument_enabled_invalid').optional(),
  sort: sortInput('instrument_sort_invalid').optional(),
  name: requiredText('instrument_name_invalid', 100).optional(),
});
export type InstrumentChange = z.infer<typeof ZInstrumentChange>;

export const ZCategoryCreate = z.object({
  slug: z.string({ error: 'category_slug_invalid' }).regex(/^[a-z][a-z0-9-]{0,31}$/, { error: 'category_slug_invalid' }),
  sort: sortInput('category_sort_invalid').default(0),
  names: namesInAllLanguages('category_names_invalid'),
});
export const ZCategoryChange = ZCategoryCreate.partial().extend({ sort: sortInput('category_sort_invalid').optional() });

// Content: news, announcements, white-label companies.

/**
 * A path of this site, or '' for none. The app's Content-Security-Policy shows images of its own origin
 * only (`img-src 'self'`), so a cover from another site would be a broken image on every phone: it is
 * refused when saved. `//host` and `/\host` are other sites to a browser.
 */
const coverInput = safeText('news_cover_invalid')
  .trim()
  .max(500, { error: 'field_too_long' })
  .refine((value) => value === '' || /^\/(?![/\\])\S*$/.test(value), { error: 'news_cover_invalid' });

/**
 * An article is one row in one language (the table's shape): a story in three languages is three rows,
 * each published or unpublished on its own; readers see their language, else English.
 */
export const ZNewsAdminCreate = ZNewsCreate.extend({ cover: coverInput.default('') });
export const ZNewsAdminChange = z.object({
  lang: ZNewsCreate.shape.lang.optional(),
  title: requiredText('news_title_required', 200).optional(),
  // '' clears the summary (the reader's list shows none).
  description: safeText().trim().max(500, { error: 'field_too_long' }).optional(),
  content: ZNewsCreate.shape.content.optional(),
  category_id: intFromInput('news_category_invalid', (number) => number.min(0, { error: 'news_category_invalid' })).optional(),
  published: z.boolean({ error: 'field_invalid' }).optional(),
  cover: coverInput.optional(),
});

/** An announcement is one row in one language, published on its own; users see their language, else English. */
export const ZAnnouncementChange = z.object({
  lang: ZAnnouncementCreate.shape.lang.optional(),
  title: requiredText('notice_title_required', 200).optional(),
  content: ZAnnouncementCreate.shape.content.optional(),
  published: z.boolean({ error: 'field_invalid' }).optional(),
});

export const ZCompanyChange = ZCompanySave.omit({ id: true });

// Settings.

/** How the back office edits a setting: the kind of input, and what it needs to draw it. */
export type SettingEditor =
  | { type: 'select'; options: readonly string[] }
  | { type: 'flag' }
  | { type: 'decimal'; decimals: number }
  | { type: 'integer' }
  | { type: 'countries' }
  | { type: 'text'; max: number };

/**
 * A setting's rule: the value its readers can always parse (the server refuses anything else as
 * field_invalid; the message keys are for the back office's page), and how an operator edits it.
 */
export interface SettingRule {
  schema: z.ZodType<string>;
  editor: SettingEditor;
}

const choice = (options: readonly [string, ...string[]]): SettingRule => ({
  schema: z.enum(options, { error: 'setting_choice_invalid' }),
  editor: { type: 'select', options },
});
const flag: SettingRule = { schema: z.enum(['0', '1'], { error: 'setting_choice_invalid' }), editor: { type: 'flag' } };
/** At most 9 digits before the point and 6 after, as the readers' columns hold them. */
const SETTING_DECIMALS = 6;
const nonNegative: SettingRule = {
  schema: z
    .string({ error: 'setting_number_invalid' })
    .regex(/^\d{1,9}(\.\d+)?$/, { error: 'setting_number_invalid' })
    .refine((text) => (text.split('.')[1]?.length ?? 0) <= SETTING_DECIMALS, { error: 'setting_decimals_too_many' }),
  editor: { type: 'decimal', decimals: SETTING_DECIMALS },
};
const positiveInteger: SettingRule = {
  schema: z.string({ error: 'setting_integer_invalid' }).regex(/^[1-9]\d{0,8}$/, { error: 'setting_integer_invalid' }),
  editor: { type: 'integer' },
};
/** A count (days, trades, minutes, whole percent): 0 or more, no decimals. */
const wholeNumber: SettingRule = {
  schema: z.string({ error: 'setting_whole_invalid' }).regex(/^(0|[1-9]\d{0,8})$/, { error: 'setting_whole_invalid' }),
  editor: { type: 'integer' },
};
/** A text setting edited as typed; its longest value is the schema's own. */
const text = (schema: z.ZodString): SettingRule => ({ schema, editor: { type: 'text', max: schema.maxLength ?? Infinity } });

/** What each setting may hold and how it is edited. */
export const SETTING_RULES = {
  verify_reg_type: choice(['1', '2', '3']),
  is_show_mobile: flag,
  service_link: text(ZServiceLinkSetting),
  service_link_type: choice(['1', '2', '3']),
  trade_fee_type: choice(['1', '2']),
  demo_start_balance: nonNegative,
  stop_out_level: nonNegative,
  margin_call_level: nonNegative,
  complaint_email: text(ZComplaintEmailSetting),
  withdraw_requires_kyc: flag,
  payout_method_cooldown_hours: nonNegative,
  deposit_expiry_days: positiveInteger,
  restricted_countries: {
    schema: z
      .string({ error: 'setting_countries_invalid' })
      .regex(/^([A-Z]{2}(,[A-Z]{2})*)?$/, { error: 'setting_countries_invalid' }),
    editor: { type: 'countries' },
  },
  risk_disclosure_version: positiveInteger,
  withdraw_four_eyes_above: nonNegative,
  withdraw_rate_max_age_hours: positiveInteger,
  review_claim_minutes: positiveInteger,
  copy_min_days: wholeNumber,
  copy_min_trades: wholeNumber,
  copy_min_amount: nonNegative,
  copy_fee_max_pct: wholeNumber,
  copy_public_delay_minutes: wholeNumber,
  copy_strategies_enabled: flag,
} as const satisfies Record<string, SettingRule>;

// Deposit channels and withdrawal currencies.

const cashierText = (max: number) => safeText().trim().max(max, { error: 'field_too_long' });
/** Amounts are USD with cents, as the wallet keeps them. */
const cashierAmount = (messageKey: string) => decimalInput(messageKey, 2, { positive: true, integerDigits: 15 });

export const ZChannelFields = z.object({
  type: z.union([z.literal(CashierType.coin), z.literal(CashierType.bank)], { error: 'channel_type_invalid' }),
  currency_code: z.string({ error: 'channel_currency_invalid' }).regex(/^[A-Z0-9]{2,10}$/, { error: 'channel_currency_invalid' }),
  protocol_code: z
    .string({ error: 'channel_protocol_invalid' })
    .regex(/^([A-Z0-9]{2,20})?$/, { error: 'channel_protocol_invalid' }),
  address: cashierText(200),
  bank_name: cashierText(200),
  bank_address: cashierText(300),
  bank_swift: cashierText(20),
  payee_name: cashierText(200),
  payee_account: cashierText(100),
  bank_remark: cashierText(500),
  min_amount: cashierAmount('channel_amount_invalid'),
  max_amount: cashierAmount('channel_amount_invalid'),
  enabled: flagInput('channel_enabled_invalid'),
  sort: sortInput('channel_sort_invalid'),
});
export type ChannelFields = z.infer<typeof ZChannelFields>;
export const ZChannelCreate = ZChannelFields.partial().required({
  type: true,
  currency_code: true,
  min_amount: true,
  max_amount: true,
});
export const ZChannelChange = ZChannelFields.partial();

/** fee_type 2: the fee is amount × draw_rate (1 is a fixed fee of draw_rate USD). */
export const RATE_FEE_TYPE = 2;

export const ZCurrencyFields = z.object({
  type: z.union([z.literal(CashierType.coin), z.literal(CashierType.bank)], { error: 'currency_type_invalid' }),
  code: z.string({ error: 'currency_code_invalid' }).regex(/^[A-Z0-9]{2,10}$/, { error: 'currency_code_invalid' }),
  protocol: z.string({ error: 'currency_protocol_invalid' }).regex(/^([A-Z0-9]{2,20})?$/, { error: 'currency_protocol_invalid' }),
  fee_type: z.union([z.literal(FIXED_FEE_TYPE), z.literal(RATE_FEE_TYPE)], { error: 'currency_fee_type_invalid' }),
  draw_rate: decimalInput('currency_draw_rate_invalid', 8),
  usd_price: decimalInput('currency_usd_price_invalid', 8, { positive: true }),
  min_amount: cashierAmount('currency_amount_invalid'),
  max_amount: cashierAmount('currency_amount_invalid'),
  enabled: flagInput('currency_enabled_invalid'),
  sort: sortInput('currency_sort_invalid'),
});
export type CurrencyFields = z.infer<typeof ZCurrencyFields>;
export const ZCurrencyCreate = ZCurrencyFields.partial().required({
  type: true,
  code: true,
  fee_type: true,
  draw_rate: true,
  usd_price: true,
  min_amount: true,
  max_amount: true,
});
/** `confirm_rate: true` confirms the operator's rate as it stands: its validity starts again. */
export const ZCurrencyChange = ZCurrencyFields.partial().extend({
  confirm_rate: z.literal(true, { error: 'currency_confirm_rate_invalid' }).optional(),
});
