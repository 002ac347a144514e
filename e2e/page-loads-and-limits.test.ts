import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser, open, phone } from './support.js';

describe('loading the page is never rate-limited, and a refusal is a page in the visitor’s language', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('loads the page and its files 700 times each from one address, then still opens the app', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/');
    await page.getByRole('list', { name: 'Markets' }).waitFor();
    // The app's own files, as a browser without a cache (or 700 visitors behind one address) asks for them.
    const statuses = await page.evaluate(async () => {
      const files = [
        '/',
        ...Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'), (script) => script.src),
        ...Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet]'), (link) => link.href),
      ];
      const seen: Record<string, number> = {};
      for (const file of files) {
        for (let sent = 0; sent < 700; sent += 50) {
          const batch = await Promise.all(
            Array.from({ length: 50 }, () => fetch(file, { cache: 'no-store' }).then((response) => response.status)),
          );
          for (const status of batch) seen[status] = (seen[status] ?? 0) + 1;
        }
      }
      return { files: files.length, seen };
    });
    expect(statuses.files).toBeGreaterThanOrEqual(2);
    expect(statuses.seen).toEqual({ 200: statuses.files * 700 });

    await page.reload();
    await page.getByRole('list', { name: 'Markets' }).waitFor();
    await context.close();
  });

  it('opened on the trade tab, asks for its data and code while its messages load, and for the list once', async () => {
    const { context, page } = await phone(browser, 'en');
    const sent: string[] = [];
    page.on('request', (request) => sent.push(new URL(request.url()).pathname));
    const early = [
      /\/api\/company\/getCompany$/,
      /\/api\/company\/getCompanyStatus$/,
      /\/trade_list$/,
      /\/assets\/TradePage-[\w-]+\.js$/,
    ];
    const unsent = () => early.filter((pattern) => !sent.some((file) => pattern.test(file))).map(String);
    // The first render waits for the messages: held back until the screen's calls and chunk have gone out
    // (or 10 s), they show that none of those waited for the first render (app/firstScreen.ts).
    let unsentWhileHeld: string[] = [];
    await page.route(/\/assets\/en-[\w-]+\.js$/, async (route) => {
      await expect
        .poll(() => unsent().length, { timeout: 10_000 })
        .toBe(0)
        .catch(() => undefined);
      unsentWhileHeld = unsent();
      await route.continue();
    });
    await open(page, '/trade');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(sent.some((file) => /\/assets\/en-[\w-]+\.js$/.test(file))).toBe(true);
    expect(unsentWhileHeld).toEqual([]);
    expect(sent.filter((file) => file.endsWith('/trade_list'))).toHaveLength(1);
    await context.close();
  });

  it('offline on the way to a screen it has not opened, the app says so with a retry instead of going blank', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/');
    await page.getByRole('list', { name: 'Markets' }).waitFor();
    // The language screen's code is not downloaded yet: it cannot arrive while the phone is offline.
    await context.setOffline(true);
    await page.evaluate(() => (window.location.hash = '#/language'));
    // Beside the banner that says the phone is offline.
    const failed = page.getByRole('alert').filter({ hasText: 'Could not load. Please try again.' });
    await failed.waitFor();
    await context.setOffline(false);
    await failed.getByRole('button', { name: 'Retry' }).click();
    await page.getByText('Français', { exact: true }).waitFor();
    expect(page.url()).toMatch(/#\/language$/);
    await context.close();
  });

  it('shows an API refusal opened in the address bar as a page in the browser’s language, not JSON', async () => {
    const context = await browser.newContext({ locale: 'fr-FR' });
    const page = await context.newPage();
    const response = await page.goto(`${baseURL()}/api/no-such-address`);
    expect(response?.status()).toBe(404);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr');
    expect(await page.locator('body').innerText()).toBe("L'adresse demandée n'existe pas");
    await context.close();
  });
});
