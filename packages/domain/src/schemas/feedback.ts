import { z } from 'zod';
import { uploadRef } from './cashier.js';
import {
  hasOnlyVisibleCharacters,
  inputOrDefault,
  intFromInput,
  optionalInput,
  optionalText,
  pageQuery,
  positiveIntId,
  safeText,
} from './common.js';

/** What feedback is about; the screen offers exactly these, the operators' list groups by them. */
export const FEEDBACK_CATEGORIES = ['trading', 'cashier', 'account', 'app', 'suggestion', 'general'] as const;
export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number];

/** Longest feedback text, in characters (code points), so a Chinese or emoji text gets the same room. */
export const FEEDBACK_TEXT_MAX = 2000;
export const FEEDBACK_CONTACT_MAX = 100;

/** 0 new, 1 handled by an operator. */
export const FeedbackStatus = { new: 0, handled: 1 } as const;

/** A multi-line text: CRLF and CR read as LF, the only control character it may hold; the rest are invalid input. */
export const multilineText = (requiredKey: string, max: number) =>
  z
    .string({ error: requiredKey })
    .transform((value) => value.replace(/\r\n?/g, '\n').trim())
    .refine((value) => hasOnlyVisibleCharacters(value, '\n'), { error: 'field_characters_invalid' })
    .refine((value) => value.length > 0, { error: requiredKey })
    .refine((value) => [...value].length <= max, { error: 'feedback_text_too_long' });

/**
 * POST /api/feedback/submit (JSON or form; path ours, the spec's screen is a stub). `upload_id` is an
 * image the signed-in user uploaded (its id or its link); empty means none.
 */
export const ZFeedbackRequest = z.object({
  category: safeText('feedback_category_invalid').pipe(z.enum(FEEDBACK_CATEGORIES, { error: 'feedback_category_invalid' })),
  text: multilineText('feedback_text_required', FEEDBACK_TEXT_MAX),
  contact: optionalText(FEEDBACK_CONTACT_MAX),
  upload_id: optionalInput(uploadRef('upload_invalid')),
});
export type TFeedbackRequest = z.infer<typeof ZFeedbackRequest>;

/** Operator list: one status, new by default. */
export const ZFeedbackListQuery = pageQuery.extend({
  status: inputOrDefault(
    intFromInput('feedback_status_invalid').pipe(z.union([z.literal(0), z.literal(1)], { error: 'feedback_status_invalid' })),
    FeedbackStatus.new,
  ),
});

export const ZFeedbackParams = z.object({ id: positiveIntId('feedback_not_found') });

export interface FeedbackSubmittedView {
  id: number;
}

/** A feedback as operators read it; the image through the operator upload path. */
export interface FeedbackAdminView {
  id: number;
  /** The user's public number, as operators look users up; null for a visitor (the internal id is never sent). */
  uid: number | null;
  category: FeedbackCategory;
  text: string;
  contact: string | null;
  upload_id: string | null;
  lang: string;
  status: number;
  /** The operator (`operator:<email>`) who marked it handled, and when. */
  handled_by: string | null;
  handled_at: string | null;
  created_at: string;
}
