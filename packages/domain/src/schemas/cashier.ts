import { z } from 'zod';
import { CASHIER_AMOUNT_DECIMALS, CashierType } from '../cashier.js';
import { intFromInput, optionalInput, optionalText, pageQuery, positiveDecimal, positiveIntId, requiredText } from './common.js';

/** Larger than any deposit or withdrawal a channel allows; the channel's own min/max apply on top. */
const MAX_CASHIER_AMOUNT = '1000000000';

/** A cashier amount: positive, at most 2 decimals, plain decimal text or a JSON number. */
export const ZCashierAmount = positiveDecimal('amount_invalid', CASHIER_AMOUNT_DECIMALS, MAX_CASHIER_AMOUNT);

const cashierType = (messageKey: string) =>
  intFromInput(messageKey).pipe(z.union([z.literal(CashierType.coin), z.literal(CashierType.bank)], { error: messageKey }));

/**
 * An upload reference as the client holds it: the id, or the URL `image_upload` answered (signed or
 * not). Only the id is read; whose it is, the server checks.
 */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
export const uploadRef = (requiredKey: string, invalidKey = 'upload_invalid') =>
  requiredText(requiredKey, 2048).transform((value, context) => {
    const id = UPLOAD_ID_PATTERN.test(value) ? value : /\/api\/common\/upload\/([A-Za-z0-9_-]{22})(?:[?#]|$)/.exec(value)?.[1];
    if (!id) {
      context.addIssue({ code: 'custom', message: invalidKey });
      return z.NEVER;
    }
    return id;
  });
export const ZUploadRef = uploadRef('proof_required');

/** POST /api/quickCharge/submit: a coin deposit (docs/api.md). `number` is the amount sent. */
export const ZCoinDepositRequest = z.object({
  number: ZCashierAmount,
  proofImg: ZUploadRef,
  address: optionalText(200),
  charge_id: positiveIntId('channel_invalid'),
});
export type TCoinDepositRequest = z.infer<typeof ZCoinDepositRequest>;

/** POST /api/quickCharge/wire_submit: a bank wire deposit. */
export const ZWireDepositRequest = z.object({
  number: ZCashierAmount,
  proofImg: ZUploadRef,
  wire_id: positiveIntId('channel_invalid'),
});
export type TWireDepositRequest = z.infer<typeof ZWireDepositRequest>;

/** GET /api/quickCharge/wire_info: bank accounts, optionally of one currency. */
export const ZWireInfoQuery = z.object({ bank_coin: optionalText(16) });

/** GET /api/quickCharge/quick_ist: the user's deposit records; type 1 coin, 2 wire, absent both. */
export const ZDepositListQuery = pageQuery.extend({ type: optionalInput(cashierType('type_invalid')) });

/** GET /api/account/draw_symbol_list. */
export const ZDrawSymbolQuery = z.object({ type: cashierType('type_invalid') });

/** POST /api/account/draw (form). `number` is the amount that leaves the balance, fee included. */
export const ZWithdrawRequest = z.object({
  draw_currency_id: positiveIntId('currency_invalid'),
  number: ZCashierAmount,
  memo: optionalText(200),
  draw_method_id: positiveIntId('method_required'),
  /** The `rate_quote` of the currency list the screen showed: the withdrawal is charged at that rate. */
  rate_quote: optionalText(500),
});
export type TWithdrawRequest = z.infer<typeof ZWithdrawRequest>;

/** GET /api/account/draw_list. */
export const ZWithdrawListQuery = pageQuery.extend({ type: optionalInput(cashierType('type_invalid')) });

/** Cancel, detail: one record of the user's. */
export const ZRecordIdRequest = z.object({ id: positiveIntId('record_invalid') });

/** GET /api/wallet/get_draw_method: the user's methods of a type, optionally of one withdraw currency. */
export const ZDrawMethodQuery = z.object({
  draw_type: cashierType('type_invalid'),
  draw_id: optionalInput(positiveIntId('currency_invalid')),
});

/** Forms carry the type as text; the union needs it as the number it spells to pick its branch. */
const typeAsNumber = (input: unknown) =>
  typeof input === 'object' && input !== null && 'type' in input && typeof input.type === 'string' && /^\d{1,2}$/.test(input.type)
    ? { ...input, type: Number(input.type) }
    : input;

/** POST /api/wallet/bind_draw_method: a coin address (type 1) or a bank account (type 2) for a withdraw currency. */
export const ZBindDrawMethodRequest = z.preprocess(
  typeAsNumber,
  z.discriminatedUnion(
    'type',
    [
      z.object({
        type: z.literal(CashierType.coin),
        draw_id: positiveIntId('currency_invalid'),
        dc_address: requiredText('address_required', 200),
      }),
      z.object({
        type: z.literal(CashierType.bank),
        draw_id: positiveIntId('currency_invalid'),
        bank_name: requiredText('bank_name_required', 120),
        bank_address: optionalText(200),
        bank_swift: optionalText(11),
        payee_name: requiredText('payee_name_required', 120),
        payee_account: requiredText('payee_account_required', 64),
        bank_branch: optionalText(120),
        remark: optionalText(200),
      }),
    ],
    { error: 'type_invalid' },
  ),
);
export type TBindDrawMethodRequest = z.infer<typeof ZBindDrawMethodRequest>;

/** POST /api/wallet/del_draw_method. */
export const ZDeleteDrawMethodRequest = z.object({ id: positiveIntId('method_invalid') });
