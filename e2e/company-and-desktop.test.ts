import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator } from './cashier.js';
import { api, baseURL, hasHorizontalScroll, launchBrowser, open, phone, screenshot } from './support.js';

interface Company {
  id: number;
  name: string;
}

const THREE_YEARS_SECONDS = 3 * 365 * 24 * 60 * 60;
const DAY_SECONDS = 24 * 60 * 60;
const CHROMIUM_COOKIE_CAP_SECONDS = 400 * DAY_SECONDS;
const DESKTOP_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const COLUMN_WIDTH = 480;

const english = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../apps/web/src/i18n/locales/en.json'), 'utf8'),
) as Record<string, Record<string, string>>;
const KEYS = Object.entries(english).flatMap(([namespace, messages]) =>
  Object.keys(messages).map((key) => `${namespace}.${key}`),
);

async function settled(page: Page) {
  await page.waitForLoadState('networkidle');
  await page
    .locator('[aria-busy="true"]')
    .first()
    .waitFor({ state: 'detached', timeout: 10_000 })
    .catch(() => undefined);
}

const enterCookie = (context: BrowserContext, id: number) =>
  context.addCookies([{ name: 'company_id', value: String(id), url: baseURL() }]);

describe('the company site and the desktop layout', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('on the main site, /product finds a company; entering it keeps its id for 3 years and shows its brand', async () => {
    const { context, page } = await phone(browser, 'en');
    // Records what the page writes to document.cookie (the attributes the browser does not report back).
    await context.addInitScript(() => {
      const property = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
      Object.defineProperty(document, 'cookie', {
        get: () => property.get!.call(document) as string,
        set: (value: string) => {
          sessionStorage.setItem('written-cookies', `${sessionStorage.getItem('written-cookies') ?? ''}${value}\n`);
          property.set!.call(document, value);
        },
      });
    });
    await open(page, '/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Pipwise');

    await page.getByRole('link', { name: 'Search markets and companies' }).click();
    await page.waitForURL(/#\/product$/);
    await page.getByRole('searchbox').fill('NORD');
    const results = page.getByRole('list', { name: 'Companies' });
    const nordwind = results.getByRole('button', { name: 'Enter Nordwind Capital' });
    await nordwind.waitFor();
    await expect.poll(() => results.getByRole('listitem').count()).toBe(1);
    expect(await nordwind.innerText()).toContain('Frankfurt');
    expect(await nordwind.locator('img').evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, 'company-search-en');

    const before = Date.now() / 1000;
    await Promise.all([page.waitForEvent('load'), nordwind.click()]);
    // The app asks for 3 years; Chromium keeps no cookie longer than 400 days and cuts the rest.
    expect(await page.evaluate(() => sessionStorage.getItem('written-cookies'))).toContain(`max-age=${THREE_YEARS_SECONDS}`);
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'company_id');
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });
    expect(cookie!.expires).toBeGreaterThan(before + CHROMIUM_COOKIE_CAP_SECONDS - DAY_SECONDS);
    const company = await api<Company>('/api/company/getCompany');
    expect(cookie!.value).not.toBe(String(company.id));

    expect(new URL(page.url()).hash).toMatch(/^(#\/?)?$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Nordwind Capital');
    await expect.poll(() => page.title()).toBe('Nordwind Capital');
    const manifest = await page.evaluate(async () => (await fetch('/manifest.json')).json() as Promise<{ name: string }>);
    expect(manifest.name).toBe('Nordwind Capital');
    await screenshot(page, 'company-entered-en');

    // A company's own site searches its pairs.
    await page.getByRole('link', { name: 'Search markets' }).click();
    await page.getByRole('searchbox').fill('EUR');
    await expect.poll(() => page.getByRole('list', { name: 'Search results' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('sends the browser of a closed company to its loss_url', async () => {
    const lossUrl = 'https://closed-company.example/goodbye';
    const lantern = await asOperator<Company>('/admin/api/companies', { name: 'Lantern Bay Markets', location: 'Lisbon' });
    const { context, page } = await phone(browser, 'en');
    await context.route('https://closed-company.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Goodbye</title><p>This company has closed.</p>' }),
    );
    await enterCookie(context, lantern.id);
    await open(page, '/');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe('Lantern Bay Markets');

    await asOperator('/admin/api/companies', { id: lantern.id, status: 0, loss_url: lossUrl });
    await page.reload();
    await page.waitForURL(lossUrl);
    expect(await page.title()).toBe('Goodbye');
    await context.close();
  });

  it.each(['en', 'hk', 'ar'])(
    '%s at 1440×900 on a desktop: a centred phone-width column with the tab bar inside, nothing wider; the trade screen the desktop trader',
    async (language) => {
      const context = await browser.newContext({
        viewport: { width: 1440, height: 900 },
        userAgent: DESKTOP_AGENT,
        locale: language === 'ar' ? 'ar' : 'en-US',
      });
      await context.addInitScript((lang) => localStorage.setItem('pipwise.lang', lang), language);
      const page = await context.newPage();

      for (const screen of ['/', '/product', '/news']) {
        await open(page, screen);
        await settled(page);
        const where = `${language} ${screen}`;
        expect(await page.evaluate(() => document.documentElement.classList.contains('desktop')), where).toBe(true);
        expect(await page.evaluate(() => document.documentElement.dir), where).toBe(language === 'ar' ? 'rtl' : 'ltr');
        const text = await page.locator('body').innerText();
        expect(
          KEYS.filter((key) => text.includes(key)),
          where,
        ).toEqual([]);

        const column = (await page.locator('.app').boundingBox())!;
        expect(column.width, where).toBe(COLUMN_WIDTH);
        expect(column.x, where).toBe((1440 - COLUMN_WIDTH) / 2);
        expect(column.height, where).toBe(900);

        if (screen !== '/product') {
          const tabBar = await page.locator('.tab-bar').boundingBox();
          expect(tabBar, where).not.toBeNull();
          expect(tabBar!.x, where).toBe(column.x);
          expect(tabBar!.width, where).toBe(column.width);
          expect(tabBar!.y + tabBar!.height, where).toBe(900);
        }

        const wider = await page.evaluate((limit) => {
          const found: string[] = [];
          for (const element of Array.from(document.querySelectorAll<HTMLElement>('.app *'))) {
            const box = element.getBoundingClientRect();
            if (box.width > limit + 0.5) found.push(`${element.tagName}.${element.className} ${box.width}`);
          }
          return found;
        }, COLUMN_WIDTH);
        expect(wider, where).toEqual([]);
        expect(await hasHorizontalScroll(page), where).toBe(false);
        await screenshot(page, `desktop-${language}${screen === '/' ? '-home' : screen.replace('/', '-')}`);
      }

      // The trade screen is the desktop trader: the whole window, the pairs, the chart and the ticket side
      // by side (mirrored in Arabic), nothing past the window's edge.
      await open(page, '/trade');
      await page.locator('.terminal-side .buy-button').waitFor({ state: 'visible' });
      expect((await page.locator('.app').boundingBox())!.width).toBe(1440);
      const boxes = await Promise.all(
        ['.terminal-watchlist', '.terminal-chart', '.terminal-side'].map(
          async (selector) => (await page.locator(selector).boundingBox())!,
        ),
      );
      const lefts = boxes.map((box) => box.x);
      expect(lefts).toEqual([...lefts].sort((a, b) => (language === 'ar' ? b - a : a - b)));
      for (const box of boxes) {
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(1440);
        expect(box.height).toBeGreaterThan(400);
      }
      expect(await hasHorizontalScroll(page)).toBe(false);
      await screenshot(page, `desktop-${language}-trade`);
      await context.close();
    },
  );
});
