import { z } from 'zod';
import { CashierType, DepositStatus, WithdrawalStatus } from '../cashier.js';
import type {
  CashierEventView,
  CoinChannelView,
  DepositSymbolView,
  DepositView,
  DrawMethodView,
  OperatorDepositView,
  PayoutWarningView,
  UploadView,
  WireChannelView,
  WithdrawalView,
  WithdrawCurrencyView,
  WithdrawRulesView,
} from '../views/cashier.js';

// Answer schemas of the cashier routes (uploads, deposits, withdrawals), for the OpenAPI documents; each
// satisfies its view and the routes are typed by them, so a field added to one side only is a compile error.

const zInt = () => z.number().int();
const valuesOf = <T extends Record<string, number>>(values: T) =>
  z.union(Object.values(values).map((value) => z.literal(value as T[keyof T])));

export const ZCashierType = valuesOf(CashierType).describe('1 digital coin, 2 bank');
const ZRateSource = z.enum(['market', 'operator']);
const ZEndReason = z.enum(['cancelled', 'voided', 'expired']).nullable();

/** A page of a list: `{data, total, page, page_size}`. */
export const pageOf = <T extends z.ZodType>(row: T) =>
  z.object({ data: z.array(row), total: zInt(), page: zInt(), page_size: zInt() });

export const ZUploadView = z.object({
  id: z.string(),
  url: z.string().describe('signed, valid for a few minutes'),
}) satisfies z.ZodType<UploadView>;

export const ZCoinChannelView = z.object({
  id: zInt(),
  currency_code: z.string(),
  protocol_code: z.string(),
  address: z.string(),
  min_amount: z.number(),
  max_amount: z.number(),
}) satisfies z.ZodType<CoinChannelView>;

export const ZDepositSymbolView = z.object({
  currency_code: z.string(),
  protocols: z.array(z.string()),
}) satisfies z.ZodType<DepositSymbolView>;

export const ZWireChannelView = z.object({
  id: zInt(),
  currency_code: z.string(),
  bank_name: z.string(),
  bank_address: z.string(),
  bank_swift: z.string(),
  payee_name: z.string(),
  payee_account: z.string(),
  bank_remark: z.string(),
  min_amount: z.number(),
  max_amount: z.number(),
  payment_reference: z.string(),
}) satisfies z.ZodType<WireChannelView>;

export const ZCashierEventView = z.object({
  status: zInt(),
  status_name: z.string(),
  created_at: z.string(),
  created_at_tran: z.string(),
  note: z.string().nullable(),
}) satisfies z.ZodType<CashierEventView>;

export const ZDepositView = z.object({
  id: zInt(),
  number: z.number(),
  credited_number: z.number().nullable(),
  type: ZCashierType,
  currency_code: z.string(),
  protocol_code: z.string().nullable(),
  status: valuesOf(DepositStatus).describe('0 unchecked, 1 finished, 2 rejected, 3 invalid'),
  status_name: z.string(),
  status_reason: ZEndReason,
  remark: z.string().nullable(),
  created_at: z.string(),
  created_at_tran: z.string(),
  timeline: z.array(ZCashierEventView),
}) satisfies z.ZodType<DepositView>;

export const ZOperatorDepositView = ZDepositView.extend({
  user_id: zInt(),
  pay_to: z.string(),
  from_address: z.string().nullable(),
  proof_url: z.string(),
  decided_by: z.string().nullable(),
  internal_note: z.string().nullable(),
}) satisfies z.ZodType<OperatorDepositView>;

export const ZWithdrawCurrencyView = z.object({
  id: zInt(),
  type: ZCashierType,
  code: z.string(),
  protocol: z.string(),
  draw_rate: z.string(),
  fee_type: zInt(),
  usd_price: z.string(),
  rate_source: ZRateSource,
  rate_pair: z.string().nullable(),
  rate_at: z.string(),
  rate_expires_at: z.string().nullable(),
  rate_quote: z.string(),
  min_amount: z.number(),
  max_amount: z.number(),
}) satisfies z.ZodType<WithdrawCurrencyView>;

export const ZWithdrawRulesView = z.object({ kyc_required: z.boolean() }) satisfies z.ZodType<WithdrawRulesView>;

export const ZDrawMethodView = z.object({
  id: zInt(),
  type: ZCashierType,
  draw_currency: z.object({ id: zInt(), code: z.string(), protocol: z.string() }),
  dc_address: z.string().nullable(),
  bank_name: z.string().nullable(),
  bank_address: z.string().nullable(),
  bank_swift: z.string().nullable(),
  payee_name: z.string().nullable(),
  payee_account: z.string().nullable(),
  bank_branch: z.string().nullable(),
  remark: z.string().nullable(),
  created_at: z.string(),
  usable_at: z.string(),
  usable: z.boolean(),
}) satisfies z.ZodType<DrawMethodView>;

export const ZWithdrawalView = z.object({
  id: zInt(),
  number: z.number(),
  real_number: z.number(),
  fee: z.number(),
  usd_price: z.string(),
  rate_source: ZRateSource,
  rate_pair: z.string().nullable(),
  rate_at: z.string().nullable(),
  draw_currency: z.object({ code: z.string(), protocol: z.string() }),
  type: ZCashierType,
  address: z.string().nullable(),
  payee_account: z.string().nullable(),
  bank_name: z.string().nullable(),
  notes: z.string().nullable(),
  status: valuesOf(WithdrawalStatus).describe('0 unreviewed, 1 completed, 2 rejected, 3 invalid'),
  status_name: z.string(),
  status_reason: ZEndReason,
  remark: z.string().nullable(),
  created_at: z.string(),
  created_at_tran: z.string(),
  timeline: z.array(ZCashierEventView),
}) satisfies z.ZodType<WithdrawalView>;

export const ZPayoutWarningView = z.union([
  z.object({ code: z.literal('address_shared'), address: z.string(), uids: z.array(zInt()) }),
  z.object({ code: z.literal('payee_name_mismatch'), payee_name: z.string(), verified_name: z.string().nullable() }),
]) satisfies z.ZodType<PayoutWarningView>;
