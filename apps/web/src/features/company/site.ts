import { COMPANY_COOKIE, COMPANY_COOKIE_MAX_AGE_SECONDS } from '@pipwise/domain';

/**
 * Enters a company's site (spec §9): its id is kept in a cookie for 3 years, which the server reads to
 * answer the company, its status and the manifest. Reloading at / shows the app under the new brand.
 */
export function enterCompany(id: number) {
  document.cookie = `${COMPANY_COOKIE}=${id}; max-age=${COMPANY_COOKIE_MAX_AGE_SECONDS}; path=/; samesite=lax`;
  // The same page without its #route: a full load (not a route change), at the home screen.
  window.location.replace(window.location.pathname);
}

/** Only a web address or a path of this site is followed; anything else (javascript:, data:) is not a place. */
export function safeLossUrl(lossUrl: string): string | null {
  if (lossUrl.startsWith('/') && !lossUrl.startsWith('//')) return lossUrl;
  try {
    const url = new URL(lossUrl);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
