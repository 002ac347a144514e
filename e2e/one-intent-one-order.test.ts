import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, myOrders, open, openMarket, phone, storedToken, type PairView } from './support.js';

const SUBMIT = '**/v1/api/forex/submit';
const HOLDING = 1;
const HISTORY = 3;
/** Long enough for a held or repeated request to have reached the server, were the app to send one. */
const SETTLE_MS = 2_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The centre of an element, for raw taps and clicks that, like a person's, do not wait for the app. */
async function centreOf(locator: Locator) {
  // Clear of the fixed tab bar, which would take a raw tap at the bottom of the screen.
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  // Popups slide in: aim once the element has stopped moving.
  let box = await locator.boundingBox();
  for (;;) {
    await pause(100);
    const now = await locator.boundingBox();
    if (!box || !now) throw new Error('element is not visible');
    if (now.x === box.x && now.y === box.y) break;
    box = now;
  }
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * Two raw taps, as a thumb makes them. They wait for the control to be enabled first: the app disables
 * order buttons whenever a ping goes unanswered, which a loaded machine can cause for a moment.
 */
async function doubleTap(page: Page, locator: Locator) {
  await expect.poll(() => locator.isEnabled(), { timeout: 20_000 }).toBe(true);
  const { x, y } = await centreOf(locator);
  await page.touchscreen.tap(x, y);
  await page.touchscreen.tap(x, y);
}

/** A demo trader on the trade screen of an open market; `prepare` runs before the app is opened. */
async function traderOnTradeScreen(browser: Browser, pair: PairView, prepare?: (page: Page) => Promise<unknown>) {
  const { context, page } = await phone(browser, 'en');
  await prepare?.(page);
  await open(page, '/login');
  await page.getByRole('button', { name: 'Try a demo account' }).click();
  await page.waitForURL(/#\/$/);
  const token = await storedToken(page);
  await page.getByRole('link', { name: 'Trade' }).click();
  await page.getByRole('button', { name: 'Choose a market' }).click();
  await page.getByRole('button', { name: new RegExp(`^${pair.ShowCode}\\b`) }).click();
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(pair.ShowCode);
  // The drawer's mask fades out; a raw tap before it has gone would land on it.
  await expect.poll(() => page.locator('.adm-mask:visible').count()).toBe(0);
  return { context, page, token };
}

async function closeResultPopup(page: Page) {
  await page.getByRole('dialog', { name: 'Order placed' }).getByRole('button', { name: 'Keep trading' }).click();
  await page.getByRole('dialog', { name: 'Order placed' }).waitFor({ state: 'hidden' });
  // The receipt hides at once; the popup's mask fades after it and would take the next tap.
  await expect.poll(() => page.locator('.adm-mask:visible').count()).toBe(0);
}

describe('one intent, one order (issue 10 items 1 and 2)', () => {
  let browser: Browser;
  let pair: PairView;

  beforeAll(async () => {
    browser = await launchBrowser();
    pair = await openMarket();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a double tap or double click on Buy opens one position, a double tap on Close closes it once', async () => {
    const { context, page, token } = await traderOnTradeScreen(browser, pair);
    const buy = page.getByRole('button', { name: 'Buy' });

    await doubleTap(page, buy);
    await page.getByRole('dialog', { name: 'Order placed' }).waitFor();
    await pause(SETTLE_MS);
    expect((await myOrders(token, HOLDING)).total).toBe(1);
    await closeResultPopup(page);

    await expect.poll(() => buy.isEnabled(), { timeout: 20_000 }).toBe(true);
    const { x, y } = await centreOf(buy);
    await page.mouse.dblclick(x, y);
    await page.getByRole('dialog', { name: 'Order placed' }).waitFor();
    await pause(SETTLE_MS);
    expect((await myOrders(token, HOLDING)).total).toBe(2);
    await page.getByRole('dialog', { name: 'Order placed' }).getByRole('button', { name: 'View positions' }).click();
    await page.waitForURL(/#\/order\?type=1$/);

    const closeKeys: (string | undefined)[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/api/forex/close')) closeKeys.push(request.headers()['idempotency-key']);
    });
    await page
      .getByRole('list', { name: 'Orders' })
      .getByRole('button', { name: new RegExp(pair.ShowCode) })
      .first()
      .click();
    await doubleTap(page, page.getByRole('button', { name: 'Close position' }));
    const confirm = page.getByRole('button', { name: 'Confirm' });
    await confirm.first().waitFor();
    await pause(500);
    // One intent, one question: the second tap must not stack a second confirmation.
    expect(await confirm.count()).toBe(1);
    await doubleTap(page, confirm);
    await expect.poll(async () => (await myOrders(token, HISTORY)).total).toBe(1);
    await pause(SETTLE_MS);
    expect((await myOrders(token, HOLDING)).total).toBe(1);
    expect((await myOrders(token, HISTORY)).total).toBe(1);
    expect(closeKeys.length).toBeGreaterThan(0);
    expect(new Set(closeKeys).size).toBe(1);
    expect(closeKeys[0]).toMatch(/^[\w.:-]{16,128}$/);
    expect(await page.getByText('This position is already closed').count()).toBe(0);
    await context.close();
  });

  it("an order placed before the receipt's code has arrived holds the screen: the second tap places nothing", async () => {
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const { context, page, token } = await traderOnTradeScreen(browser, pair, (page) =>
      page.route('**/assets/OrderReceipt-*.js', async (route) => {
        await released;
        await route.continue();
      }),
    );
    const buy = page.getByRole('button', { name: 'Buy' });
    await doubleTap(page, buy);
    await expect.poll(async () => (await myOrders(token, HOLDING)).total).toBe(1);
    await pause(SETTLE_MS);
    expect((await myOrders(token, HOLDING)).total).toBe(1);
    expect(await page.getByRole('dialog', { name: 'Order placed' }).count()).toBe(0);
    const { x, y } = await centreOf(buy);
    await page.touchscreen.tap(x, y);
    await pause(SETTLE_MS);
    expect((await myOrders(token, HOLDING)).total).toBe(1);

    release();
    await page.getByRole('dialog', { name: 'Order placed' }).waitFor();
    await closeResultPopup(page);
    expect((await myOrders(token, HOLDING)).total).toBe(1);
    await context.close();
  });

  it('a submit whose answer was lost is sent again with the same Idempotency-Key: still one order', async () => {
    const { context, page, token } = await traderOnTradeScreen(browser, pair);
    const keys: (string | undefined)[] = [];
    let dropped = false;
    await page.route(SUBMIT, async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (dropped) return route.continue();
      // The server places the order, then the answer is lost on the way back.
      dropped = true;
      await route.fetch();
      return route.abort('connectionreset');
    });

    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('dialog', { name: 'Order placed' }).waitFor();
    await pause(SETTLE_MS);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys[0]).toMatch(/^[\w.:-]{16,128}$/);
    expect(new Set(keys).size).toBe(1);
    expect((await myOrders(token, HOLDING)).total).toBe(1);

    // A new intent (the next order) gets a new key.
    await closeResultPopup(page);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('dialog', { name: 'Order placed' }).waitFor();
    expect(new Set(keys).size).toBe(2);
    expect((await myOrders(token, HOLDING)).total).toBe(2);
    await context.close();
  });

  it('offline, the app says so, marks prices stale, refuses a Sell and sends nothing when back online', async () => {
    const { context, page, token } = await traderOnTradeScreen(browser, pair);
    const sell = page.getByRole('button', { name: 'Sell' });
    const banner = page.getByRole('alert').filter({ hasText: 'You are offline' });
    await expect.poll(() => sell.isEnabled()).toBe(true);

    await context.setOffline(true);
    await banner.waitFor();
    expect(await banner.innerText()).toContain('Prices are not live');
    const { x, y } = await centreOf(sell);
    await page.touchscreen.tap(x, y);
    await page.getByText('Orders are paused until live prices are back').waitFor();
    expect(await sell.isDisabled()).toBe(true);
    await pause(SETTLE_MS);

    await context.setOffline(false);
    await banner.waitFor({ state: 'hidden', timeout: 20_000 });
    await expect.poll(() => sell.isEnabled(), { timeout: 20_000 }).toBe(true);
    await pause(SETTLE_MS);
    expect((await myOrders(token, HOLDING)).total).toBe(0);
    await context.close();
  });

  it('offline, Close position is disabled and a tap on it asks nothing; back online, the position is still open', async () => {
    const { context, page, token } = await traderOnTradeScreen(browser, pair);
    const closes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/v1/api/forex/close')) closes.push(request.url());
    });
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('dialog', { name: 'Order placed' }).getByRole('button', { name: 'View positions' }).click();
    await page.waitForURL(/#\/order\?type=1$/);
    await page
      .getByRole('list', { name: 'Orders' })
      .getByRole('button', { name: new RegExp(pair.ShowCode) })
      .first()
      .click();
    const close = page.getByRole('dialog', { name: 'Order details' }).getByRole('button', { name: 'Close position' });
    await expect.poll(() => close.isEnabled()).toBe(true);

    await context.setOffline(true);
    await page.getByRole('alert').filter({ hasText: 'You are offline' }).waitFor();
    await page.getByText('Closing positions is paused until live prices are back').waitFor();
    expect(await close.isDisabled()).toBe(true);
    const { x, y } = await centreOf(close);
    await page.touchscreen.tap(x, y);
    await pause(500);
    expect(await page.getByRole('button', { name: 'Confirm' }).count()).toBe(0);

    await context.setOffline(false);
    await expect.poll(() => close.isEnabled(), { timeout: 20_000 }).toBe(true);
    await pause(SETTLE_MS);
    expect(closes).toEqual([]);
    expect((await myOrders(token, HOLDING)).total).toBe(1);
    expect((await myOrders(token, HISTORY)).total).toBe(0);
    await context.close();
  });
});
