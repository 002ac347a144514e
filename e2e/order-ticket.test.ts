import {
  ApiPath,
  dec,
  pendingReservation,
  type AccountFiguresView,
  type BalanceView,
  type LedgerPageView,
  type OrderView,
  type TradePairView,
} from '@pipwise/domain';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, cents, launchBrowser, myOrders, open, phone, storedToken } from './support.js';

/**
 * Issue 10 items 3–5: the ticket's margin and fee are what the order is charged, for every category,
 * both sides, market and pending; refused lots and TP/SL levels are shown with their rule and nothing
 * is sent.
 */

const BUY = 1;
const SELL = 2;
const MARKET = 1;
const PENDING = 0;
/** One per category, the non-USD quoted ones (yen, euro, pound) included. */
const INSTRUMENTS = ['EURJPY', 'XAUUSD', 'USOIL', 'JPN225', 'GER40', 'UK100', 'BTCUSD'];
/** Prices tick every 400 ms and the app hears of them at most once a second: a tap may meet a newer price. */
const ATTEMPTS = 8;

interface DayMarketFrame {
  symbol: string;
}

/** Counts DAY_MARKET frames per symbol as the page receives them, so a tap can follow a fresh quote. */
function watchQuotes(page: Page) {
  const seen = new Map<string, number>();
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || !payload.includes('"DAY_MARKET"')) return;
      const { data } = JSON.parse(payload) as { data: DayMarketFrame | DayMarketFrame[] };
      for (const quote of Array.isArray(data) ? data : [data]) seen.set(quote.symbol, (seen.get(quote.symbol) ?? 0) + 1);
    }),
  );
  return {
    /** Resolves once a quote of `symbol` newer than now has arrived and been painted. */
    async fresh(symbol: string) {
      const before = seen.get(symbol) ?? 0;
      await expect.poll(() => seen.get(symbol) ?? 0, { timeout: 20_000, interval: 20 }).toBeGreaterThan(before);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    },
  };
}

const twoDecimals = (value: number) =>
  new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);

const amount = (text: string) => Number(/-?[\d,]*\.?\d+/.exec(text)?.[0]?.replace(/,/g, '') ?? Number.NaN);

async function choosePair(page: Page, pair: TradePairView) {
  await page.getByRole('button', { name: 'Choose a market' }).click();
  await page.getByRole('button', { name: new RegExp(`^${pair.ShowCode}\\b`) }).click();
  await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(pair.ShowCode);
}

async function closeResultPopup(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Order placed' });
  await dialog.getByRole('button').last().click();
  await dialog.waitFor({ state: 'hidden' });
}

/**
 * In one task of the page, as a finger would: reads the estimate shown for `side` and the price on its
 * button, then taps that button. Nothing can repaint between the reading and the tap.
 */
function readAndTap(page: Page, side: number, kind: number) {
  return page.evaluate(
    ({ side, kind }) => {
      const sideName = side === 1 ? 'buy' : 'sell';
      const text = (testId: string) => document.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '';
      const suffix = kind === 1 ? `-${sideName}` : '';
      const button = document.querySelector<HTMLButtonElement>(`.${sideName}-button`)!;
      const shown = {
        margin: text(`estimate-margin${suffix}`),
        fee: text(`estimate-fee${suffix}`),
        price: button.textContent ?? '',
      };
      button.click();
      return shown;
    },
    { side, kind },
  );
}

describe('the order ticket (issue 10 items 3–5)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let token: string;
  let quotes: ReturnType<typeof watchQuotes>;
  let pairs: TradePairView[];
  const submits: Request[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await phone(browser, 'en'));
    quotes = watchQuotes(page);
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes(ApiPath.submitOrder)) submits.push(request);
    });
    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    token = await storedToken(page);
    await page.getByRole('link', { name: 'Trade' }).click();
    pairs = await api<TradePairView[]>(ApiPath.tradeList);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  const lotField = () => page.getByRole('textbox', { name: 'Lots' });
  const pairOf = (code: string) => pairs.find((pair) => pair.Code === code)!;

  it('shows as margin and fee exactly what each order is charged: every category, both sides, market and pending', async () => {
    const open = INSTRUMENTS.map(pairOf).filter((pair) => pair.MarketStatus === 1);
    // Crypto never closes; the others trade now unless the suite runs in a weekend or a session break.
    expect(open.map((pair) => pair.Code)).toContain('BTCUSD');
    if (open.length < INSTRUMENTS.length)
      console.warn(
        'closed now, not checked:',
        INSTRUMENTS.filter((code) => !open.some((pair) => pair.Code === code)),
      );
    const tries: string[] = [];

    for (const pair of open) {
      await choosePair(page, pair);
      if (pair.Code === 'JPN225') {
        // The issue's own case: 0.3 lot at 10×.
        await page.locator('.adm-selector-item', { hasText: /^10×$/ }).click();
        await lotField().fill('0.3');
      }
      for (const kind of [MARKET, PENDING]) {
        await page.getByRole('tab', { name: kind === MARKET ? 'Market' : 'Pending' }).click();
        for (const side of [BUY, SELL]) {
          if (kind === PENDING) {
            // Far from the market so it stays pending: a buy below, a sell above.
            const live = (await api<TradePairView[]>(`${ApiPath.tradeList}?searchCurrency=${pair.Code}`)).find(
              (p) => p.Id === pair.Id,
            )!;
            const factor = side === BUY ? 0.9 : 1.1;
            await page
              .getByRole('spinbutton', { name: 'Target price' })
              .fill((live.ForexQuotations.Bid * factor).toFixed(pair.PricePrecision));
          }
          let matched = false;
          for (let attempt = 1; attempt <= ATTEMPTS && !matched; attempt += 1) {
            const before = await api<BalanceView>(ApiPath.getBalance, token);
            await quotes.fresh(pair.Code);
            const placing = page.waitForResponse((response) => response.url().includes(ApiPath.submitOrder));
            const shown = await readAndTap(page, side, kind);
            const order = ((await (await placing).json()) as { data: OrderView }).data;
            const fee = order.TradeFee ?? Number.NaN;
            await closeResultPopup(page);
            const after = await api<BalanceView>(ApiPath.getBalance, token);
            // The margin shown is money, in 2 decimals; the order carries it finer.
            matched = amount(shown.margin) === amount(twoDecimals(order.CautionMoney)) && amount(shown.fee) === fee;
            tries.push(
              `${pair.Code} ${side === BUY ? 'buy' : 'sell'} ${kind === MARKET ? 'market' : 'pending'}: shown ${shown.margin} / ${shown.fee}, charged ${order.CautionMoney} / ${order.TradeFee} at ${order.Price}`,
            );

            expect(order.OrderType).toBe(side);
            expect(order.Status).toBe(kind);
            if (kind === MARKET) {
              // The fee left the balance through one ledger row of this order.
              expect(cents(before.balance) - cents(after.balance)).toBe(cents(fee));
              const ledger = await api<LedgerPageView>(ApiPath.ledger, token);
              expect(ledger.data.filter((row) => row.RefId === order.Id).map((row) => row.Value)).toEqual([-fee]);
              await api(ApiPath.closeOrder, token, { method: 'POST', body: { id: order.Id } });
            } else {
              // A pending order charges nothing yet: margin and fee are reserved.
              expect(after.balance).toBe(before.balance);
              // The reservation is margin plus fee rounded once to cents, as the server rounds it.
              const reserved = pendingReservation({ margin: dec(order.CautionMoney), fee: dec(fee) });
              expect(cents(after.lock_balance) - cents(before.lock_balance)).toBe(cents(reserved.toNumber()));
              expect(order.TargetPrice).toBe(order.Price);
              await api(ApiPath.cancelOrder, token, { method: 'POST', body: { id: order.Id } });
            }
          }
          // A tick between the quote shown and the fill may change the charge; a wrong formula, side, price
          // or rate would differ on every try.
          expect(matched, tries.slice(-ATTEMPTS).join('\n')).toBe(true);
        }
      }
      if (pair.Code === 'JPN225') await lotField().fill(String(pair.ForexMinCont));
    }
    console.log(`estimate = charge in ${open.length * 4} cases with ${tries.length} orders`);
  }, 240_000);

  it('refuses lots out of range or off the step with the rule, keeps what was typed and sends nothing', async () => {
    const pair = pairOf('BTCUSD');
    await choosePair(page, pair);
    await page.getByRole('tab', { name: 'Market' }).click();
    const rule = page.getByRole('alert');
    const sent = submits.length;
    for (const [typed, shown] of [
      ['60', 'Maximum 20'],
      ['-2', 'Minimum 0.01'],
      ['0', 'Minimum 0.01'],
      ['0.001', 'Minimum 0.01'],
      ['0.015', 'In steps of 0.01'],
      ['abc', 'Enter a number from 0.01 to 20'],
    ] as const) {
      await lotField().fill(typed);
      await expect.poll(() => rule.innerText()).toBe(shown);
      expect(await lotField().getAttribute('aria-invalid')).toBe('true');
      await page.getByRole('button', { name: 'Buy' }).click();
      await page.getByRole('button', { name: 'Sell' }).click();
      expect(await lotField().inputValue()).toBe(typed);
      expect(await page.getByTestId('estimate-margin-buy').innerText()).toContain('--');
    }

    // The next valid order is the first request sent: the refused taps sent none before it.
    await lotField().fill('0.02');
    await expect.poll(() => rule.count()).toBe(0);
    const placing = page.waitForResponse((response) => response.url().includes(ApiPath.submitOrder));
    await page.getByRole('button', { name: 'Buy' }).click();
    const order = ((await (await placing).json()) as { data: OrderView }).data;
    expect(order.Quantity).toBe(0.02);
    expect(submits.length - sent).toBe(1);
    await closeResultPopup(page);
    await api(ApiPath.closeOrder, token, { method: 'POST', body: { id: order.Id } });

    // − and + step to valid lots from whatever was typed, within the range.
    await lotField().fill('60');
    await page.getByRole('button', { name: 'Decrease' }).click();
    expect(await lotField().inputValue()).toBe('20.00');
    expect(await page.getByRole('button', { name: 'Increase' }).isDisabled()).toBe(true);
    await lotField().fill('-2');
    expect(await page.getByRole('button', { name: 'Decrease' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Increase' }).click();
    expect(await lotField().inputValue()).toBe('0.01');
    await lotField().fill(String(pair.ForexMinCont));
  });

  it('refuses an order the account cannot afford before sending it, says why, and the server holds no new order', async () => {
    const pair = pairOf('BTCUSD');
    await choosePair(page, pair);
    await page.getByRole('tab', { name: 'Market' }).click();
    // The most a ticket allows of the dearest margin: 20 lots at 2× needs more than the demo's 100,000.
    await page.locator('.adm-selector-item', { hasText: /^2×$/ }).click();
    await lotField().fill('20');
    const figures = await api<AccountFiguresView>(ApiPath.forexDetail, token);
    await expect
      .poll(async () => amount(await page.getByTestId('estimate-margin-buy').innerText()))
      .toBeGreaterThan(figures.available_prepayment);
    const holding = async () => (await myOrders(token, 1)).total;
    const heldBefore = await holding();
    const sent = submits.length;

    await page.getByRole('button', { name: 'Buy' }).click();
    await expect.poll(() => page.getByText('Insufficient free margin for this order').count()).toBe(1);
    expect(submits.length).toBe(sent);
    expect(await holding()).toBe(heldBefore);
    expect((await api<AccountFiguresView>(ApiPath.forexDetail, token)).balance).toBe(figures.balance);

    await lotField().fill(String(pair.ForexMinCont));
  });

  it('refuses a switched-on take profit or stop loss that is empty, not a price or on the wrong side, and sends nothing', async () => {
    const pair = pairOf('BTCUSD');
    await choosePair(page, pair);
    await page.getByRole('tab', { name: 'Market' }).click();
    const sent = submits.length;
    const takeProfit = page.getByRole('spinbutton', { name: 'Take-profit price' });
    const stopLoss = page.getByRole('spinbutton', { name: 'Stop-loss price' });
    const alerts = page.getByRole('alert');

    await page.getByRole('switch', { name: 'Take profit' }).click();
    await page.getByRole('switch', { name: 'Stop loss' }).click();
    await page.getByRole('button', { name: 'Buy' }).click();
    await expect
      .poll(() => alerts.allInnerTexts())
      .toEqual(['Enter a price or switch this off', 'Enter a price or switch this off']);

    await takeProfit.fill('0');
    await stopLoss.fill('-5');
    await page.getByRole('button', { name: 'Buy' }).click();
    await expect.poll(() => alerts.allInnerTexts()).toEqual(['Enter a valid price', 'Enter a valid price']);

    // A buy's take profit below the market and stop loss above it are on the wrong sides.
    const live = (await api<TradePairView[]>(`${ApiPath.tradeList}?searchCurrency=${pair.Code}`))[0]!;
    await takeProfit.fill(String(Math.round(live.ForexQuotations.Bid * 0.5)));
    await stopLoss.fill(String(Math.round(live.ForexQuotations.Ask * 2)));
    await page.getByRole('button', { name: 'Buy' }).click();
    await expect
      .poll(async () => (await alerts.allInnerTexts()).map((text) => text.replace(/[\d,.]+$/, 'N')))
      .toEqual(['For a buy, take profit must be above N', 'For a buy, stop loss must be below N']);
    // The same levels suit a sell, whose messages turn around.
    await takeProfit.fill(String(Math.round(live.ForexQuotations.Ask * 2)));
    await stopLoss.fill(String(Math.round(live.ForexQuotations.Bid * 0.5)));
    await page.getByRole('button', { name: 'Sell' }).click();
    await expect
      .poll(async () => (await alerts.allInnerTexts()).map((text) => text.replace(/[\d,.]+$/, 'N')))
      .toEqual(['For a sell, take profit must be below N', 'For a sell, stop loss must be above N']);

    // Those levels are right for a buy: it goes through with both, and it is the only order sent.
    const placing = page.waitForResponse((response) => response.url().includes(ApiPath.submitOrder));
    await page.getByRole('button', { name: 'Buy' }).click();
    const order = ((await (await placing).json()) as { data: OrderView }).data;
    expect(order.TargetProfitPrice).toBe(Math.round(live.ForexQuotations.Ask * 2));
    expect(order.TargetLossPrice).toBe(Math.round(live.ForexQuotations.Bid * 0.5));
    expect(submits.length - sent).toBe(1);
    await closeResultPopup(page);
    await api(ApiPath.closeOrder, token, { method: 'POST', body: { id: order.Id } });
  });
});
