import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf, cents, launchBrowser, myOrders, open, openMarket, phone, screenshot, storedToken } from './support.js';

describe('a demo account', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('trades, then resets to the starting balance', async () => {
    const pair = await openMarket();
    const { context, page } = await phone(browser, 'en');

    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    const token = await storedToken(page);
    const startBalance = await balanceOf(token);

    // Choose the pair from the trade screen's drawer and buy.
    await page.getByRole('link', { name: 'Trade' }).click();
    await page.getByRole('button', { name: 'Choose a market' }).click();
    await page.getByRole('button', { name: new RegExp(`^${pair.ShowCode}\\b`) }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(pair.ShowCode);
    await page.getByRole('button', { name: 'Buy' }).click();
    await page.getByRole('dialog', { name: 'Order placed' }).getByRole('button', { name: 'View positions' }).click();
    await page.waitForURL(/#\/order\?type=1$/);
    await page
      .getByRole('list', { name: 'Orders' })
      .getByRole('button', { name: new RegExp(pair.ShowCode) })
      .waitFor();
    expect((await myOrders(token, 1)).total).toBe(1);
    expect(cents(await balanceOf(token))).toBeLessThan(cents(startBalance));
    await screenshot(page, 'journey3-holding');

    // Reset from the user center.
    await page.getByRole('link', { name: 'Me' }).click();
    await expect.poll(() => page.getByText('Demo account', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Show balance' }).click();
    await page.getByText('Reset demo account').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => cents(await balanceOf(token))).toBe(cents(startBalance));
    expect((await myOrders(token, 1)).total).toBe(0);
    const shown = page.getByTestId('user-balance');
    await expect.poll(async () => cents(Number((await shown.innerText()).replace(/[^\d.]/g, '')))).toBe(cents(startBalance));
    await screenshot(page, 'journey3-reset');
    await context.close();
  });
});
