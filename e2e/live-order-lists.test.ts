import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  balanceOf,
  cents,
  launchBrowser,
  myOrders,
  open,
  phone,
  screenshot,
  storedToken,
  type PairView,
} from './support.js';

const SUBMIT = '/v1/api/forex/submit';
const CANCEL = '/v1/api/forex/cancel_trade';
const SET_STOPS = '/v1/api/forex/set_stop_price';
const MY_DEAL = '/v1/api/forex/my_deal';

/** Bitcoin trades around the clock and moves several dollars on every step of the simulated feed. */
async function bitcoin(): Promise<PairView> {
  const pairs = await api<PairView[]>('/v1/api/forex/trade_list');
  const pair = pairs.find((candidate) => candidate.Code === 'BTCUSD');
  if (!pair || pair.MarketStatus !== 1) throw new Error('BTCUSD is not trading');
  return pair;
}

interface ListedOrder {
  Id: number;
  Status: number;
  UpdatePrice: number | null;
  FactProfits: number | null;
  TradeFee: number | null;
  CloseReason: string | null;
}

/**
 * Take profit and stop loss a step either side of the market: the next move closes the position.
 * (A level the price crossed between the quote and the call is refused: then again from a new quote.)
 */
async function setStopsAroundMarket(token: string, id: number) {
  for (let attempt = 1; ; attempt++) {
    const { Bid } = (await bitcoin()).ForexQuotations;
    const stops = { id, target_profit_price: (Bid + 8).toFixed(2), stop_loss_price: (Bid - 8).toFixed(2) };
    try {
      await api(SET_STOPS, token, { method: 'POST', body: stops });
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

const rowOf = (page: Page, id: number) => page.getByRole('list', { name: 'Orders' }).locator(`[data-order-id="${id}"]`);

/**
 * Shows the tabs' lists, Pending last, until Pending shows both placed orders (one either side of the
 * market) while they are still pending. Both, because had one side filled first, the market would have
 * to travel twice the distance back to fill the other, which can take minutes: then both are placed again.
 */
async function showBothSidesPending(
  page: Page,
  token: string,
  first: { Id: number }[],
  tabs: string[],
  placeAgain: () => Promise<{ Id: number }[]>,
): Promise<{ Id: number }[]> {
  let placed = first;
  for (let attempt = 1; ; attempt++) {
    for (const tab of tabs) {
      await page.getByRole('tab', { name: tab }).click();
      await page
        .getByText('No data')
        .or(page.getByRole('list', { name: 'Orders' }))
        .first()
        .waitFor();
    }
    let shown = 0;
    for (const order of placed) if (await rowOf(page, order.Id).isVisible()) shown++;
    if (shown === placed.length) return placed;
    if (attempt === 6) throw new Error('the market filled an order before the list showed it, six times over');
    await Promise.all(placed.map((order) => api(CANCEL, token, { method: 'POST', body: { id: order.Id } }).catch(() => null)));
    placed = await placeAgain();
    await page.reload();
  }
}

/**
 * Waits until one of the placed pending orders has filled (it is then a position) and cancels the others,
 * so nothing else moves while the rest of the test watches.
 */
async function firstFill(token: string, placed: { Id: number }[]): Promise<number> {
  let filledId = 0;
  const ids = placed.map((order) => order.Id);
  await expect
    .poll(async () => (filledId = (await myOrders(token, 1)).data.find((order) => ids.includes(order.Id))?.Id ?? 0), {
      timeout: 60_000,
      interval: 250,
    })
    .toBeGreaterThan(0);
  for (const order of placed.filter((candidate) => candidate.Id !== filledId)) {
    await api(CANCEL, token, { method: 'POST', body: { id: order.Id } }).catch(() => null);
  }
  return filledId;
}

/** Issue 10 items 6 and 7: orders move between the lists as the server moves them, without a reload. */
describe('order lists follow the server live', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a pending fill moves to Positions, a TP/SL close to History, a cancel shows as cancelled', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    const token = await storedToken(page);
    const pair = await bitcoin();
    const step = 20; // dollars: about three times one feed step's typical move
    const pending = (target: number) =>
      api<ListedOrder>(SUBMIT, token, {
        method: 'POST',
        body: { type: 1, cont: '0.01', forex_id: pair.Id, status: 0, target_price: target.toFixed(2), multiple: 10 },
      });
    const ask = async () => (await bitcoin()).ForexQuotations.Ask;

    // A buy stop above the market, placed in the browser…
    await page.getByRole('link', { name: 'Trade' }).click();
    await page.getByRole('button', { name: 'Choose a market' }).click();
    await page.getByRole('button', { name: new RegExp(`^${pair.ShowCode}\\b`) }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(pair.ShowCode);
    await page.locator('.order-form').getByRole('tab', { name: 'Pending' }).click();
    await page.getByRole('spinbutton', { name: 'Target price' }).fill(((await ask()) + step).toFixed(2));
    const submitted = page.waitForResponse((response) => response.url().includes(SUBMIT));
    await page.getByRole('button', { name: 'Buy' }).click();
    const browserOrder = ((await (await submitted).json()) as { data: ListedOrder }).data;
    // …and a buy limit below it: whichever way the price goes, one of them fills.
    const first = [browserOrder, await pending((await ask()) - step)];
    await page.getByRole('dialog', { name: 'Order placed' }).getByRole('button', { name: 'View pending orders' }).click();
    await page.waitForURL(/#\/order\?type=0$/);

    // Positions is loaded (and cached) first, so only the live event can bring a fill into it. Should the
    // market fill one before the list shows it, the same is done again with orders placed through the API.
    const placed = await showBothSidesPending(page, token, first, ['Positions', 'Pending'], async () => [
      await pending((await ask()) + step),
      await pending((await ask()) - step),
    ]);

    const filledId = await firstFill(token, placed);
    await rowOf(page, filledId).waitFor({ state: 'detached', timeout: 10_000 });
    await page.getByRole('tab', { name: 'Positions' }).click();
    await rowOf(page, filledId).waitFor({ timeout: 10_000 });
    await screenshot(page, 'live-lists-filled');

    await setStopsAroundMarket(token, filledId);
    await rowOf(page, filledId).waitFor({ state: 'detached', timeout: 60_000 });
    const closed = ((await myOrders(token, 3)).data as unknown as ListedOrder[]).find((order) => order.Id === filledId);
    expect(['take_profit', 'stop_loss']).toContain(closed?.CloseReason);
    await page.getByRole('tab', { name: 'History' }).click();
    await rowOf(page, filledId).getByTestId('order-profit').waitFor();

    // A pending order far from the market, cancelled from its detail.
    const far = await pending(Math.round(pair.ForexQuotations.Ask / 2));
    await page.reload(); // placed behind the app's back: it learns of it by loading
    await page.getByRole('tab', { name: 'Pending' }).click();
    await rowOf(page, far.Id).click();
    await page.getByRole('dialog', { name: 'Order details' }).getByRole('button', { name: 'Cancel order' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await rowOf(page, far.Id).waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'History' }).click();
    const cancelledRow = rowOf(page, far.Id);
    await cancelledRow.waitFor();
    expect(await cancelledRow.getByTestId('order-outcome').innerText()).toBe('Cancelled');
    expect(await cancelledRow.getByTestId('order-profit').count()).toBe(0);
    expect(await cancelledRow.innerText()).not.toContain('→');
    await cancelledRow.click();
    const detail = page.getByRole('dialog', { name: 'Order details' });
    await detail.waitFor();
    const labels = await detail.locator('dt').allInnerTexts();
    expect(labels).toContain('Status');
    for (const absent of ['Close price', 'Fee', 'Profit', 'Margin']) expect(labels).not.toContain(absent);
    await screenshot(page, 'live-lists-cancelled');

    const history = (await myOrders(token, 3)).data as unknown as ListedOrder[];
    expect(history.find((order) => order.Id === far.Id)).toMatchObject({
      Status: 3,
      CloseReason: 'cancelled',
      UpdatePrice: null,
      FactProfits: null,
      TradeFee: null,
    });
    await context.close();
  });

  it('while the trade screen is shown, a fill and a TP/SL close reach the Orders lists and the balance', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    const token = await storedToken(page);
    const pair = await bitcoin();
    const step = 20;
    const submit = (body: Record<string, unknown>) =>
      api<ListedOrder>(SUBMIT, token, {
        method: 'POST',
        body: { type: 1, cont: '0.01', forex_id: pair.Id, multiple: 10, ...body },
      });
    const ask = async () => (await bitcoin()).ForexQuotations.Ask;
    const pendingPair = async () => [
      await submit({ status: 0, target_price: ((await ask()) + step).toFixed(2) }),
      await submit({ status: 0, target_price: ((await ask()) - step).toFixed(2) }),
    ];

    // The lists as the app last fetched them, whatever screen is shown.
    const fetched = new Map<number, number[]>();
    page.on('response', async (response) => {
      const url = new URL(response.url());
      if (!url.pathname.endsWith(MY_DEAL) || url.searchParams.has('cursor')) return;
      const body = (await response.json().catch(() => null)) as { data?: { data: ListedOrder[] } } | null;
      const ids = body?.data?.data.map((order) => order.Id);
      if (ids) fetched.set(Number(url.searchParams.get('status')), ids);
    });

    const position = await submit({ status: 1 });
    await page.getByRole('link', { name: 'Orders' }).click();
    // Every list loaded (and cached) while the orders are still pending, as in the test above.
    const placed = await showBothSidesPending(page, token, await pendingPair(), ['Positions', 'History', 'Pending'], pendingPair);

    // The trader goes to the trade screen; meanwhile a pending order fills and the position reaches its
    // take profit or stop loss.
    await page.getByRole('link', { name: 'Trade' }).click();
    await page.getByTestId('trade-balance').waitFor();
    await setStopsAroundMarket(token, position.Id);
    const filledId = await firstFill(token, placed);
    await expect
      .poll(async () => (await myOrders(token, 3)).data.some((order) => order.Id === position.Id), {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(true);

    // The trade screen's balance follows, without a reload.
    const balance = await balanceOf(token);
    const shownBalance = async () => cents(Number((await page.getByTestId('trade-balance').innerText()).replace(/,/g, '')));
    await expect.poll(shownBalance).toBe(cents(balance));
    // The app fetched the lists the order moved into while Orders was not shown (rows that left a list are
    // dropped from its cached copy)…
    await expect.poll(() => fetched.get(1)?.includes(filledId)).toBe(true);
    await expect.poll(() => fetched.get(3)?.includes(position.Id)).toBe(true);
    // …so opening Orders shows them at once: no list answers from now on.
    const held: Route[] = [];
    await page.route(`**${MY_DEAL}**`, (route) => void held.push(route));
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('tab', { name: 'Pending', selected: true }).waitFor();
    await page
      .getByText('No data')
      .or(page.getByRole('list', { name: 'Orders' }))
      .first()
      .waitFor();
    expect(await rowOf(page, filledId).count()).toBe(0);
    await page.getByRole('tab', { name: 'Positions' }).click();
    await rowOf(page, filledId).waitFor();
    expect(await rowOf(page, position.Id).count()).toBe(0);
    await page.getByRole('tab', { name: 'History' }).click();
    await rowOf(page, position.Id).getByTestId('order-profit').waitFor();
    await screenshot(page, 'live-lists-while-away');
    await Promise.all(held.map((route) => route.abort()));
    await context.close();
  });
});
