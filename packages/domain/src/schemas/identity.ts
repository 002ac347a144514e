import { z } from 'zod';
import { uploadRef } from './cashier.js';
import { inputOrDefault, intFromInput, pageQuery, positiveIntId, requiredText, safeText } from './common.js';
import { decisionRequest } from './decisions.js';

/** Real-name review_status (docs/api.md): 0 not submitted or sent back, 1 under review, 2 verified. */
export const RealNameStatus = { none: 0, underReview: 1, verified: 2 } as const;
export type RealNameStatusValue = (typeof RealNameStatus)[keyof typeof RealNameStatus];

/** Longest legal name we keep; longer input is refused rather than cut. */
export const REAL_NAME_MAX = 100;

/**
 * ID numbers of every country we serve are letters and digits (passports, national ID cards); people
 * type them with spaces or hyphens between groups, which are not part of the number.
 */
const CARD_ID_PATTERN = /^[A-Z0-9]{4,32}$/;
const CARD_ID_SEPARATORS = /[\s-]/g;

export const ZCardId = safeText('card_id_required')
  .max(64, { error: 'field_too_long' })
  .transform((value) => value.replace(CARD_ID_SEPARATORS, '').toUpperCase())
  .pipe(z.string().min(1, { error: 'card_id_required' }).regex(CARD_ID_PATTERN, { error: 'card_id_invalid' }));

/**
 * POST /api/user_real/real_name (JSON or form): the name, the ID number and exactly one image of each
 * side. An array (two files for one side) fails as a missing image: the form takes one per side.
 */
export const ZRealNameRequest = z.object({
  name: requiredText('real_name_required', REAL_NAME_MAX),
  card_id: ZCardId,
  front_pic: uploadRef('front_pic_required', 'front_pic_required'),
  reverse_pic: uploadRef('reverse_pic_required', 'reverse_pic_required'),
});
export type TRealNameRequest = z.infer<typeof ZRealNameRequest>;

/** Operator list: records in one review status, under review by default. */
export const ZIdentityListQuery = pageQuery.extend({
  status: inputOrDefault(
    intFromInput('review_status_invalid').pipe(
      z.union([z.literal(0), z.literal(1), z.literal(2)], { error: 'review_status_invalid' }),
    ),
    RealNameStatus.underReview,
  ),
});

export const ZIdentityUserParams = z.object({ userId: positiveIntId('identity_not_found') });

/** The reason a user reads when their submission is sent back, and the operator's optional internal note. */
export const ZIdentityRejectRequest = decisionRequest('reject_reason_required', 500);
