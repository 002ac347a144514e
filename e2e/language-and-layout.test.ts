import { randomUUID } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseURL, launchBrowser, myOrders, open, openMarket, phone, screenshot, type PairView } from './support.js';

interface Session {
  token: string;
  user: unknown;
}

/** The category names the server gives a reader of `language`. */
async function categoryNames(language: string) {
  const response = await fetch(`${baseURL()}/v1/api/forex/getCategories`, { headers: { lang: language } });
  const envelope = (await response.json()) as { data: { NameShowTrans: string }[] };
  return envelope.data.map((category) => category.NameShowTrans);
}

/** A phone page in `language`, signed in as `session`, that records every text the chart draws on its canvas. */
async function signedInPhone(browser: Browser, language: string, session: Session) {
  const { context, page } = await phone(browser, language);
  await context.addInitScript(
    (saved) => localStorage.setItem('pipwise.session', saved),
    JSON.stringify({ state: session, version: 0 }),
  );
  await context.addInitScript(() => {
    const drawn: string[] = [];
    (window as unknown as { drawnTexts: string[] }).drawnTexts = drawn;
    const prototype = CanvasRenderingContext2D.prototype;
    type FillText = typeof prototype.fillText;
    prototype.fillText = new Proxy<FillText>(Reflect.get(prototype, 'fillText'), {
      apply(target, self: CanvasRenderingContext2D, args: Parameters<FillText>) {
        drawn.push(args[0]);
        Reflect.apply(target, self, args);
      },
    });
  });
  return { context, page };
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Where the text of the matched elements is drawn (not their boxes, which may be as wide as a column). */
const textBox = (locator: Locator): Promise<Box> =>
  locator.evaluateAll((elements) => {
    const rects = elements.map((element) => {
      const range = document.createRange();
      range.selectNodeContents(element);
      return range.getBoundingClientRect();
    });
    return {
      left: Math.min(...rects.map((rect) => rect.left)),
      right: Math.max(...rects.map((rect) => rect.right)),
      top: Math.min(...rects.map((rect) => rect.top)),
      bottom: Math.max(...rects.map((rect) => rect.bottom)),
    };
  });

/**
 * In a right-to-left page each value starts where its label starts (their right edges meet), sits below it,
 * and is nearer to its own label than to any other label of that line.
 */
async function expectValuesUnderLabels(pairs: { label: Locator; value: Locator }[], where: string) {
  const boxes = await Promise.all(
    pairs.map(async ({ label, value }) => ({ label: await textBox(label), value: await textBox(value) })),
  );
  boxes.forEach(({ label, value }, index) => {
    const what = `${where} #${index + 1}`;
    expect(Math.abs(label.right - value.right), what).toBeLessThanOrEqual(2);
    expect(value.top, what).toBeGreaterThanOrEqual(label.bottom - 1);
    // Of the labels on the line just above the value, its own is the one whose start it shares.
    const distances = boxes.map((other) =>
      value.top - other.label.bottom > -1 && value.top - other.label.bottom < 24
        ? Math.abs(other.label.right - value.right)
        : Number.POSITIVE_INFINITY,
    );
    expect(distances.indexOf(Math.min(...distances)), what).toBe(index);
  });
}

/** The separator between the whole and the fractional part of a formatted number ("1,08123" → ","). */
const decimalSeparator = (text: string) => /(\D)\d+$/.exec(text.trim())?.[1];

/** Every control a finger can hit on the visible screen, with its size. */
const tapTargets = (page: Page) =>
  page.evaluate(() =>
    Array.from(
      document.querySelectorAll<HTMLElement>(
        'a[href], button, [role="button"], [role="link"], [role="tab"], [role="switch"], .adm-selector-item, .adm-tabs-tab',
      ),
    )
      .filter((element) => {
        const rect = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        return rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden' && !element.closest('[aria-hidden="true"]');
      })
      .map((element) => {
        const rect = element.getBoundingClientRect();
        const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 30);
        return {
          name: `${element.tagName.toLowerCase()}.${element.className} "${name}"`,
          width: rect.width,
          height: rect.height,
        };
      }),
  );

describe('language and layout on a phone', () => {
  let browser: Browser;
  let session: Session;
  let pair: PairView;

  beforeAll(async () => {
    browser = await launchBrowser();
    session = await api<Session>('/api/user/createAccountDemoForU');
    pair = await openMarket();
    const response = await fetch(`${baseURL()}/v1/api/forex/submit`, {
      method: 'POST',
      headers: { lang: 'en', authorization: session.token, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ type: 1, cont: String(pair.ForexMinCont), forex_id: pair.Id, status: 1, multiple: 10 }),
    });
    expect(((await response.json()) as { code: number }).code).toBe(1);
    expect((await myOrders(session.token, 1)).total).toBe(1);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a language picked on a directly opened #/language lands on home; the chips follow a change without a reload', async () => {
    const { context, page } = await phone(browser, 'en');
    const chips = page.locator('.chips button');

    // Opened as the first page of the tab: there is nothing of the app's to go back to.
    await open(page, '/language');
    await page.getByText('Deutsch', { exact: true }).click();
    await page.waitForURL((url) => url.href.startsWith(baseURL()) && url.hash === '#/');
    await expect.poll(() => chips.allInnerTexts()).toEqual(await categoryNames('de'));

    // The chips were fetched in German; picking English from the side list must re-ask the server.
    await page.locator('.header-actions button').click();
    await page.getByText('English', { exact: true }).click();
    await expect.poll(() => chips.allInnerTexts()).toEqual(await categoryNames('en'));
    expect(await categoryNames('de')).not.toEqual(await categoryNames('en'));
    await context.close();
  });

  it('a language picked after coming from the user screen goes back there; logging out lands on home', async () => {
    // Its own account: logging out ends the session on the server.
    const leaving = await api<Session>('/api/user/createAccountDemoForU');
    const { context, page } = await signedInPhone(browser, 'en', leaving);
    await open(page, '/user');
    await page.getByText('Language', { exact: true }).click();
    await page.waitForURL(/#\/language$/);
    // The language already showing: still a choice, which goes back like any other.
    await page.getByText('English', { exact: true }).click();
    await page.waitForURL(/#\/user$/);

    await page.getByText('Log out', { exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/#\/$/);
    await page.locator('.chips button').first().waitFor();
    expect(new URL(page.url()).hash).toBe('#/');
    await context.close();
  });

  it('Arabic: values sit under their own labels, and the order date reads right to left', async () => {
    const { context, page } = await signedInPhone(browser, 'ar', session);
    // A signed change keeps its sign on the left of its figure ("+1.25%"), as Arabic writes it too.
    await open(page, '/');
    const change = page.locator('.pair-row .change', { hasText: /[+\-−]/ }).first();
    await change.waitFor();
    const sign = await change.evaluate((element) => {
      const text = element.firstChild!;
      const range = document.createRange();
      const at = (offset: number) => {
        range.setStart(text, offset);
        range.setEnd(text, offset + 1);
        return range.getBoundingClientRect().left;
      };
      const content = text.textContent!;
      const signAt = content.search(/[+\-−]/);
      const digitAt = content.search(/\d/);
      return { sign: at(signAt), digit: at(digitAt) };
    });
    expect(sign.sign).toBeLessThan(sign.digit);

    await open(page, '/trade');
    const estimate = page.locator('dl.estimate > div');
    await expect.poll(() => estimate.count()).toBe(3);
    await expect.poll(() => page.getByTestId('trade-balance').innerText()).not.toBe('--');
    await expectValuesUnderLabels(
      Array.from({ length: 3 }, (_, index) => ({
        label: estimate.nth(index).locator('dt'),
        value: estimate.nth(index).locator('dd'),
      })),
      'estimate',
    );

    await open(page, '/order');
    const strip = page.locator('.account-strip > div:not(.account-strip-actions)');
    await expect.poll(() => page.getByTestId('order-balance').innerText()).not.toBe('--');
    await expectValuesUnderLabels(
      Array.from({ length: 3 }, (_, index) => ({
        label: strip.nth(index).locator('.label'),
        value: strip.nth(index).locator('.num'),
      })),
      'order summary',
    );

    await page.locator('.order-row').first().click();
    const detail = page.locator('dl.detail-grid > div');
    await detail.first().waitFor();
    // The sheet slides up: measure once it stands still.
    const sheetTop = () => page.locator('.detail-popup').evaluate((element) => element.getBoundingClientRect().top);
    await expect
      .poll(async () => {
        const before = await sheetTop();
        await new Promise((resolve) => setTimeout(resolve, 100));
        return (await sheetTop()) === before;
      })
      .toBe(true);
    const rows = await detail.count();
    await expectValuesUnderLabels(
      Array.from({ length: rows }, (_, index) => ({
        label: detail.nth(index).locator('dt'),
        value: detail.nth(index).locator('dd'),
      })),
      'order detail',
    );

    const [order] = (await myOrders(session.token, 1)).data as unknown as { OpenedAt: string }[];
    // A position's detail dates it by its opening ("opened at").
    const date = page.locator('dl.detail-grid > div', { hasText: 'وقت الفتح' }).locator('dd');
    const expected = await page.evaluate(
      (opened) => new Intl.DateTimeFormat('ar', { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(opened)),
      order!.OpenedAt,
    );
    expect(await date.innerText()).toBe(expected);
    // Read right to left: the day (first in the text) is drawn to the right of the time (last in the text).
    const ends = await date.evaluate((element) => {
      const text = element.firstChild!;
      const length = text.textContent!.length;
      const at = (start: number, end: number) => {
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, end);
        return range.getBoundingClientRect();
      };
      return { first: at(0, 1).left, last: at(length - 1, length).left };
    });
    expect(ends.first).toBeGreaterThan(ends.last);
    await screenshot(page, 'layout-ar-order-detail');
    await context.close();
  });

  it('Chinese (hk): each leverage tile reads on one line', async () => {
    const { context, page } = await phone(browser, 'hk');
    await open(page, '/trade');
    const tiles = page.locator('.adm-selector-item');
    await tiles.first().waitFor();
    const lines = await tiles.evaluateAll((elements) =>
      elements.map((element) => {
        // The words only: the tick mark of the chosen tile is drawn in a box of its own.
        const range = document.createRange();
        range.selectNodeContents(element.firstChild!);
        return {
          text: element.textContent,
          lines: new Set(Array.from(range.getClientRects()).map((rect) => Math.round(rect.top))).size,
        };
      }),
    );
    expect(lines.length).toBeGreaterThan(0);
    for (const tile of lines) expect(tile, tile.text ?? '').toEqual({ text: tile.text, lines: 1 });
    await context.close();
  });

  it('Burmese (my): no tab label is cut', async () => {
    const { context, page } = await signedInPhone(browser, 'my', session);
    const clipped = () =>
      page.evaluate(() =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            '.tab-bar a, .tab-bar a *, .adm-tab-bar-item-title, .adm-tabs-tab, .form-tab, .period',
          ),
        )
          .filter((element) => element.getBoundingClientRect().width > 0)
          .filter((element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight + 1)
          .map((element) => element.textContent),
      );
    await open(page, '/order');
    await page.locator('.adm-tabs-tab').first().waitFor();
    expect(await clipped()).toEqual([]);
    await open(page, '/trade');
    await page.locator('.form-tab').first().waitFor();
    expect(await clipped()).toEqual([]);
    await screenshot(page, 'layout-my-trade');
    await context.close();
  });

  it.each([
    ['ru', ','],
    ['de', ','],
  ])(
    '%s: the header price, the chart axis and the lot field use one decimal separator (%s), and a price typed with it is read as such',
    async (language, separator) => {
      const { context, page } = await signedInPhone(browser, language, session);
      await open(page, '/trade');
      const price = page.locator('.trade-price');
      await expect.poll(async () => decimalSeparator(await price.innerText())).toBe(separator);
      await page.locator('.candle-chart[data-candles]:not([data-candles="0"])').waitFor();
      const axis = async () =>
        (await page.evaluate(() => (window as unknown as { drawnTexts: string[] }).drawnTexts)).filter(
          (text) => /^[−-]?\d[\d\s.,\u00a0\u202f]*\d$/.test(text.trim()) && /[.,]/.test(text),
        );
      await expect.poll(async () => (await axis()).length).toBeGreaterThan(0);
      expect(new Set((await axis()).map(decimalSeparator))).toEqual(new Set([separator]));
      const lots = page.locator('.order-form input[inputmode="decimal"]').first();
      expect(decimalSeparator(await lots.inputValue())).toBe(separator);

      // A price typed with the language's separator reaches the server as that price (a number field would
      // read "1,5" by the browser's locale, here English, as 15).
      const plain = (pair.ForexQuotations.Bid * 1.5).toFixed(pair.PricePrecision);
      const typed = plain.replace('.', separator);
      await open(page, '/order');
      await page.locator('.order-row').first().click();
      const takeProfit = page.locator('.stops-form input').first();
      await takeProfit.fill(typed);
      expect(await takeProfit.inputValue()).toBe(typed);
      await page.locator('.stops-form button[type="submit"]').click();
      await expect.poll(async () => (await myOrders(session.token, 1)).data[0]?.TargetProfitPrice).toBe(Number(plain));
      await context.close();
    },
  );

  it.each(['en', 'ar', 'my', 'de'])(
    '%s: Buy and Sell, with their prices, are on screen above the tab bar on load at the largest font setting',
    async (language) => {
      const { context, page } = await signedInPhone(browser, language, session);
      // Chromium's "Very large" font setting (24 px); the page's sizes follow it where they are relative.
      const devtools = await context.newCDPSession(page);
      await devtools.send('Page.enable');
      await devtools.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 20 } });
      await open(page, '/trade');
      for (const button of ['.buy-button', '.sell-button']) {
        await expect.poll(() => page.locator(`${button} .price`).innerText()).toMatch(/\d/);
        const uncovered = await page.locator(button).evaluate((element) => {
          const box = element.getBoundingClientRect();
          const tabBar = document.querySelector('.tab-bar')?.getBoundingClientRect().top ?? window.innerHeight;
          const corners = [
            [box.left + 2, box.top + 2],
            [box.right - 2, box.bottom - 2],
          ];
          return box.bottom <= tabBar && corners.every(([x, y]) => element.contains(document.elementFromPoint(x!, y!)));
        });
        expect(uncovered, button).toBe(true);
      }
      await context.close();
    },
  );

  it('every control on home, trade, orders and sign-in is at least 44×44 px', async () => {
    const { context, page } = await signedInPhone(browser, 'en', session);
    for (const [route, ready] of [
      ['/', '.pair-row'],
      ['/trade', '.form-tab'],
      ['/order', '.order-row'],
    ] as const) {
      await open(page, route);
      await page.locator(ready).first().waitFor();
      const small = (await tapTargets(page)).filter((target) => target.width < 44 || target.height < 44);
      expect(small, route).toEqual([]);
    }

    // The ticket's other state: a pending order with take profit and stop loss switched on.
    await open(page, '/trade');
    await page.locator('.order-form').getByRole('tab', { name: 'Pending' }).click();
    for (const toggle of await page.getByRole('switch').all()) await toggle.click();
    await expect.poll(() => page.locator('.order-form input').count()).toBeGreaterThanOrEqual(4);
    expect((await tapTargets(page)).filter((target) => target.width < 44 || target.height < 44)).toEqual([]);

    const visitor = await phone(browser, 'en');
    await open(visitor.page, '/login');
    await visitor.page.locator('.auth-links a').first().waitFor();
    expect((await tapTargets(visitor.page)).filter((target) => target.width < 44 || target.height < 44)).toEqual([]);
    await visitor.context.close();
    await context.close();
  });

  it('sparklines line up between the home rows', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/');
    await page.locator('.pair-row').nth(3).waitFor();
    const lefts = await page
      .locator('.pair-row .sparkline')
      .evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().left)));
    expect(lefts.length).toBeGreaterThan(3);
    expect(new Set(lefts).size).toBe(1);
    await context.close();
  });
});
