import { COMPANY_COOKIE, COMPANY_COOKIE_MAX_AGE_SECONDS } from '@pipwise/domain';

const writeCompanyCookie = (id: string) => {
  document.cookie = `${COMPANY_COOKIE}=${id}; max-age=${COMPANY_COOKIE_MAX_AGE_SECONDS}; path=/; samesite=lax`;
};

/**
 * Enters a company's site (docs/api.md): its id is kept in a cookie for 3 years, which the server reads to
 * answer the company, its status and the manifest. Reloading at / shows the app under the new brand.
 */
export function enterCompany(id: number) {
  writeCompanyCookie(String(id));
  // The same page without its #route: a full load (not a route change), at the home screen.
  window.location.replace(window.location.pathname);
}

/**
 * Chromium keeps no cookie longer than 400 days, whatever it is asked: the choice is written again on every
 * start, so it lasts the 3 years (and more) for anyone who keeps using the site.
 */
export function renewCompanyCookie() {
  const chosen = new RegExp(`(?:^|;\\s*)${COMPANY_COOKIE}=(\\d{1,9})(?:;|$)`).exec(document.cookie)?.[1];
  if (chosen) writeCompanyCookie(chosen);
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
