/** How long each kind of server state counts as fresh; live data is pushed over the socket instead. */
export const STALE_SHORT = 10_000;
export const STALE_REFERENCE = 5 * 60_000;
