import type { RealNameStatusValue } from '../schemas/identity.js';

/**
 * `user_real/center`: the user's verification as they may see it. The ID number only masked
 * (`****1234`); the images as signed links that expire. All null before a first submission.
 */
export interface RealNameView {
  review_status: RealNameStatusValue;
  name: string | null;
  card_id: string | null;
  front_pic: string | null;
  reverse_pic: string | null;
  /** The operator's reason when the last submission was sent back. */
  reason: string | null;
}

/** One submission as operators list it (the full ID number is a separate, audited call). */
export interface IdentityReviewView {
  user_id: number;
  review_status: RealNameStatusValue;
  name: string;
  card_id: string;
  front_pic: string;
  reverse_pic: string;
  /** The reason the user reads when sent back. */
  reason: string | null;
  /** The reviewing operator's note for the back office only. */
  internal_note: string | null;
  submitted_at: string;
  reviewed_at: string | null;
  reviewed_by: string | null;
}

export interface IdentityReviewListView {
  data: IdentityReviewView[];
  total: number;
  page: number;
  page_size: number;
}

/** The full ID number, for an operator comparing it with the images. */
export interface IdentityCardIdView {
  user_id: number;
  card_id: string;
}

/** Masks all but the last four characters, as the user sees their own number. */
export const maskCardId = (last4: string): string => `****${last4}`;
