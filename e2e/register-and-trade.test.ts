import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundThroughDeposit } from './cashier.js';
import {
  answerSignUpQuestions,
  api,
  balanceOf,
  cents,
  fillSignUpAccount,
  launchBrowser,
  myOrders,
  open,
  openMarket,
  type PairView,
  phone,
  screenshot,
  storedToken,
} from './support.js';

describe('a visitor registers and trades', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('buys the minimum lot after registering, watches live P&L, sets TP/SL, closes, and the balance moves by fee and profit', async () => {
    const pair = await openMarket();
    const email = `trader-${process.pid}-${Date.now()}@example.com`;
    const { context, page } = await phone(browser, 'en');

    // Pick the pair on the home screen and try to buy as a visitor.
    await open(page, '/');
    await page
      .getByRole('list', { name: 'Markets' })
      .getByRole('link', { name: new RegExp(`^${pair.ShowCode}\\b`) })
      .click();
    await page.waitForURL(/#\/trade$/);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.waitForURL(/#\/login\?from=\/trade$/);
    await screenshot(page, 'journey2-login');

    // Register with the code the outbox received, and land back on the trade screen.
    await page.getByRole('link', { name: 'Create an account' }).click();
    await fillSignUpAccount(page, email);
    await answerSignUpQuestions(page);
    await screenshot(page, 'journey2-register');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(/#\/trade$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(pair.ShowCode);
    const token = await storedToken(page);
    expect(await balanceOf(token)).toBe(0);

    // A new real account holds nothing; it deposits by bank wire and an operator credits it.
    await fundThroughDeposit(token, '10000');
    const startBalance = await balanceOf(token);
    expect(startBalance).toBe(10_000);
    await expect.poll(() => page.getByTestId('trade-balance').innerText()).toBe('10,000.00');

    // Buy at the minimum lot: the stepper starts there and cannot go below.
    await expect.poll(() => page.getByRole('button', { name: 'Decrease' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Buy' }).click();
    const placed = page.getByRole('dialog', { name: 'Order placed' });
    await placed.waitFor();
    await screenshot(page, 'journey2-order-placed');
    await placed.getByRole('button', { name: 'View positions' }).click();
    await page.waitForURL(/#\/order\?type=1$/);

    const [order] = (await myOrders(token, 1)).data;
    expect(order).toBeDefined();
    expect(order!.Quantity).toBe(pair.ForexMinCont);
    expect(order!.OrderType).toBe(1);

    // The position's P&L follows the market live.
    const orders = page.getByRole('list', { name: 'Orders' });
    const row = orders.getByRole('button', { name: new RegExp(pair.ShowCode) });
    const profit = row.getByTestId('order-profit');
    const first = await profit.innerText();
    await expect.poll(() => profit.innerText(), { timeout: 15_000, interval: 250 }).not.toBe(first);
    await screenshot(page, 'journey2-holding');

    // Take profit and stop loss around the current price.
    await row.click();
    const detail = page.getByRole('dialog', { name: 'Order details' });
    await detail.waitFor();
    const bid = (await api<PairView[]>('/v1/api/forex/trade_list')).find((candidate) => candidate.Id === pair.Id)!.ForexQuotations
      .Bid;
    const scale = 10 ** pair.PricePrecision;
    const takeProfit = Math.round(bid * 1.2 * scale) / scale;
    const stopLoss = Math.round(bid * 0.8 * scale) / scale;
    await detail.getByRole('spinbutton', { name: 'Take profit' }).fill(String(takeProfit));
    await detail.getByRole('spinbutton', { name: 'Stop loss' }).fill(String(stopLoss));
    const saved = page.waitForResponse((response) => response.url().includes('/v1/api/forex/set_stop_price'));
    await detail.getByRole('button', { name: 'Save' }).click();
    expect(await (await saved).json()).toMatchObject({ code: 1 });
    await expect
      .poll(async () => {
        const [held] = (await myOrders(token, 1)).data;
        return [held?.TargetProfitPrice, held?.TargetLossPrice];
      })
      .toEqual([takeProfit, stopLoss]);
    await screenshot(page, 'journey2-detail');

    // Close it.
    await detail.getByRole('button', { name: 'Close position' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => orders.count()).toBe(0);
    expect((await myOrders(token, 1)).total).toBe(0);

    // History shows it with its profit.
    await page.getByRole('tab', { name: 'History' }).click();
    const closed = (await myOrders(token, 3)).data.find((candidate) => candidate.Id === order!.Id);
    expect(closed).toBeDefined();
    const historyRow = page.getByRole('list', { name: 'Orders' }).getByRole('button', { name: new RegExp(pair.ShowCode) });
    await historyRow.waitFor();
    // Money in 2 decimals with its sign, as English writes it.
    const profitText = new Intl.NumberFormat('en', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      signDisplay: 'exceptZero',
    }).format(closed!.FactProfits);
    expect(await historyRow.getByTestId('order-profit').innerText()).toBe(profitText);
    await screenshot(page, 'journey2-history');

    // The balance moved by exactly the fee and the profit.
    expect(cents(await balanceOf(token))).toBe(cents(startBalance) - cents(closed!.TradeFee) + cents(closed!.FactProfits));
    await context.close();
  });
});
