/** The user's own notices (the engine's closes, fills and margin calls); the NOTICE push refetches them. */
export const accountNoticeKeys = {
  all: ['account-notices'] as const,
  list: () => [...accountNoticeKeys.all, 'list'] as const,
  unread: () => [...accountNoticeKeys.all, 'unread'] as const,
};
