import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  varchar,
} from 'drizzle-orm/pg-core';
import { customType, pgTable, type AnyPgColumn } from 'drizzle-orm/pg-core';

/**
 * One schema for PGlite and PostgreSQL. Money is NUMERIC (drizzle hands it over as a string, which goes
 * straight into Decimal); ids are bigints read as JS numbers (safe far beyond any realistic count).
 */
const id = () => bigserial('id', { mode: 'number' }).primaryKey();
const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const money = (name: string) => numeric(name, { precision: 20, scale: 2 });
const amount6 = (name: string) => numeric(name, { precision: 24, scale: 6 });
const price = (name: string) => numeric(name, { precision: 24, scale: 10 });
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const userRef = () =>
  bigint('user_id', { mode: 'number' })
    .notNull()
    .references(() => users.id);

// ── accounts ────────────────────────────────────────────────────────────────────────────────────────

export const users = pgTable(
  'users',
  {
    id: id(),
    uid: bigint('uid', { mode: 'number' }).notNull().unique(),
    email: text('email'),
    areaId: integer('area_id'),
    phone: text('phone'),
    passwordHash: text('password_hash'),
    isDemo: smallint('is_demo').notNull().default(0),
    inviteCode: text('invite_code').notNull().unique(),
    invitedBy: bigint('invited_by', { mode: 'number' }),
    createdAt: createdAt(),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true, mode: 'date' }),
    /** The language of the user's last registration or login: mail sent unasked (a login alert) uses it. */
    lang: text('lang'),
    /** sha256 of the secret a demo account's device keeps; the uid alone is public and never logs in. */
    demoSecretHash: text('demo_secret_hash'),
    /** When the owner was last told of wrong passwords: once a day, whichever process sees them. */
    loginAlertAt: timestamp('login_alert_at', { withTimezone: true, mode: 'date' }),
    /** Operators' freezes: each refuses its part of the app with its own message until lifted. */
    loginFrozen: boolean('login_frozen').notNull().default(false),
    tradingFrozen: boolean('trading_frozen').notNull().default(false),
    withdrawalsFrozen: boolean('withdrawals_frozen').notNull().default(false),
    /** ISO 3166 code of the country of residence given at registration; null for demo and older accounts. */
    country: varchar('country', { length: 2 }),
    /** The risk disclosure version the user last accepted (setting `risk_disclosure_version`); null: none yet. */
    riskDisclosureVersion: integer('risk_disclosure_version'),
    riskDisclosureAcceptedAt: timestamp('risk_disclosure_accepted_at', { withTimezone: true, mode: 'date' }),
    /** On a demo account: the real account it was linked to when its owner first used it while signed in. */
    demoOwnerId: bigint('demo_owner_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    // One demo account per real account.
    uniqueIndex('users_demo_owner_unique').on(t.demoOwnerId),
    uniqueIndex('users_phone_unique').on(t.areaId, t.phone),
    index('users_invited_by_idx').on(t.invitedBy),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: userRef(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export const verificationCodes = pgTable(
  'verification_codes',
  {
    id: id(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    destination: text('destination').notNull(),
    purpose: smallint('purpose').notNull(),
    /** The account a reset code was sent for, so daily caps hold across its e-mail and phone. */
    userId: bigint('user_id', { mode: 'number' }),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('verification_codes_destination_idx').on(t.destination, t.purpose, t.createdAt),
    index('verification_codes_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Wrong passwords still inside their limit's window, a row per counted key (`scope` names the limit; `key`
 * the account, or the account and address): shared by every process and kept across restarts.
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** The times of the key's failures within the window, never more than the limit's number. */
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }).array().notNull(),
    /** When the newest of them leaves the window: from then on the row may be swept. */
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('login_failures_expires_idx').on(t.scope, t.expiresAt)],
);

export const captchas = pgTable('captchas', {
  id: text('id').primaryKey(),
  answerHash: text('answer_hash').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
});

/** Mail and SMS that were sent, or would have been without a provider: the embedded default's inbox. */
export const outboxMessages = pgTable(
  'outbox_messages',
  {
    id: id(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    destination: text('destination').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    delivered: boolean('delivered').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_destination_idx').on(t.destination, t.createdAt)],
);

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
});

export const areaCodes = pgTable('area_codes', {
  id: serial('id').primaryKey(),
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  globalCode: text('global_code').notNull(),
});

// ── wallet and ledger ───────────────────────────────────────────────────────────────────────────────

export const wallets = pgTable('wallets', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  currency: text('currency').notNull().default('USD'),
  balance: money('balance').notNull().default('0'),
  lockBalance: money('lock_balance').notNull().default('0'),
  /**
   * Bumped by every change of the wallet and by every lock taken to change the account's orders, so a
   * write that checked the account at version v can require v to be current (optimistic order path).
   */
  version: bigint('version', { mode: 'number' }).notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Every balance change, in the same transaction as the change. balance = sum(amount) per user. */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: id(),
    userId: userRef(),
    type: text('type').notNull(),
    amount: money('amount').notNull(),
    balanceAfter: money('balance_after').notNull(),
    memoKey: text('memo_key').notNull(),
    memoParams: jsonb('memo_params').$type<Record<string, string | number>>().notNull().default({}),
    refType: text('ref_type'),
    refId: bigint('ref_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('ledger_user_idx').on(t.userId, t.id),
    // An order is charged its fee, credited its result and written off at most once each, whatever races.
    uniqueIndex('ledger_order_once')
      .on(t.refId, t.type)
      .where(sql`${t.refType} = 'order'`),
    // A deposit is credited, a withdrawal debited (amount and fee) and an adjustment posted, at most once each.
    uniqueIndex('ledger_cashier_once')
      .on(t.refType, t.refId, t.type)
      .where(sql`${t.refType} IN ('deposit', 'withdrawal', 'adjustment')`),
    // The back office's copy-fee settlements, newest first. Partial: every trade writes to this table,
    // and only this list reads it by type.
    index('ledger_copy_fee_idx')
      .on(t.id)
      .where(sql`${t.type} = 'copy_fee'`),
  ],
);

/** Idempotency-Key replay store for money-moving calls. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    key: text('key').notNull(),
    route: text('route').notNull(),
    response: jsonb('response').$type<unknown>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);

// ── market ──────────────────────────────────────────────────────────────────────────────────────────

export const categories = pgTable('categories', {
  id: serial('id').primaryKey(),
  slug: text('slug').notNull().unique(),
  sort: integer('sort').notNull().default(0),
  names: jsonb('names').$type<Record<string, string>>().notNull(),
});

export const instruments = pgTable(
  'instruments',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull().unique(),
    showCode: text('show_code').notNull(),
    name: text('name').notNull(),
    logo: text('logo').notNull(),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    baseCurrency: text('base_currency').notNull(),
    quoteCurrency: text('quote_currency').notNull(),
    pricePrecision: integer('price_precision').notNull(),
    lotStep: numeric('lot_step', { precision: 20, scale: 4 }).notNull(),
    minLots: numeric('min_lots', { precision: 20, scale: 4 }).notNull(),
    maxLots: numeric('max_lots', { precision: 20, scale: 4 }).notNull(),
    contractSize: numeric('contract_size', { precision: 24, scale: 6 }).notNull(),
    feeRate: numeric('fee_rate', { precision: 20, scale: 8 }).notNull(),
    marginMode: smallint('margin_mode').notNull(),
    leverages: jsonb('leverages').$type<number[]>().notNull(),
    spread: price('spread').notNull(),
    basePrice: price('base_price').notNull(),
    volatility: numeric('volatility', { precision: 12, scale: 8 }).notNull(),
    session: text('session').notNull(),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [index('instruments_category_idx').on(t.categoryId)],
);

export const klines = pgTable(
  'klines',
  {
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id),
    period: text('period').notNull(),
    openTime: bigint('open_time', { mode: 'number' }).notNull(),
    open: price('open').notNull(),
    high: price('high').notNull(),
    low: price('low').notNull(),
    close: price('close').notNull(),
    volume: numeric('volume', { precision: 24, scale: 4 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.instrumentId, t.period, t.openTime] })],
);

// ── trading ─────────────────────────────────────────────────────────────────────────────────────────

/** status: 0 pending, 1 holding, 3 history. side: 1 buy, 2 sell. */
export const orders = pgTable(
  'orders',
  {
    id: id(),
    userId: userRef(),
    instrumentId: integer('instrument_id')
      .notNull()
      .references(() => instruments.id),
    side: smallint('side').notNull(),
    status: smallint('status').notNull(),
    lots: numeric('lots', { precision: 20, scale: 4 }).notNull(),
    leverage: integer('leverage').notNull(),
    targetPrice: price('target_price'),
    /** The entry-side market price at placement: which side a pending target is on, and OriginPrice. */
    placedPrice: price('placed_price'),
    openPrice: price('open_price'),
    closePrice: price('close_price'),
    stopLoss: price('stop_loss'),
    takeProfit: price('take_profit'),
    margin: amount6('margin').notNull(),
    fee: money('fee').notNull(),
    reserved: money('reserved').notNull().default('0'),
    profit: amount6('profit'),
    closeReason: text('close_reason'),
    createdAt: createdAt(),
    openedAt: timestamp('opened_at', { withTimezone: true, mode: 'date' }),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('orders_user_status_idx').on(t.userId, t.status, t.id),
    index('orders_status_idx').on(t.status),
    // The leaderboard reads the last three weeks of closes: history grows without bound, a status index would not do.
    index('orders_closed_at_idx')
      .on(t.closedAt)
      .where(sql`${t.status} = 3`),
  ],
);

// ── content ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * News articles, one row per article in one language (`lang` is one of ours: hk, en, …). Written by
 * the back office, which must sanitise `content` (HTML) before storing it.
 */
export const news = pgTable(
  'news',
  {
    id: id(),
    categoryId: integer('category_id').notNull().default(0),
    lang: varchar('lang', { length: 8 }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    logo: text('logo').notNull().default(''),
    content: text('content').notNull().default(''),
    published: boolean('published').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('news_lang_created_idx').on(t.lang, t.createdAt)],
);

// ── uploads ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Images users upload (payment proofs, ID documents), re-encoded without metadata, kept in the database
 * so every gateway on PGlite or PostgreSQL serves the same bytes. Private to the owner and operators.
 */
export const uploads = pgTable(
  'uploads',
  {
    /** Server-made, 22 url-safe characters (128 random bits): never guessable, never the user's name. */
    id: varchar('id', { length: 22 }).primaryKey(),
    userId: userRef(),
    mimeType: text('mime_type').notNull(),
    bytes: integer('bytes').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('uploads_user_idx').on(t.userId, t.createdAt)],
);

// ── cashier ─────────────────────────────────────────────────────────────────────────────────────────

/** Where users pay in: a coin address (type 1) or a bank account (type 2). Managed by the back office. */
export const depositChannels = pgTable('deposit_channels', {
  id: serial('id').primaryKey(),
  type: smallint('type').notNull(),
  currencyCode: text('currency_code').notNull(),
  protocolCode: text('protocol_code').notNull().default(''),
  address: text('address').notNull().default(''),
  bankName: text('bank_name').notNull().default(''),
  bankAddress: text('bank_address').notNull().default(''),
  bankSwift: text('bank_swift').notNull().default(''),
  payeeName: text('payee_name').notNull().default(''),
  payeeAccount: text('payee_account').notNull().default(''),
  bankRemark: text('bank_remark').notNull().default(''),
  minAmount: money('min_amount').notNull(),
  maxAmount: money('max_amount').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

/** A deposit declared by a user; credited (ledger `deposit`) once, when an operator finishes it. */
export const deposits = pgTable(
  'deposits',
  {
    id: id(),
    userId: userRef(),
    channelId: integer('channel_id')
      .notNull()
      .references(() => depositChannels.id),
    type: smallint('type').notNull(),
    /** The channel as it was when the user paid (a channel edited later does not rewrite history). */
    currencyCode: text('currency_code').notNull(),
    protocolCode: text('protocol_code'),
    payTo: text('pay_to').notNull(),
    fromAddress: text('from_address'),
    amount: money('amount').notNull(),
    creditedAmount: money('credited_amount'),
    proofUploadId: varchar('proof_upload_id', { length: 22 })
      .notNull()
      .references(() => uploads.id),
    status: smallint('status').notNull().default(0),
    /** The reason shown to the user when rejected or voided. */
    remark: text('remark'),
    /** The operator's note for the back office only; never shown to the user. */
    internalNote: text('internal_note'),
    decidedBy: text('decided_by'),
    decidedAt: at('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('deposits_user_idx').on(t.userId, t.id),
    index('deposits_status_idx').on(t.status, t.createdAt),
    // One payment, one proof: the same image cannot back a second declaration.
    uniqueIndex('deposits_proof_once').on(t.proofUploadId),
  ],
);

/** What users may withdraw to: a coin on a protocol (type 1) or a bank currency (type 2), with its fee. */
export const withdrawCurrencies = pgTable('withdraw_currencies', {
  id: serial('id').primaryKey(),
  type: smallint('type').notNull(),
  code: text('code').notNull(),
  protocol: text('protocol').notNull().default(''),
  /** fee_type 1: a fixed fee of draw_rate USD; otherwise the fee is amount × draw_rate. */
  feeType: smallint('fee_type').notNull(),
  drawRate: numeric('draw_rate', { precision: 20, scale: 8 }).notNull(),
  /** The operator's rate (units one USD buys), used only when the market has no pair of the code. */
  usdPrice: numeric('usd_price', { precision: 24, scale: 8 }).notNull(),
  /** When an operator last set `usd_price`; older than `withdraw_rate_max_age_hours`, it is not used. */
  usdPriceUpdatedAt: at('usd_price_updated_at').notNull().defaultNow(),
  minAmount: money('min_amount').notNull(),
  maxAmount: money('max_amount').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  sort: integer('sort').notNull().default(0),
});

/**
 * A user's payout method. Deleted methods stay (deleted_at) so withdrawals made to them keep their
 * destination; new ones are usable only from usable_at (the cool-down).
 */
export const payoutMethods = pgTable(
  'payout_methods',
  {
    id: id(),
    userId: userRef(),
    type: smallint('type').notNull(),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => withdrawCurrencies.id),
    address: text('address'),
    bankName: text('bank_name'),
    bankAddress: text('bank_address'),
    bankSwift: text('bank_swift'),
    payeeName: text('payee_name'),
    payeeAccount: text('payee_account'),
    bankBranch: text('bank_branch'),
    remark: text('remark'),
    usableAt: at('usable_at').notNull(),
    deletedAt: at('deleted_at'),
    createdAt: createdAt(),
  },
  (t) => [index('payout_methods_user_idx').on(t.userId, t.type)],
);

/** A withdrawal request; its amount sits in lock_balance until completed (debited) or ended (released). */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: id(),
    userId: userRef(),
    type: smallint('type').notNull(),
    currencyId: integer('currency_id')
      .notNull()
      .references(() => withdrawCurrencies.id),
    methodId: bigint('method_id', { mode: 'number' })
      .notNull()
      .references(() => payoutMethods.id),
    /** Leaves the balance in all, fee included. */
    amount: money('amount').notNull(),
    fee: money('fee').notNull(),
    /** Terms and destination as they were at the request. */
    usdPrice: numeric('usd_price', { precision: 24, scale: 8 }).notNull(),
    /** Where the locked rate came from ('market' or 'operator'), the pair it followed and when it was taken. */
    rateSource: text('rate_source').notNull().default('operator'),
    ratePair: text('rate_pair'),
    rateAt: at('rate_at'),
    received: money('received').notNull(),
    currencyCode: text('currency_code').notNull(),
    protocol: text('protocol').notNull(),
    address: text('address'),
    bankName: text('bank_name'),
    payeeAccount: text('payee_account'),
    memo: text('memo'),
    status: smallint('status').notNull().default(0),
    /** The reason shown to the user when rejected or voided. */
    remark: text('remark'),
    /** The operator's note for the back office only; never shown to the user. */
    internalNote: text('internal_note'),
    /** Four-eyes: above `withdraw_four_eyes_above` the first approval is recorded here and a second operator completes it. */
    firstApprovedBy: text('first_approved_by'),
    firstApprovedAt: at('first_approved_at'),
    decidedBy: text('decided_by'),
    decidedAt: at('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [index('withdrawals_user_idx').on(t.userId, t.id), index('withdrawals_status_idx').on(t.status, t.createdAt)],
);

/** Each status a deposit or withdrawal entered, when and by whom: the record's timeline. */
export const cashierEvents = pgTable(
  'cashier_events',
  {
    id: id(),
    refType: text('ref_type').notNull(),
    refId: bigint('ref_id', { mode: 'number' }).notNull(),
    status: smallint('status').notNull(),
    /** 'user', 'system', or 'operator:<name>'. */
    actor: text('actor').notNull(),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [
    index('cashier_events_ref_idx').on(t.refType, t.refId, t.id),
    // A record enters each status at most once: a second transition is a unique violation, not a row.
    uniqueIndex('cashier_events_once').on(t.refType, t.refId, t.status),
  ],
);

// ── identity ────────────────────────────────────────────────────────────────────────────────────────

/** Real-name verification, one per user. review_status 0 not submitted / rejected, 1 under review, 2 verified. */
export const realNameRecords = pgTable('real_name_records', {
  userId: bigint('user_id', { mode: 'number' })
    .primaryKey()
    .references(() => users.id),
  reviewStatus: smallint('review_status').notNull().default(0),
  name: text('name').notNull(),
  /** AES-256-GCM of the ID number: base64url of iv (12) | tag (16) | ciphertext. */
  cardIdSealed: text('card_id_sealed').notNull(),
  cardIdLast4: text('card_id_last4').notNull(),
  frontUploadId: varchar('front_upload_id', { length: 22 })
    .notNull()
    .references(() => uploads.id),
  reverseUploadId: varchar('reverse_upload_id', { length: 22 })
    .notNull()
    .references(() => uploads.id),
  /** The operator's reason when sent back to 0, shown to the user. */
  reason: text('reason'),
  /** The operator's note for the back office only; never shown to the user. */
  internalNote: text('internal_note'),
  submittedAt: at('submitted_at').notNull(),
  reviewedAt: at('reviewed_at'),
  reviewedBy: text('reviewed_by'),
});

// ── notices, feedback and companies ─────────────────────────────────────────────────────────────────

/** Announcements to every user, one row per announcement in one language; written by the back office. */
export const announcements = pgTable(
  'announcements',
  {
    id: id(),
    lang: varchar('lang', { length: 8 }).notNull(),
    title: text('title').notNull(),
    /** HTML, sanitised by whoever writes it (the back office) and again by the app before showing it. */
    content: text('content').notNull().default(''),
    published: boolean('published').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('announcements_lang_created_idx').on(t.lang, t.createdAt)],
);

/** Which announcements a user has opened: unread is the absence of a row. */
export const announcementReads = pgTable(
  'announcement_reads',
  {
    userId: userRef(),
    announcementId: bigint('announcement_id', { mode: 'number' })
      .notNull()
      .references(() => announcements.id),
    readAt: at('read_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.announcementId] })],
);

/**
 * Notices to one user about their own account: an order the risk engine closed, filled or retired,
 * and margin calls. `once` makes the same event stored twice (every process hears the bus) one row.
 */
export const accountNotices = pgTable(
  'account_notices',
  {
    id: id(),
    userId: userRef(),
    /** 'order' or 'margin_call'. */
    kind: varchar('kind', { length: 16 }).notNull(),
    /** For an order notice `<order id>:<reason>`; null for a margin call (margin_calls keeps those once). */
    once: varchar('once', { length: 64 }),
    /** The figures as stored with the order or measured by the engine (AccountNoticeView's fields). */
    params: jsonb('params').$type<Record<string, string | number | null>>().notNull(),
    readAt: at('read_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_notices_once').on(t.userId, t.once),
    index('account_notices_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Accounts in margin call: a crossing of the level notifies once, and leaving it (above the level, or
 * no positions left) lets the next crossing notify again.
 */
export const marginCalls = pgTable('margin_calls', {
  userId: userRef().primaryKey(),
  since: at('since').notNull(),
});

/** What visitors and users tell us (/feedback), kept for operators. */
export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    /** Null for a visitor. */
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    category: text('category').notNull(),
    text: text('text').notNull(),
    uploadId: varchar('upload_id', { length: 22 }).references(() => uploads.id),
    contact: text('contact'),
    lang: varchar('lang', { length: 8 }).notNull(),
    /** 0 new, 1 handled (by an operator). */
    status: smallint('status').notNull().default(0),
    handledBy: text('handled_by'),
    handledAt: at('handled_at'),
    createdAt: createdAt(),
  },
  (t) => [index('feedback_status_idx').on(t.status, t.createdAt)],
);

/**
 * Companies of the white-label site (docs/api.md company): the main site lists them; a company's own site
 * shows its name and logo. `status` 0 sends visitors to `loss_url`; type 0 with a non-zero status is main.
 */
export const companies = pgTable(
  'companies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    logo: text('logo').notNull().default(''),
    url: text('url').notNull().default(''),
    subject: text('subject').notNull().default(''),
    registeredAddress: text('registered_address').notNull().default(''),
    location: text('location').notNull().default(''),
    email: text('email').notNull().default(''),
    status: smallint('status').notNull().default(1),
    type: smallint('type').notNull().default(1),
    lossUrl: text('loss_url').notNull().default(''),
    sort: integer('sort').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('companies_name_idx').on(sql`lower(${t.name})`)],
);

// ── back office ─────────────────────────────────────────────────────────────────────────────────────

/** People who run the broker: not users; created from the command line or by a superadmin. */
export const operators = pgTable(
  'operators',
  {
    id: id(),
    email: text('email').notNull(),
    /** superadmin | finance | compliance | support | content */
    role: text('role').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** The TOTP secret, sealed with the app secret (AES-256-GCM) and bound to the operator's id. */
    totpSecretSealed: text('totp_secret_sealed').notNull(),
    /** The newest TOTP time step accepted: a code of this step or an older one is a replay. */
    lastOtpStep: bigint('last_otp_step', { mode: 'number' }).notNull().default(0),
    disabledAt: at('disabled_at'),
    passwordChangedAt: at('password_changed_at'),
    createdBy: text('created_by').notNull(),
    /** The operator who made this one (null: the command line or the first start). */
    createdById: bigint('created_by_id', { mode: 'number' }),
    /**
     * The operator who was handed this one's current enrolment link (at creation or a reset): they could
     * have used it themselves, so they never check this operator's work (four-eyes). Null: the command line.
     */
    enrolledById: bigint('enrolled_by_id', { mode: 'number' }),
    /** sha256 of the one-time enrolment link's token while one is open; null once used. */
    enrolmentTokenHash: text('enrolment_token_hash'),
    enrolmentExpiresAt: at('enrolment_expires_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('operators_email_unique').on(sql`lower(${t.email})`)],
);

/**
 * A change one operator asked for that takes effect only when a second superadmin approves it: a
 * setting that weakens a control, a new operator or a raised role (where two superadmins exist).
 * status 0 waiting, 1 approved and applied, 2 rejected.
 */
export const pendingChanges = pgTable(
  'pending_changes',
  {
    id: id(),
    /** 'settings' | 'operator.add' | 'operator.role' | 'operator.enable' */
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: smallint('status').notNull().default(0),
    makerId: bigint('maker_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    makerEmail: text('maker_email').notNull(),
    checkerId: bigint('checker_id', { mode: 'number' }).references(() => operators.id),
    checkerEmail: text('checker_email'),
    decidedAt: at('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [index('pending_changes_status_idx').on(t.status, t.id)],
);

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: id(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    /** sha256 of the token; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    /** Sliding: moved forward on use, never past `absolute_expires_at`. */
    expiresAt: at('expires_at').notNull(),
    absoluteExpiresAt: at('absolute_expires_at').notNull(),
    revokedAt: at('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
);

/**
 * Every operator action, append-only: a trigger refuses UPDATE, DELETE and TRUNCATE (migration 0008),
 * and each row carries the hash of the previous one, so a row changed behind the trigger's back breaks
 * the chain that `npm run audit -- verify` walks.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: at('at').notNull().defaultNow(),
    /** 'operator:<email>', 'cli' or 'system'. */
    actor: text('actor').notNull(),
    operatorId: bigint('operator_id', { mode: 'number' }),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id').notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    ip: text('ip'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull().unique(),
  },
  (t) => [
    index('audit_log_action_idx').on(t.action, t.id),
    index('audit_log_target_idx').on(t.targetType, t.targetId, t.id),
    index('audit_log_actor_idx').on(t.actor, t.id),
  ],
);

/** Who is looking at a queue item (advisory: approving or rejecting works without it and takes it). */
export const reviewClaims = pgTable(
  'review_claims',
  {
    /** 'deposits' | 'withdrawals' | 'kyc' */
    queue: text('queue').notNull(),
    itemId: text('item_id').notNull(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    operatorEmail: text('operator_email').notNull(),
    claimedAt: at('claimed_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.queue, t.itemId] })],
);

/**
 * A manual balance change: made by one operator (maker), posted to the ledger only when a second one
 * (checker) approves it. status 0 waiting, 1 approved and posted, 2 rejected.
 */
export const adjustments = pgTable(
  'adjustments',
  {
    id: id(),
    userId: userRef(),
    amount: money('amount').notNull(),
    /** The client-facing text: the ledger memo and the e-mail the user gets. */
    reason: text('reason').notNull(),
    /** The maker's note for the back office only; never shown to the user. */
    internalNote: text('internal_note'),
    status: smallint('status').notNull().default(0),
    makerId: bigint('maker_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    makerEmail: text('maker_email').notNull(),
    checkerId: bigint('checker_id', { mode: 'number' }).references(() => operators.id),
    checkerEmail: text('checker_email'),
    checkerNote: text('checker_note'),
    decidedAt: at('decided_at'),
    createdAt: createdAt(),
  },
  (t) => [index('adjustments_status_idx').on(t.status, t.id), index('adjustments_user_idx').on(t.userId, t.id)],
);

/**
 * The engine leader's epoch: one row, raised by each process that takes the engine's lead (after it got
 * the advisory lock). Every engine transaction that moves money reads it FOR SHARE and goes on only
 * while it still holds the epoch its process raised it to (leadership/postgres.ts explains the fencing).
 */
export const engineLeadership = pgTable('engine_leadership', {
  id: smallint('id').primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull(),
  /** Which process leads: host, pid and start (for operators and /readyz). */
  holder: text('holder'),
  since: at('since'),
});

// ── copy trading ────────────────────────────────────────────────────────────────────────────────────

/** A user who may be copied: their public name, fee and standing (docs/architecture.md, "Copy trading"). */
export const copyProviders = pgTable('copy_providers', {
  id: id(),
  userId: userRef().unique(),
  nickname: text('nickname').notNull(),
  /** `providerNicknameKey(nickname)`: "Alice" and "alice" are one name. */
  nicknameKey: text('nickname_key').notNull().unique(),
  bio: text('bio').notNull().default(''),
  feePct: integer('fee_pct').notNull().default(0),
  status: text('status', { enum: ['active', 'stopped', 'suspended'] })
    .notNull()
    .default('active'),
  suspendedReason: text('suspended_reason'),
  hidden: boolean('hidden').notNull().default(false),
  /** One of the broker's automated demo strategies. */
  automated: boolean('automated').notNull().default(false),
  createdAt: createdAt(),
});

/** A follower's copy of one provider. At most one copy per pair is not stopped. */
export const copies = pgTable(
  'copies',
  {
    id: id(),
    followerId: bigint('follower_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    providerId: bigint('provider_id', { mode: 'number' })
      .notNull()
      .references(() => copyProviders.id),
    amount: money('amount').notNull(),
    stopLossPct: integer('stop_loss_pct').notNull(),
    status: text('status', { enum: ['active', 'paused', 'stopped'] })
      .notNull()
      .default('active'),
    stopReason: text('stop_reason'),
    /** Set when the copy stopped: its open positions stay with the follower (unfollow `keep`, the provider stopped). */
    keepPositions: boolean('keep_positions').notNull().default(false),
    /** Realised P&L of the copy's closed positions, net of their trade fees. */
    realised: amount6('realised').notNull().default('0'),
    highWaterMark: amount6('high_water_mark').notNull().default('0'),
    feesPaid: money('fees_paid').notNull().default('0'),
    lastSettledAt: at('last_settled_at').notNull().defaultNow(),
    /** Provider positions opened from this moment on are copied: all of them for a new copy; those since the last resume after a pause. */
    copyFrom: at('copy_from').notNull().defaultNow(),
    createdAt: createdAt(),
    stoppedAt: at('stopped_at'),
  },
  (t) => [
    uniqueIndex('copies_one_live')
      .on(t.followerId, t.providerId)
      .where(sql`${t.status} <> 'stopped'`),
    index('copies_provider_idx').on(t.providerId, t.status),
  ],
);

/**
 * What each copy did with each provider position: the follower's order opened for it, or why none was.
 * The key (copy, provider order) is what makes a copy exactly once, however often the worker runs.
 */
export const copyOrders = pgTable(
  'copy_orders',
  {
    copyId: bigint('copy_id', { mode: 'number' })
      .notNull()
      .references(() => copies.id),
    providerOrderId: bigint('provider_order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    followerOrderId: bigint('follower_order_id', { mode: 'number' }).references(() => orders.id),
    status: text('status', { enum: ['open', 'closed', 'detached', 'skipped'] }).notNull(),
    skipReason: text('skip_reason'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.copyId, t.providerOrderId] }),
    index('copy_orders_provider_idx').on(t.providerOrderId),
    index('copy_orders_open_idx')
      .on(t.copyId)
      .where(sql`${t.status} = 'open'`),
  ],
);

/** A copy's activity as its follower reads it (copied, skipped, closed, detached, stopped, fee). */
export const copyActivity = pgTable(
  'copy_activity',
  {
    id: id(),
    copyId: bigint('copy_id', { mode: 'number' })
      .notNull()
      .references(() => copies.id),
    kind: text('kind').notNull(),
    providerOrderId: bigint('provider_order_id', { mode: 'number' }),
    orderId: bigint('order_id', { mode: 'number' }),
    code: text('code'),
    side: smallint('side'),
    lots: numeric('lots', { precision: 20, scale: 4 }),
    price: price('price'),
    skipReason: text('skip_reason'),
    stopReason: text('stop_reason'),
    amount: amount6('amount'),
    createdAt: createdAt(),
  },
  (t) => [index('copy_activity_copy_idx').on(t.copyId, t.id)],
);

/** Each account's equity at 00:00 UTC of each day: what the providers' figures are computed from. */
export const equitySnapshots = pgTable(
  'equity_snapshots',
  {
    userId: userRef(),
    day: text('day').notNull(),
    equity: money('equity').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), index('equity_snapshots_day_idx').on(t.day)],
);
// ── automated strategies ────────────────────────────────────────────────────────────────────────────

/**
 * The demo account each of the broker's automated strategies trades on (modules/strategies), made once
 * and found again at every start.
 */
export const strategyAccounts = pgTable('strategy_accounts', {
  strategy: varchar('strategy', { length: 32 }).primaryKey(),
  userId: userRef().unique(),
  /** When the copy module listed the account as an automated provider; null until it has. */
  providerAt: at('provider_at'),
  createdAt: createdAt(),
});
