import { z } from 'zod';
import { ZPayoutWarningView } from './cashier.js';

/** An amount as the pages send it (null where the stored value is). */
const zMoney = () => z.number().nullable();

// Answer schemas of the back office's user pages (`/admin/api/users…`), for the operator API document;
// the routes are typed by them, so the server's answer and these schemas cannot drift apart.

const zInt = () => z.number().int();
const zTime = () => z.string().nullable();

export const ZFreezesView = z.object({ login: z.boolean(), trading: z.boolean(), withdrawals: z.boolean() });

export const ZUserRowView = z.object({
  uid: zInt(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  area_code: z.string().nullable(),
  is_demo: z.boolean(),
  balance: zMoney(),
  kyc_status: zInt(),
  freezes: ZFreezesView,
  created_at: z.string(),
});

export const ZUserDetailView = z.object({
  uid: zInt(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  area_code: z.string().nullable(),
  is_demo: z.boolean(),
  lang: z.string().nullable(),
  created_at: z.string(),
  figures: z.object({
    balance: z.number(),
    locked: z.number(),
    equity: z.number(),
    used_margin: z.number(),
    free_margin: z.number(),
    floating_pnl: z.number(),
    margin_level: z.number().nullable(),
  }),
  freezes: ZFreezesView,
  kyc: z.object({
    status: zInt(),
    name: z.string().nullable(),
    reason: z.string().nullable(),
    submitted_at: zTime(),
    reviewed_at: zTime(),
    reviewed_by: z.string().nullable(),
  }),
  invite: z.object({ code: z.string(), invited_by_uid: zInt().nullable(), invited_count: zInt() }),
  deposits_total: z.number(),
  withdrawals_total: z.number(),
  payout_warnings: z.array(ZPayoutWarningView),
});

export const ZUserOrderView = z.object({
  id: zInt(),
  code: z.string(),
  side: zInt(),
  status: zInt(),
  lots: z.number(),
  leverage: z.number(),
  target_price: z.string().nullable(),
  open_price: z.string().nullable(),
  close_price: z.string().nullable(),
  stop_loss: z.string().nullable(),
  take_profit: z.string().nullable(),
  margin: z.number(),
  fee: zMoney(),
  profit: z.number().nullable(),
  close_reason: z.string().nullable(),
  created_at: z.string(),
  opened_at: zTime(),
  closed_at: zTime(),
});

export const ZUserLedgerRowView = z.object({
  id: zInt(),
  type: z.string(),
  amount: zMoney(),
  balance_after: zMoney(),
  memo: z.string(),
  ref_type: z.string().nullable(),
  ref_id: zInt().nullable(),
  created_at: z.string(),
});

export const ZUserDepositRowView = z.object({
  id: zInt(),
  type: zInt(),
  currency_code: z.string(),
  protocol_code: z.string().nullable(),
  amount: zMoney(),
  credited_amount: zMoney(),
  status: zInt(),
  remark: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_at: zTime(),
  created_at: z.string(),
});

export const ZUserWithdrawalRowView = z.object({
  id: zInt(),
  type: zInt(),
  currency_code: z.string(),
  protocol: z.string(),
  amount: zMoney(),
  fee: zMoney(),
  received: zMoney(),
  address: z.string().nullable(),
  bank_name: z.string().nullable(),
  payee_account: z.string().nullable(),
  status: zInt(),
  remark: z.string().nullable(),
  first_approved_by: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_at: zTime(),
  created_at: z.string(),
});

export const ZUserSessionRowView = z.object({
  id: zInt(),
  created_at: z.string(),
  expires_at: z.string(),
  revoked_at: zTime(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  live: z.boolean(),
});

export const ZFreezeSavedView = z.object({ uid: zInt(), freezes: ZFreezesView, sessions_ended: zInt() });

export const ZSessionsRevokedView = z.object({ uid: zInt(), sessions_ended: zInt() });
