import { z } from 'zod';
import {
  COPY_STOP_LOSS_MAX_PCT,
  COPY_STOP_LOSS_MIN_PCT,
  PROVIDER_BIO_MAX,
  PROVIDER_NICKNAME_MAX,
  PROVIDER_NICKNAME_MIN,
} from '../copy/rules.js';
import {
  hasOnlyVisibleCharacters,
  inputOrDefault,
  intFromInput,
  optionalInput,
  pageQuery,
  positiveDecimal,
  positiveIntId,
} from './common.js';

/**
 * Letters (with their combining marks, which Thai, Hindi and Burmese need), digits, spaces, `_`, `-`,
 * `.`, and at least one letter or digit: a name of signs alone ("--") names nobody.
 */
const NICKNAME = /^(?=.*[\p{L}\p{N}])[\p{L}\p{M}\p{N}_.\- ]+$/u;
const codePoints = (value: string) => [...value].length;

/** A provider's public name: trimmed and in one Unicode form, so look-alike spellings compare equal. */
const nickname = z
  .string({ error: 'copy_nickname_invalid' })
  .transform((value) => value.normalize('NFC').trim().replace(/ {2,}/g, ' '))
  .refine(
    (value) => NICKNAME.test(value) && codePoints(value) >= PROVIDER_NICKNAME_MIN && codePoints(value) <= PROVIDER_NICKNAME_MAX,
    { error: 'copy_nickname_invalid' },
  );

/** The key that makes nicknames unique: "Alice" and "alice" are the same provider name. */
export const providerNicknameKey = (value: string) => value.normalize('NFKC').toLocaleLowerCase('und');

/** A provider's bio may span lines (a form sends CRLF); nothing else invisible or controlling. */
const bio = z
  .string({ error: 'field_invalid' })
  .transform((value) => value.replace(/\r\n?/g, '\n').trim())
  .refine((value) => hasOnlyVisibleCharacters(value, '\n'), { error: 'field_characters_invalid' })
  .refine((value) => codePoints(value) <= PROVIDER_BIO_MAX, { error: 'field_too_long' });

/** The provider's performance fee, whole percent of profit; the operator's maximum is checked by the server. */
const feePct = intFromInput('copy_fee_invalid', (number) =>
  number.min(0, { error: 'copy_fee_invalid' }).max(100, { error: 'copy_fee_invalid' }),
);

/** A copy's amount in USD (cents at most); the minimum and the free margin are checked by the server. */
const copyAmount = positiveDecimal('amount_invalid', 2, '1000000000');

const stopLossPct = intFromInput('copy_stop_loss_invalid', (number) =>
  number
    .min(COPY_STOP_LOSS_MIN_PCT, { error: 'copy_stop_loss_invalid' })
    .max(COPY_STOP_LOSS_MAX_PCT, { error: 'copy_stop_loss_invalid' }),
);

/** Becoming a provider: a nickname, an optional bio and the fee (none unless set). */
export const ZCopyProviderRequest = z.object({
  nickname,
  bio: inputOrDefault(bio, ''),
  fee_pct: inputOrDefault(feePct, 0),
});
export type TCopyProviderRequest = z.infer<typeof ZCopyProviderRequest>;

/**
 * A provider's edit of their profile: what is left out keeps its value; something must be sent. A bio
 * sent empty clears it (a nickname or fee sent empty is left out, as forms send every field).
 */
export const ZCopyProviderUpdate = z
  .object({ nickname: optionalInput(nickname), bio: bio.optional(), fee_pct: optionalInput(feePct) })
  .refine((body) => body.nickname !== undefined || body.bio !== undefined || body.fee_pct !== undefined, {
    error: 'copy_nothing_to_change',
  });
export type TCopyProviderUpdate = z.infer<typeof ZCopyProviderUpdate>;

/** A provider, by the id the list and the profile show. */
export const ZCopyProviderQuery = z.object({ provider_id: positiveIntId('copy_provider_invalid') });
export type TCopyProviderQuery = z.infer<typeof ZCopyProviderQuery>;

/** Following a provider with an amount and the copy stop-loss, percent of that amount. */
export const ZCopyFollowRequest = ZCopyProviderQuery.extend({ amount: copyAmount, stop_loss_pct: stopLossPct });
export type TCopyFollowRequest = z.infer<typeof ZCopyFollowRequest>;

/** One of the follower's copies. */
export const ZCopyIdRequest = z.object({ copy_id: positiveIntId('copy_id_invalid') });
export type TCopyIdRequest = z.infer<typeof ZCopyIdRequest>;

/** Changing a copy's amount or stop-loss: what is left out keeps its value; something must be sent. */
export const ZCopyEditRequest = ZCopyIdRequest.extend({
  amount: optionalInput(copyAmount),
  stop_loss_pct: optionalInput(stopLossPct),
}).refine((body) => body.amount !== undefined || body.stop_loss_pct !== undefined, {
  error: 'copy_nothing_to_change',
});
export type TCopyEditRequest = z.infer<typeof ZCopyEditRequest>;

/** Unfollowing: close the copied positions, or keep them as the follower's own. */
export const UNFOLLOW_MODES = ['close_all', 'keep'] as const;
export type UnfollowMode = (typeof UNFOLLOW_MODES)[number];

export const ZCopyUnfollowRequest = ZCopyIdRequest.extend({
  mode: z.enum(UNFOLLOW_MODES, { error: 'copy_unfollow_mode_invalid' }),
});
export type TCopyUnfollowRequest = z.infer<typeof ZCopyUnfollowRequest>;

/** Pausing (1) stops new copies, resuming (0) takes them up again; copies already open still follow the provider's closes. */
export const ZCopyPauseRequest = ZCopyIdRequest.extend({
  paused: intFromInput('copy_pause_invalid').pipe(z.union([z.literal(0), z.literal(1)], { error: 'copy_pause_invalid' })),
});
export type TCopyPauseRequest = z.infer<typeof ZCopyPauseRequest>;

/** The orders the provider list offers: highest 12-month return, smallest drawdown, most copiers. */
export const PROVIDER_SORTS = ['return', 'drawdown', 'copiers'] as const;
export type ProviderSort = (typeof PROVIDER_SORTS)[number];

/** The provider list's filters: risk score at most `risk_max`, at least `min_months` of history. */
export const ZProviderListQuery = pageQuery.extend({
  risk_max: optionalInput(
    intFromInput('copy_risk_filter_invalid', (number) =>
      number.min(1, { error: 'copy_risk_filter_invalid' }).max(10, { error: 'copy_risk_filter_invalid' }),
    ),
  ),
  min_months: optionalInput(
    intFromInput('copy_months_filter_invalid', (number) =>
      number.min(0, { error: 'copy_months_filter_invalid' }).max(120, { error: 'copy_months_filter_invalid' }),
    ),
  ),
  sort: inputOrDefault(z.enum(PROVIDER_SORTS, { error: 'copy_sort_invalid' }), 'return'),
});
export type TProviderListQuery = z.infer<typeof ZProviderListQuery>;
