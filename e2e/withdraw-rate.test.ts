import { withdrawalQuote, type WithdrawalView, type WithdrawCurrencyView } from '@pipwise/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, desk, menu } from './backoffice.js';
import { fundThroughDeposit, setSetting, verifyIdentity } from './cashier.js';
import {
  api,
  cents,
  launchBrowser,
  open,
  phone,
  registerRealUser,
  screenshot,
  signInAs,
  type PairView,
  type RealAccount,
} from './support.js';

/*
 * Issue 17, "must show": a EUR withdrawal's estimate on the screen equals the amount on its record and on
 * the operator's screen, computed from the rate the API reports (the app's own EURUSD, not a typed 0.92).
 * Before anything is typed the screen says that withdrawals need real-name verification (item 13), and
 * the operator is warned of a payee not named as the verified owner (item 14).
 */

const IBAN = 'DE89370400440532013000';
const BANK = 'Deutsche Bank';
const PAYEE = 'Someone Else';
const AMOUNT = '120';

/** A figure as shown ("1,234.56") as a number. */
const shownNumber = async (locator: Locator) => Number((await locator.innerText()).replace(/[^\d.-]/g, ''));

/** The labelled figures of the withdraw screen are <output> elements (role status) named by their label. */
const withdrawOutput = (page: Page, name: string) => page.getByRole('status', { name, exact: true });

/** With no payout method of the shown type the screen asks to set one up first: this user declines. */
async function declineSetUp(page: Page) {
  const ask = page.getByRole('dialog', { name: 'Set up a payment account first' });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await ask.waitFor({ state: 'hidden' });
}

/** The value cell of a bordered description list's row. */
const described = (scope: Locator, label: string) =>
  scope
    .locator('tr', { has: scope.page().locator('th', { hasText: new RegExp(`^${label}$`) }) })
    .locator('td')
    .first();

describe('a EUR withdrawal is estimated, recorded and reviewed at one rate, the market’s (issue 17)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let account: RealAccount;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerRealUser('withdraw-rate');
    await fundThroughDeposit(account.token, '500');
    ({ context, page } = await phone(browser, 'en'));
    await signInAs(page, account);
  });

  afterAll(async () => {
    await setSetting('payout_method_cooldown_hours', '24');
    await context?.close();
    await browser?.close();
  });

  it('says before anything is typed that withdrawals need real-name verification, with a link to it', async () => {
    await setSetting('withdraw_requires_kyc', '1');
    await open(page, '/mine/withdraw');
    const notice = page.getByRole('note', { name: /Withdrawals need real-name verification/ });
    await notice.waitFor();
    expect(await page.getByRole('spinbutton', { name: 'Amount (USD)' }).inputValue()).toBe('');
    await declineSetUp(page);
    await screenshot(page, 'withdraw-kyc-notice-en');
    await notice.getByRole('link', { name: 'Verify now' }).click();
    await page.waitForURL(/#\/mine\/auth$/);

    await verifyIdentity(account);
    await open(page, '/mine/withdraw');
    await page.getByRole('spinbutton', { name: 'Amount (USD)' }).waitFor();
    await page.getByRole('region', { name: 'Your funds' }).waitFor();
    await expect.poll(() => notice.count()).toBe(0);
  });

  it('estimates at the rate the API reports, and the record and the operator’s queue show that very amount', async () => {
    await setSetting('payout_method_cooldown_hours', '0');
    const banks = await api<WithdrawCurrencyView[]>('/api/account/draw_symbol_list?type=2', account.token);
    const eur = banks.find((currency) => currency.code === 'EUR')!;
    expect(eur).toMatchObject({ rate_source: 'market', rate_pair: 'EURUSD' });
    await api('/api/wallet/bind_draw_method', account.token, {
      method: 'POST',
      body: { type: 2, draw_id: eur.id, bank_name: BANK, payee_name: PAYEE, payee_account: IBAN },
    });

    await open(page, '/mine/withdraw');
    // Its only method is a bank account: the coin tab, shown first, has none.
    await declineSetUp(page);
    await page.getByRole('radiogroup', { name: 'Withdraw by' }).getByRole('radio', { name: 'Bank transfer' }).check();
    await page.getByRole('radiogroup', { name: 'Currency' }).getByRole('radio', { name: 'EUR', exact: true }).check();
    const method = page.getByRole('radiogroup', { name: 'Pay out to' }).getByRole('radio', { name: new RegExp(IBAN) });
    await expect.poll(() => method.isEnabled(), { timeout: 15_000 }).toBe(true);
    await method.check();
    await page.getByRole('spinbutton', { name: 'Amount (USD)' }).fill(AMOUNT);

    // What the screen shows: the rate (1 USD = x EUR, the market pair beside it), the fee and the estimate.
    const rateText = await withdrawOutput(page, 'Rate').innerText();
    const price = /^1 USD = ([\d.]+) EUR$/.exec(rateText.trim())?.[1];
    expect(price, rateText).toBeDefined();
    await page.getByText(/^Market rate EURUSD, /).waitFor();
    const fee = await shownNumber(withdrawOutput(page, 'Fee'));
    const received = await shownNumber(withdrawOutput(page, 'Estimated received'));
    await screenshot(page, 'withdraw-eur-estimate-en');
    await page.getByRole('button', { name: 'Withdraw now' }).click();
    await page.getByRole('list', { name: 'Withdrawal records' }).waitFor();

    // The estimate is the domain's formula at the rate shown, and that rate is the app's own EURUSD.
    const quote = withdrawalQuote(AMOUNT, { fee_type: eur.fee_type, draw_rate: eur.draw_rate, usd_price: price! });
    expect([cents(fee), cents(received)]).toEqual([cents(quote.fee.toNumber()), cents(quote.received.toNumber())]);
    const eurusd = (await api<PairView[]>('/v1/api/forex/trade_list')).find((pair) => pair.Code === 'EURUSD')!;
    expect(Math.abs(Number(price) * eurusd.ForexQuotations.Bid - 1)).toBeLessThan(0.01);

    const record = (await api<{ data: WithdrawalView[] }>('/api/account/draw_list', account.token)).data[0]!;
    expect(record).toMatchObject({ number: Number(AMOUNT), usd_price: price, rate_source: 'market', rate_pair: 'EURUSD' });
    expect([cents(record.fee), cents(record.real_number)]).toEqual([cents(fee), cents(received)]);

    // The user's record shows the locked rate on its timeline.
    await page.getByRole('list', { name: 'Withdrawal records' }).getByRole('listitem').first().getByRole('button').click();
    const detail = page.getByRole('dialog', { name: 'Withdrawal details' });
    await detail.getByText(`Rate locked: 1 USD = ${price} EUR`).waitFor();
    expect(cents(await shownNumber(detail.getByRole('status', { name: 'Estimated received', exact: true })))).toBe(
      cents(received),
    );
    await screenshot(page, 'withdraw-eur-record-en');

    // The operator's queue: the same payout and rate, and the payee who is not the verified owner flagged.
    const finance = await createOperator('finance');
    const { context: deskContext, page: backOffice } = await desk(browser, finance);
    try {
      await menu(backOffice, 'Withdrawals');
      const uid = (account.user as unknown as { uid: number }).uid;
      const search = backOffice.getByRole('searchbox', { name: 'Search by UID' });
      await search.fill(String(uid));
      await search.press('Enter');
      await backOffice.getByTestId(`row-${record.id}`).click({ timeout: 20_000 });
      const drawer = backOffice.getByRole('dialog', { name: `Item #${record.id}` });
      await drawer.waitFor();
      expect(cents(await shownNumber(described(drawer, 'Payout')))).toBe(cents(received));
      expect(await drawer.getByTestId('locked-rate').innerText()).toContain(`1 USD = ${price} EUR`);
      await drawer.getByText(`Payee “${PAYEE}” is not the verified name “Chan Tai Man”.`).waitFor();
      await screenshot(backOffice, 'back-office-withdrawal-rate-en');
    } finally {
      await deskContext.close();
    }
  });
});
