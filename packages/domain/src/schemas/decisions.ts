import { z } from 'zod';
import { optionalText, requiredText } from './common.js';

/** The longest internal note an operator may keep on a decision. */
export const INTERNAL_NOTE_MAX = 500;

/**
 * An operator's decision the user hears about carries two texts: `reason`, written for the user (shown in
 * the app and the e-mail), and optionally `internal_note`, for the back office only (shown to operators
 * and kept in the audit, never sent to the user).
 */
export const decisionRequest = (reasonKey: string, reasonMax: number) =>
  z.object({ reason: requiredText(reasonKey, reasonMax), internal_note: optionalText(INTERNAL_NOTE_MAX) });
