import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundThroughDeposit, setSetting, verifyIdentity } from './cashier.js';
import {
  api,
  cents,
  hasHorizontalScroll,
  launchBrowser,
  open,
  phone,
  screenshot,
  registerRealUser,
  signInAs,
  type RealAccount,
} from './support.js';

/*
 * Issue 11, "must show", in Arabic: the withdraw screen of a funded, verified user with a usable payout
 * address reads right to left, in Arabic only, on a phone, and quotes what the server then charges.
 */

/** The Arabic texts the screen is found by, from the app's own catalogue. */
const arabic = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../apps/web/src/i18n/locales/ar.json'), 'utf8')) as {
    withdraw: Record<string, string>;
  }
).withdraw;

/** Lower case, so it passes any checksum rule; USDC (ERC20) charges a rate fee, unlike the fixed-fee TRC20. */
const ERC20_ADDRESS = '0x742d35cc6634c0532925a3b844bc454e4438f44e';
const AMOUNT = '123.45';

interface Currency {
  id: number;
  code: string;
  protocol: string;
}
interface Withdrawal {
  number: number;
  fee: number;
  real_number: number;
}

/** A figure as shown, in cents, whichever digits the locale writes it with. */
const shownCents = async (locator: Locator) => {
  const text = (await locator.innerText())
    .replace(/[٠-٩]/g, (digit) => String(digit.charCodeAt(0) - 0x0660))
    .replace(/٫/g, '.')
    .replace(/[^\d.-]/g, '');
  return cents(Number(text));
};

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Where an element's text is drawn (its box may be as wide as the column). */
const textBox = (locator: Locator): Promise<Box> =>
  locator.evaluate((element) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    const rect = range.getBoundingClientRect();
    return { left: rect.left, right: rect.right, top: rect.top, bottom: rect.bottom };
  });

/** Every label/value figure on the screen: right to left, each value starts where its label does, just below it. */
async function expectValuesUnderLabels(page: Page) {
  const figures = page.locator('.wd-figure');
  const count = await figures.count();
  expect(count).toBeGreaterThanOrEqual(4);
  for (let index = 0; index < count; index += 1) {
    const figure = figures.nth(index);
    const label = await textBox(figure.locator('.wd-figure-label'));
    const value = await textBox(figure.locator('output'));
    const what = await figure.locator('.wd-figure-label').innerText();
    expect(Math.abs(label.right - value.right), what).toBeLessThanOrEqual(2);
    expect(value.top, what).toBeGreaterThanOrEqual(label.bottom - 1);
    expect(value.top - label.bottom, what).toBeLessThan(24);
  }
}

describe('the withdraw screen in Arabic (issue 11)', () => {
  let browser: Browser;
  let account: RealAccount;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerRealUser('withdraw-ar');
    await fundThroughDeposit(account.token, '300');
    await verifyIdentity(account);
    // No cool-down for this journey: the English one waits one out.
    await setSetting('payout_method_cooldown_hours', '0');
    const currencies = await api<Currency[]>('/api/account/draw_symbol_list?type=1', account.token);
    const usdc = currencies.find((currency) => currency.code === 'USDC' && currency.protocol === 'ERC20')!;
    await api('/api/wallet/bind_draw_method', account.token, {
      method: 'POST',
      body: { type: 1, draw_id: usdc.id, dc_address: ERC20_ADDRESS },
    });
  });

  afterAll(async () => {
    await setSetting('payout_method_cooldown_hours', '24');
    await browser?.close();
  });

  it('reads right to left in Arabic, fits the phone, and quotes what the server charges', async () => {
    const { context, page } = await phone(browser, 'ar');
    await signInAs(page, account);
    await open(page, '/mine/withdraw');

    await page.getByRole('radiogroup', { name: arabic.currency }).getByRole('radio', { name: 'USDC (ERC20)' }).check();
    await page.getByRole('radiogroup', { name: arabic.method }).getByRole('radio', { name: ERC20_ADDRESS }).check();
    const funds = await api<{ withdrawable: number }>('/v1/api/main/account/forexDetail', account.token);
    await expect
      .poll(() => shownCents(page.locator(`output[aria-label="${arabic.withdrawable}"]`)))
      .toBe(cents(funds.withdrawable));
    await page.getByRole('spinbutton', { name: arabic.amount }).fill(AMOUNT);
    const fee = page.locator(`output[aria-label="${arabic.fee}"]`);
    const received = page.locator(`output[aria-label="${arabic.received}"]`);
    await expect.poll(() => shownCents(fee)).toBeGreaterThan(0);

    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await hasHorizontalScroll(page)).toBe(false);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/\b(withdraw|common)\.\w+/);
    // Currency codes, networks and the address are the same in every language; no other Latin word may show.
    const latin = text
      .replace(ERC20_ADDRESS, '')
      .replace(/\b(USDT|USDC|USD|TRC20|ERC20)\b/g, '')
      .match(/[A-Za-z]{2,}/g);
    expect(latin).toBeNull();
    await expectValuesUnderLabels(page);
    await screenshot(page, 'withdraw-form-ar');

    const [shownFee, shownReceived] = [await shownCents(fee), await shownCents(received)];
    await page.getByRole('button', { name: arabic.submit }).click();
    await page.getByRole('list', { name: arabic.records }).waitFor();
    const server = await api<{ data: Withdrawal[]; total: number }>('/api/account/draw_list', account.token);
    expect(server.total).toBe(1);
    expect(cents(server.data[0]!.number)).toBe(cents(Number(AMOUNT)));
    expect([shownFee, shownReceived]).toEqual([cents(server.data[0]!.fee), cents(server.data[0]!.real_number)]);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'withdraw-records-ar');
    await context.close();
  });
});
