import type { OperatorRole, PendingChangeView } from '../backoffice.js';
import type { WithdrawRateSource } from '../cashier.js';
import type { CompanyStatusView, CompanyView } from '../company.js';
import type { SETTING_RULES } from '../schemas/backoffice-catalogue.js';
import type { PayoutWarningView, WithdrawalView } from './cashier.js';
import type { IdentityReviewView } from './identity.js';

// What the operator API (`/admin/api`, docs/admin-api.md) answers: the server's presenters are declared
// to return these and the back office reads them, so a field one side drops or retypes is a compile error.
// Money figures are JSON numbers rounded at the boundary, as in the users' API.

/** A page of a back-office list. */
export interface OperatorPageView<T> {
  data: T[];
  total: number;
  page: number;
  page_size: number;
}

/** An operator as the operators list and its changes answer it. */
export interface OperatorRowView {
  id: number;
  email: string;
  role: OperatorRole;
  disabled: boolean;
  created_by: string;
  created_at: string;
}

/** Who is signed in (`GET /me`, and the login's `operator`). */
export interface SignedInOperatorView {
  id: number;
  email: string;
  role: OperatorRole;
}

/** `POST /login` and `POST /enrolment/finish`: the session token and who it is. */
export interface OperatorSignInView {
  token: string;
  operator: SignedInOperatorView;
}

/** A one-time enrolment link (a path of the back office), shown once. */
export interface OperatorEnrolmentView {
  email: string;
  role: OperatorRole;
  link: string;
  expires_at: string;
}

/** `POST /enrolment/begin`: the new operator's TOTP secret for their authenticator app. */
export interface EnrolmentStartView {
  email: string;
  role: OperatorRole;
  otpauth: string;
}

/** One of the operator's own live sessions (`GET /me/sessions`). */
export interface OperatorSessionView {
  id: number;
  created_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}

/** What waits for a second superadmin instead of being applied. */
export interface PendingChangeRefView {
  pending_change: { id: number };
}

/** A manual balance change: made by one operator, posted only when a second one approves it. */
export interface AdjustmentView {
  id: number;
  uid: number;
  /** Signed: a credit is positive. */
  amount: number;
  /** The client-facing text: the user's history and e-mail show it. */
  reason: string;
  /** For operators and the audit only. */
  internal_note: string | null;
  /** 0 waiting, 1 approved and posted, 2 rejected. */
  status: number;
  maker: string;
  checker: string | null;
  checker_note: string | null;
  created_at: string;
  decided_at: string | null;
}

/** Who is working a queue item, until when. */
export interface ReviewClaimView {
  operator: string;
  expires_at: string;
}

/** Who a queue item belongs to, at a glance: contact, money, verification and cashier history. */
export interface ReviewUserView {
  uid: number;
  email: string | null;
  phone: string | null;
  balance: number;
  lock_balance: number;
  equity: number;
  kyc_status: number;
  deposits_total: number;
  withdrawals_total: number;
  created_at: string;
}

/** What every review-queue item carries besides its own fields: who works it, and whose it is. */
export interface ReviewContextView {
  claim: ReviewClaimView | null;
  user: ReviewUserView | null;
}

/**
 * A withdrawal in the finance queue: the user's record plus whose it is, where it goes and who decided,
 * with four-eyes the first approver and whether a second approval is still needed, and the warnings on its
 * destination (shared address, payee name), which inform and never refuse.
 */
export interface OperatorWithdrawalView extends WithdrawalView {
  user_id: number;
  method_id: number;
  first_approved_by: string | null;
  first_approved_at: string | null;
  needs_second_approval: boolean;
  warnings: PayoutWarningView[];
  decided_by: string | null;
  /** The deciding operator's note for the back office; never in the user's view. */
  internal_note: string | null;
}

/**
 * An identity submission in the compliance queue: the record, the user's public id (null once the user
 * is gone), the masked ID number and signed links to both sides of the ID under the names the page uses.
 */
export interface IdentityQueueItemView extends IdentityReviewView, ReviewContextView {
  uid: number | null;
  card_id_masked: string;
  front_url: string;
  reverse_url: string;
}

/** One instrument's client positions on the risk page (net = long − short). */
export interface RiskInstrumentView {
  code: string;
  long_lots: number;
  short_lots: number;
  net_lots: number;
  /** At the mid price in USD; null while the instrument has no quote. */
  net_exposure_usd: number | null;
  floating_pnl: number;
}

/** A cashier total of today: how many and how much (USD). */
export interface RiskDayTotalView {
  count: number;
  amount: number;
}

/** `GET /risk`: the clients' positions, the broker's book (their negative) and the accounts nearest a stop-out. */
export interface RiskView {
  instruments: RiskInstrumentView[];
  book: {
    net_exposure_usd: number;
    floating_pnl: number;
    clients_net_exposure_usd: number;
    clients_floating_pnl: number;
  };
  stop_out_level: number;
  nearest_stop_out: { uid: number | null; equity: number; used_margin: number; margin_level: number }[];
  today: { deposits: RiskDayTotalView; withdrawals: RiskDayTotalView; new_users: number };
  at: string;
}

/** One row of the append-only, hash-chained audit log. */
export interface AuditRowView {
  id: number;
  at: string;
  actor: string;
  operator_id: number | null;
  action: string;
  target_type: string;
  target_id: string;
  before: unknown;
  after: unknown;
  ip: string | null;
  hash: string;
}

/** `GET /audit/verify`: whether the chain holds, and what to write down to compare later. */
export interface AuditChainView {
  ok: boolean;
  /** Rows checked (up to and including the first broken one). */
  rows: number;
  /** The id of the first row whose hash or link does not hold; null when the chain is whole. */
  broken_at: number | null;
  /** The newest row's hash when the chain is whole: with `rows`, what an operator writes down. */
  head: string | null;
  /** Rows written before the chain was keyed, accepted on the unkeyed hash because the seal pins them. */
  legacy_rows: number;
  /** Where the keyed chain begins. */
  keyed_since: { id: number; at: string } | null;
}

/** A mail or SMS kept instead of sent; nothing here is delivered later. */
export interface OutboxMessageView {
  id: number;
  channel: 'email' | 'sms';
  destination: string;
  subject: string;
  body: string;
  delivered: boolean;
  kept_reason: 'no_smtp_url' | 'no_sms_gateway';
  created_at: string;
}

/** `GET /outbox`: a page, and how e-mail leaves the server now. */
export interface OutboxPageView extends OperatorPageView<OutboxMessageView> {
  mail: 'smtp' | 'outbox';
}

// Approvals of four-eyes changes.

/** The operator after an approved role change, as the approval answers it: the server's record, field names as stored. */
export interface OperatorRecordView {
  id: number;
  email: string;
  role: OperatorRole;
  disabled: boolean;
  createdBy: string;
  createdAt: string;
  passwordChangedAt: string | null;
}

/** What an approved change did: an addition's enrolment link, a role change's operator, nothing for settings. */
export type ApprovedChangeResultView = OperatorEnrolmentView | OperatorRecordView | null;

/** `POST /changes/:id/approve`. */
export interface ChangeApprovalView {
  change: PendingChangeView;
  result: ApprovedChangeResultView;
}

// Settings.

/** A stored setting: every one has its rule in the domain (the server checks its stored keys against them). */
export type SettingKeyView = keyof typeof SETTING_RULES;

/** `GET /settings`, and a change applied: each setting's value as stored text. */
export type SettingsView = Record<SettingKeyView, string>;

// The catalogue, content and cashier terms. Decimals are exact text (the operator edits what is stored).

/** An instrument as the back office edits it. */
export interface InstrumentAdminView {
  id: number;
  code: string;
  show_code: string;
  name: string;
  category_id: number;
  price_precision: number;
  spread: string;
  leverages: number[];
  fee_rate: string;
  min_lots: string;
  lot_step: string;
  max_lots: string;
  contract_size: string;
  margin_mode: number;
  session: string;
  enabled: boolean;
  sort: number;
}

/** A category with its name in every language. */
export interface CategoryAdminView {
  id: number;
  slug: string;
  sort: number;
  names: Record<string, string>;
}

/** An article as the reader's detail shows it, plus what only the back office edits (`cover` repeats `logo`). */
export interface NewsAdminView {
  id: number;
  lang: string;
  title: string;
  desc: string;
  logo: string;
  cover: string;
  content: string;
  category_id: number;
  published: boolean;
  created_at: string;
}

/** An announcement as the user's detail shows it, plus language and state (`read` is always false here). */
export interface AnnouncementAdminView {
  id: number;
  lang: string;
  title: string;
  content: string;
  published: boolean;
  created_at: string;
  read: boolean;
}

/** A company as the back office edits it: its profile, its site status and its place in the list. */
export interface CompanyAdminView extends CompanyView, CompanyStatusView {
  sort: number;
}

/** A deposit channel (coin address or bank account); amounts are USD with cents. */
export interface DepositChannelView {
  id: number;
  type: number;
  currency_code: string;
  protocol_code: string;
  address: string;
  bank_name: string;
  bank_address: string;
  bank_swift: string;
  payee_name: string;
  payee_account: string;
  bank_remark: string;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
  sort: number;
}

/** A withdrawal currency's terms as stored (what create and update answer). */
export interface WithdrawCurrencyAdminView {
  id: number;
  type: number;
  code: string;
  protocol: string;
  fee_type: number;
  draw_rate: string;
  usd_price: string;
  usd_price_updated_at: string;
  min_amount: string;
  max_amount: string;
  enabled: boolean;
  sort: number;
}

/** The list adds the rate users get now: a market pair's (the operator's `usd_price` then unused) or the operator's. */
export interface WithdrawCurrencyAdminListView extends WithdrawCurrencyAdminView {
  rate_source: WithdrawRateSource;
  rate_pair: string | null;
  rate: string;
  rate_at: string;
  rate_expires_at: string | null;
}

/** A row of any catalogue the back office edits in a table (`CatalogueTable`). */
export type CatalogueRowView =
  InstrumentAdminView | CategoryAdminView | CompanyAdminView | DepositChannelView | WithdrawCurrencyAdminListView;
