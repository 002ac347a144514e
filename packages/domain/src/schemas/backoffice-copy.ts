import { z } from 'zod';
import { ZAdminPageQuery } from './backoffice.js';
import { optionalInput, positiveIntId, requiredText } from './common.js';

// The operator API's copy-trading requests (`/admin/api/copy…`, docs/admin-api.md): the server parses with
// these and the back office's forms check with them.

export const COPY_PROVIDER_STATUSES = ['active', 'stopped', 'suspended'] as const;
export type CopyProviderStatus = (typeof COPY_PROVIDER_STATUSES)[number];

/** Providers, newest first: by status, and by nickname (contains, any case) or the user's uid (exact). */
export const ZCopyProvidersAdminQuery = ZAdminPageQuery.extend({
  status: optionalInput(z.enum(COPY_PROVIDER_STATUSES, { error: 'copy_admin_status_invalid' })),
  q: optionalInput(z.string({ error: 'copy_admin_query_invalid' }).trim().max(100, { error: 'copy_admin_query_invalid' })),
});
export type CopyProvidersAdminQuery = z.output<typeof ZCopyProvidersAdminQuery>;

/** The provider of a path such as /copy/providers/:id; anything else names no provider. */
export const ZCopyProviderParams = z.object({ id: positiveIntId('copy_provider_invalid') });

/** Why a provider is suspended: the provider reads it (their own page), operators and the audit keep it. */
export const COPY_SUSPEND_REASON_MAX = 200;
export const ZCopySuspendRequest = z.object({
  reason: requiredText('copy_suspend_reason_required', COPY_SUSPEND_REASON_MAX),
});

/** A user's copies as follower (`side=follower`, the default) or as provider (`side=provider`). */
export const ZUserCopiesQuery = ZAdminPageQuery.extend({
  side: optionalInput(z.enum(['follower', 'provider'], { error: 'copy_admin_side_invalid' })).transform(
    (side) => side ?? 'follower',
  ),
});
export type UserCopiesQuery = z.output<typeof ZUserCopiesQuery>;

/** Fee settlements, newest first: of one provider, of one follower (uid), or all. */
export const ZCopyFeesQuery = ZAdminPageQuery.extend({
  provider_id: optionalInput(positiveIntId('copy_provider_invalid')),
  uid: optionalInput(positiveIntId('uid_invalid')),
});
export type CopyFeesQuery = z.output<typeof ZCopyFeesQuery>;
