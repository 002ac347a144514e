import { ApiPath, nextSessionOpen, type OrderView, type TradePairView } from '@pipwise/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, launchBrowser, open, phone, screenshot, storedToken } from './support.js';

/**
 * Issue 21 items 3 and 7 on a 390×844 phone: the receipt of a placed order shows what the server placed
 * (ticket = order id, fill price, lots, leverage, margin, fee); a pending order's receipt leads to the
 * Pending tab; the history detail of positions closed by the engine's take-profit and stop-loss shows
 * the ticket, both prices and times and the reason; prices in the instrument's decimals, money in 2; and
 * the main site's search finds the pair "EURUSD" and opens it.
 */

const BUY = 1;
const MARKET = 1;
const PENDING = 0;

/** As the app writes numbers in English: a fixed count of decimals, thousands separated. */
const english = (value: number, decimals: number, signed = false) =>
  new Intl.NumberFormat('en', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    ...(signed ? { signDisplay: 'exceptZero' as const } : {}),
  }).format(value);

/** A date-time as the app writes it in English, in the page's own time zone. */
const shownTime = (page: Page, iso: string) =>
  page.evaluate(
    (value) => new Intl.DateTimeFormat('en', { dateStyle: 'short', timeStyle: 'medium' }).format(new Date(value)),
    iso,
  );

const tradePair = async (code: string) =>
  (await api<TradePairView[]>(`${ApiPath.tradeList}?searchCurrency=${code}`)).find((pair) => pair.Code === code)!;

/** The label → value pairs of the receipt or the order detail on screen. */
const figures = (page: Page, dialog: string) =>
  page
    .getByRole('dialog', { name: dialog })
    .locator('dl > div')
    .evaluateAll((rows) =>
      Object.fromEntries(rows.map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent])),
    );

async function choosePair(page: Page, pair: TradePairView) {
  await page.getByRole('button', { name: 'Choose a market' }).click();
  await page.getByRole('button', { name: new RegExp(`^${pair.ShowCode}\\b`) }).click();
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(pair.ShowCode);
}

/** Taps Buy and answers the order the server placed for that tap. */
async function buy(page: Page): Promise<OrderView> {
  const placing = page.waitForResponse((response) => response.url().includes(ApiPath.submitOrder));
  await page.getByRole('button', { name: 'Buy' }).click();
  const answer = (await (await placing).json()) as { code: number; data: OrderView };
  expect(answer.code).toBe(1);
  return answer.data;
}

describe('receipts and finding a pair (issue 21 items 3 and 7)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let bitcoin: TradePairView;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await phone(browser, 'en'));
    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    token = await storedToken(page);
    bitcoin = await tradePair('BTCUSD');
    // Crypto trades around the clock: its orders fill whenever the suite runs.
    expect(bitcoin.MarketStatus).toBe(1);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows on the receipt what the server placed, and a pending order’s receipt leads to the Pending tab', async () => {
    await page.getByRole('link', { name: 'Trade' }).click();
    await choosePair(page, bitcoin);
    const precision = bitcoin.PricePrecision;

    await page.getByRole('tab', { name: 'Market' }).click();
    const order = await buy(page);
    const receipt = page.getByRole('dialog', { name: 'Order placed' });
    await receipt.waitFor();
    expect(await figures(page, 'Order placed')).toEqual({
      Ticket: `#${order.Id}`,
      'Fill price': english(order.Price, precision),
      Lots: english(order.Quantity, 2),
      Leverage: `${order.Multiple}×`,
      Margin: english(order.CautionMoney, 2),
      Fee: english(order.TradeFee!, 2),
    });
    // The server holds that order as a position at that price.
    const held = (await api<{ data: OrderView[] }>(`${ApiPath.myDeal}?status=1`, token)).data.find((row) => row.Id === order.Id);
    expect(held).toMatchObject({ Status: MARKET, Price: order.Price, OrderType: BUY, CautionMoney: order.CautionMoney });
    await screenshot(page, 'receipt-market');
    await receipt.getByRole('button', { name: 'View positions' }).click();
    await page.waitForURL(/#\/order\?type=1$/);

    // A level set to a whole price is edited as the instrument writes its prices (2 decimals for bitcoin).
    const takeProfit = Math.round(bitcoin.ForexQuotations.Bid * 2);
    await api(ApiPath.setStopPrice, token, { method: 'POST', body: { id: order.Id, target_profit_price: String(takeProfit) } });
    await page.reload();
    await page.locator(`[data-order-id="${order.Id}"]`).click();
    const detail = page.getByRole('dialog', { name: 'Order details' });
    await expect
      .poll(() => detail.getByRole('spinbutton', { name: 'Take profit' }).inputValue())
      .toBe(takeProfit.toFixed(precision));
    expect((await figures(page, 'Order details'))['Ticket']).toBe(`#${order.Id}`);
    await page.locator('.adm-mask').last().click();
    await detail.waitFor({ state: 'hidden' });
    await api(ApiPath.closeOrder, token, { method: 'POST', body: { id: order.Id } });

    await page.getByRole('link', { name: 'Trade' }).click();
    // The orders tab, kept alive and hidden, has a Pending tab too: this is the order form's.
    await page.locator('.order-form').getByRole('tab', { name: 'Pending' }).click();
    const target = (await tradePair('BTCUSD')).ForexQuotations.Bid * 0.9;
    await page.getByRole('spinbutton', { name: 'Target price' }).fill(target.toFixed(precision));
    const pending = await buy(page);
    expect(pending.Status).toBe(PENDING);
    await receipt.waitFor();
    expect(await figures(page, 'Order placed')).toMatchObject({
      Ticket: `#${pending.Id}`,
      'Target price': english(pending.Price, precision),
      Margin: english(pending.CautionMoney, 2),
      Fee: english(pending.TradeFee!, 2),
    });
    await screenshot(page, 'receipt-pending');
    await receipt.getByRole('button', { name: 'View pending orders' }).click();
    await page.waitForURL(/#\/order\?type=0$/);
    await expect.poll(() => page.locator('.order-tabs .adm-tabs-tab-active').innerText()).toBe('Pending');
    await page.locator(`[data-order-id="${pending.Id}"]`).waitFor();
    await api(ApiPath.cancelOrder, token, { method: 'POST', body: { id: pending.Id } });
  });

  it('shows in the history detail of positions the engine closed the ticket, prices, times and why', async () => {
    const precision = bitcoin.PricePrecision;
    const openPosition = () =>
      api<OrderView>(ApiPath.submitOrder, token, {
        method: 'POST',
        body: { type: BUY, cont: String(bitcoin.ForexMinCont), forex_id: bitcoin.Id, status: MARKET, multiple: 10 },
      });
    const [profitTaker, lossStopper] = [await openPosition(), await openPosition()];
    // Each level follows the bid half a dollar away until the feed's next steps reach it.
    await expect
      .poll(
        async () => {
          const history = (await api<{ data: OrderView[] }>(`${ApiPath.myDeal}?status=3`, token)).data;
          const closed = (id: number) => history.some((row) => row.Id === id);
          const { Bid } = (await tradePair('BTCUSD')).ForexQuotations;
          const level = (id: number, body: Record<string, string>) =>
            closed(id) ? null : api(ApiPath.setStopPrice, token, { method: 'POST', body: { id, ...body } }).catch(() => null);
          await level(profitTaker.Id, { target_profit_price: (Bid + 0.5).toFixed(precision) });
          await level(lossStopper.Id, { stop_loss_price: (Bid - 0.5).toFixed(precision) });
          return closed(profitTaker.Id) && closed(lossStopper.Id);
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe(true);
    const history = (await api<{ data: OrderView[] }>(`${ApiPath.myDeal}?status=3`, token)).data;

    await open(page, '/order?type=3');
    for (const [id, reason] of [
      [profitTaker.Id, 'Take profit'],
      [lossStopper.Id, 'Stop loss'],
    ] as const) {
      const closed = history.find((row) => row.Id === id)!;
      expect(closed.CloseReason).toBe(reason === 'Take profit' ? 'take_profit' : 'stop_loss');
      await page.locator(`[data-order-id="${id}"]`).click();
      const detail = page.getByRole('dialog', { name: 'Order details' });
      await detail.waitFor();
      expect(await figures(page, 'Order details')).toMatchObject({
        Ticket: `#${id}`,
        'Open price': english(closed.Price, precision),
        'Close price': english(closed.UpdatePrice!, precision),
        'Open time': await shownTime(page, closed.OpenedAt!),
        'Close time': await shownTime(page, closed.ClosedAt!),
        Margin: english(closed.CautionMoney, 2),
        Fee: english(closed.TradeFee!, 2),
        Profit: english(closed.FactProfits!, 2, true),
        'Closed by': reason,
      });
      await screenshot(page, `history-detail-${closed.CloseReason}`);
      await page.locator('.adm-mask').last().click();
      await detail.waitFor({ state: 'hidden' });
    }
  }, 180_000);

  it('says on a closed market’s quotes row when it opens, and finds the pair "EURUSD" from the main site’s search and opens it, saying when it opens if closed', async () => {
    const visitor = await phone(browser, 'en');
    await open(visitor.page, '/');
    // A closed market's quotes row says when it opens: the day and time under "Closed", the sentence as its title.
    const closed = (await api<TradePairView[]>(ApiPath.tradeList)).find((candidate) => candidate.MarketStatus !== 1);
    if (closed) {
      const [day, sentence] = await visitor.page.evaluate((time) => {
        const written = (options: Intl.DateTimeFormatOptions) =>
          new Intl.DateTimeFormat('en', { weekday: 'short', hour: '2-digit', minute: '2-digit', ...options }).format(time);
        return [written({}), written({ day: 'numeric', month: 'short' })];
      }, nextSessionOpen(closed.Session, Date.now())!);
      const label = visitor.page.locator('.pair-row', { hasText: closed.ShowCode }).first().locator('.closed-label');
      await expect.poll(() => label.innerText()).toBe(`Closed\n${day}`);
      expect(await label.getAttribute('title')).toBe(`The market is closed. It opens ${sentence}.`);
    }
    await visitor.page.getByRole('link', { name: 'Search markets and companies' }).click();
    await visitor.page.waitForURL(/#\/product$/);
    await visitor.page.getByRole('searchbox').fill('EURUSD');
    const pairs = visitor.page.getByRole('list', { name: 'Markets' });
    const eurusd = pairs.getByRole('link', { name: /EURUSD/ });
    await eurusd.waitFor();
    expect(await pairs.getByRole('listitem').count()).toBe(1);
    // The companies are searched beside the pairs: none is named EURUSD.
    await visitor.page.getByText('No company matches').waitFor();
    await screenshot(visitor.page, 'search-eurusd-main-site');

    await eurusd.click();
    await visitor.page.waitForURL(/#\/trade$/);
    await expect.poll(() => visitor.page.getByRole('heading', { level: 1 }).innerText()).toBe('EURUSD');
    const pair = await tradePair('EURUSD');
    const closedNotice = visitor.page.getByTestId('market-closed');
    if (pair.MarketStatus === 1) {
      expect(await closedNotice.count()).toBe(0);
    } else {
      const opening = nextSessionOpen(pair.Session, Date.now())!;
      const when = await visitor.page.evaluate(
        (time) =>
          new Intl.DateTimeFormat('en', {
            weekday: 'short',
            day: 'numeric',
            month: 'short',
            hour: '2-digit',
            minute: '2-digit',
          }).format(time),
        opening,
      );
      await expect.poll(() => closedNotice.innerText()).toBe(`The market is closed. It opens ${when}.`);
      await screenshot(visitor.page, 'trade-closed-opens-at');
    }
    await visitor.context.close();
  });
});
