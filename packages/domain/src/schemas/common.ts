import { z } from 'zod';

/**
 * Form-encoded bodies carry every value as text; these helpers accept both JSON and form shapes and
 * attach a message key (translated by the server) to each failure.
 */
export const requiredText = (messageKey: string, max = 255) =>
  z.string({ error: messageKey }).trim().min(1, { error: messageKey }).max(max, { error: 'field_too_long' });

export const optionalText = (max = 255) =>
  z
    .string({ error: 'field_invalid' })
    .trim()
    .max(max, { error: 'field_too_long' })
    .optional()
    .transform((value) => (value === '' ? undefined : value));

export const intFromInput = (messageKey: string) =>
  z.coerce.number({ error: messageKey }).int({ error: messageKey }).safe({ error: messageKey });

export const positiveIntId = (messageKey: string) => intFromInput(messageKey).positive({ error: messageKey });

/** Paging used by every list endpoint: page starts at 1, fixed page size chosen by the server. */
export const pageQuery = z.object({
  page: z.coerce
    .number({ error: 'page_invalid' })
    .int({ error: 'page_invalid' })
    .min(1, { error: 'page_invalid' })
    .max(1_000_000, { error: 'page_invalid' })
    .default(1),
});
