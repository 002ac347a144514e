import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseURL, hasHorizontalScroll, launchBrowser, open, phone, screenshot } from './support.js';

const SCREENS = ['/', '/product', '/trade', '/order', '/user', '/rank', '/news', '/login', '/register', '/forgot', '/language'];

const english = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../apps/web/src/i18n/locales/en.json'), 'utf8'),
) as Record<string, Record<string, string>>;
const KEYS = Object.entries(english).flatMap(([namespace, messages]) =>
  Object.keys(messages).map((key) => `${namespace}.${key}`),
);

/** Latin words a reader of Arabic may still see: the brand and the language list's own names. */
const LATIN_ALLOWED = new Set([
  'Pipwise',
  'English',
  'Tiếng',
  'Việt',
  'Français',
  'Deutsch',
  'Español',
  'Português',
  'Italiano',
  'Türkçe',
  'Bahasa',
  'Indonesia',
  'Čeština',
]);

/** Words with a lower-case Latin letter; all-capital tokens are instrument and currency codes (EURUSD, BTC). */
const latinWords = (text: string) =>
  (text.match(/\p{Script=Latin}[\p{Script=Latin}'’-]*/gu) ?? []).filter(
    (word) => /\p{Ll}/u.test(word) && !LATIN_ALLOWED.has(word),
  );

/**
 * The page's text without what people wrote: users' names and e-mail addresses (marked `translate="no"`)
 * and operators' articles in another language than the page's (marked with their own `lang`).
 */
function interfaceText(page: Page) {
  return page.evaluate(() => {
    const pageLanguage = document.documentElement.lang;
    const userContent = Array.from(
      document.querySelectorAll<HTMLElement>(`[translate="no"], body [lang]:not([lang="${pageLanguage}"])`),
    );
    for (const element of userContent) element.style.display = 'none';
    const text = document.body.innerText;
    for (const element of userContent) element.style.removeProperty('display');
    return text;
  });
}

async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

describe('every screen in Arabic and English', () => {
  let browser: Browser;
  let session: { token: string; user: unknown };

  beforeAll(async () => {
    browser = await launchBrowser();
    session = await api<{ token: string; user: unknown }>('/api/user/createAccountDemoForU');
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('ships an installable manifest with its icons', async () => {
    const manifest = (await (await fetch(`${baseURL()}/manifest.json`)).json()) as {
      start_url: string;
      icons: { src: string; sizes: string }[];
    };
    expect(manifest.start_url).toBe('./');
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    for (const icon of manifest.icons) expect((await fetch(`${baseURL()}/${icon.src}`)).status, icon.src).toBe(200);
  });

  it.each(['ar', 'en'])(
    '%s: no raw keys, no English in Arabic, right-to-left, no sideways scroll at 360–430 px',
    async (language) => {
      const { context, page } = await phone(browser, language);
      await context.addInitScript(
        (saved) => localStorage.setItem('pipwise.session', saved),
        JSON.stringify({ state: session, version: 0 }),
      );

      for (const screen of SCREENS) {
        await open(page, screen);
        await settled(page);
        const where = `${language} ${screen}`;
        expect(new URL(page.url()).hash, where).toBe(`#${screen}`);
        expect(await page.evaluate(() => document.documentElement.dir), where).toBe(language === 'ar' ? 'rtl' : 'ltr');

        const text = await page.locator('body').innerText();
        expect(
          KEYS.filter((key) => text.includes(key)),
          where,
        ).toEqual([]);
        if (language === 'ar') expect(latinWords(await interfaceText(page)), where).toEqual([]);
        else expect(latinWords(text).length, where).toBeGreaterThan(0);

        for (const width of [360, 430]) {
          await page.setViewportSize({ width, height: 844 });
          expect(await hasHorizontalScroll(page), `${where} at ${width} px`).toBe(false);
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, `journey4-${language}${screen === '/' ? '-home' : screen.replace('/', '-')}`);
      }
      await context.close();
    },
  );
});
