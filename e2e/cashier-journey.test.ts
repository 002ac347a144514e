import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator, proofImage, setSetting, verifyIdentity } from './cashier.js';
import { api, cents, launchBrowser, open, phone, screenshot, registerRealUser, signInAs, type RealAccount } from './support.js';

/*
 * Issue 11, "must show": a real user deposits by bank wire with a proof, an operator credits it, the user
 * is verified, binds a payout address, waits out its cool-down and withdraws; the screens follow each
 * decision of the operator without a reload, and every figure shown is the server's.
 */

interface WireChannel {
  id: number;
  bank_name: string;
  payee_name: string;
  payee_account: string;
  bank_swift: string;
  currency_code: string;
}
interface Deposit {
  id: number;
  number: number;
  credited_number: number | null;
  status: number;
  status_name: string;
}
interface Withdrawal {
  id: number;
  number: number;
  fee: number;
  real_number: number;
  status: number;
  status_name: string;
  timeline: { status: number; status_name: string }[];
}
interface Page_<T> {
  data: T[];
  total: number;
}
interface Ledger {
  data: { Id: number; Value: number; Type: string }[];
}

const TRC20_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const DECLARED = '500';
const CREDITED = '480.5';
const WITHDRAWN = '100';

const deposits = (token: string) => api<Page_<Deposit>>('/api/quickCharge/quick_ist', token);
const withdrawals = (token: string) => api<Page_<Withdrawal>>('/api/account/draw_list', token);
const balanceFigures = (token: string) => api<{ balance: number; lock_balance: number }>('/v1/api/main/wallet/getBalance', token);
const accountFigures = (token: string) =>
  api<{ balance: number; lock_balance: number; withdrawable: number }>('/v1/api/main/account/forexDetail', token);

/** A figure as shown ("1,234.56") in cents. */
const shownCents = async (locator: Locator) => cents(Number((await locator.innerText()).replace(/[^\d.-]/g, '')));

const walletFigure = (page: Page, id: string) => shownCents(page.getByRole('region', { name: 'Account funds' }).getByTestId(id));

/** The labelled figures of the withdraw screen are <output> elements (role status) named by their label. */
const withdrawOutput = (page: Page, name: string) => page.getByRole('status', { name, exact: true });

describe('a real user deposits, is verified and withdraws (issue 11)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** A second tab on the wallet, left open: it must follow the operator's decisions by itself. */
  let wallet: Page;
  let account: RealAccount;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerRealUser('cashier');
    ({ context, page } = await phone(browser, 'en'));
    await signInAs(page, account);
    wallet = await context.newPage();
  });

  afterAll(async () => {
    await setSetting('payout_method_cooldown_hours', '24');
    await browser?.close();
  });

  it('declares a bank wire with its proof; a double tap makes one deposit, shown unchecked', async () => {
    await open(page, '/user');
    await page.getByRole('navigation', { name: 'Funds' }).getByRole('button', { name: 'Deposit' }).click();
    await page.getByRole('tab', { name: 'Bank wire' }).click();

    const [channel] = await api<WireChannel[]>('/api/quickCharge/wire_info', account.token);
    const details = page.getByRole('region', { name: 'Bank details' });
    for (const text of [channel!.bank_name, channel!.payee_name, channel!.payee_account, channel!.bank_swift]) {
      await details.getByText(text, { exact: true }).first().waitFor();
    }

    await page.getByRole('textbox', { name: `Amount (${channel!.currency_code})` }).fill(DECLARED);
    await page
      .locator('input[type=file][aria-label="Payment proof"]')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: await proofImage('wire receipt') });
    await page.getByRole('img', { name: 'Payment proof' }).waitFor();
    await screenshot(page, 'cashier-wire-form-en');
    await page.getByRole('button', { name: 'Submit deposit' }).dblclick();

    const records = page.getByRole('list', { name: 'Deposit records' });
    await records.waitFor();
    const server = await deposits(account.token);
    expect(server.total).toBe(1);
    const deposit = server.data[0]!;
    expect(deposit).toMatchObject({ number: Number(DECLARED), status: 0, credited_number: null });
    const row = records.locator(`[data-deposit-id="${deposit.id}"]`);
    await row.getByText(deposit.status_name, { exact: true }).waitFor();
    expect(await records.getByRole('listitem').count()).toBe(1);
  });

  it('is credited by an operator, and the records, the wallet and the history follow without a reload', async () => {
    await open(wallet, '/mine/wallet');
    await expect.poll(() => walletFigure(wallet, 'wallet-balance')).toBe(0);
    const [deposit] = (await deposits(account.token)).data;

    await asOperator(`/admin/api/deposits/${deposit!.id}/approve`, { credited_amount: CREDITED });
    const credited = (await deposits(account.token)).data[0]!;
    expect(credited).toMatchObject({ status: 1, credited_number: Number(CREDITED) });

    const row = page.getByRole('list', { name: 'Deposit records' }).locator(`[data-deposit-id="${deposit!.id}"]`);
    await row.getByText(credited.status_name, { exact: true }).waitFor({ timeout: 15_000 });
    await expect.poll(() => walletFigure(wallet, 'wallet-balance'), { timeout: 15_000 }).toBe(cents(Number(CREDITED)));

    const [balance, figures] = await Promise.all([balanceFigures(account.token), accountFigures(account.token)]);
    expect(cents(balance.balance)).toBe(cents(Number(CREDITED)));
    expect(await walletFigure(wallet, 'wallet-withdrawable')).toBe(cents(figures.withdrawable));
    expect(await walletFigure(wallet, 'wallet-locked')).toBe(cents(figures.lock_balance));

    await row.click();
    await page.getByText('Amount credited').waitFor();
    await screenshot(page, 'cashier-deposit-credited-en');

    await open(page, '/mine/history');
    const ledger = await api<Ledger>('/v1/api/main/accountLog/forexChange', account.token);
    const entry = ledger.data.find((candidate) => candidate.Type === 'deposit')!;
    expect(cents(entry.Value)).toBe(cents(Number(CREDITED)));
    const shown = page.getByRole('list', { name: 'Balance changes' }).locator(`[data-ledger-id="${entry.Id}"]`);
    await shown.getByText('Deposit', { exact: true }).waitFor();
    expect(await shownCents(shown.getByTestId('ledger-amount'))).toBe(cents(Number(CREDITED)));
  });

  it('is asked to set up a payout address, binds one and waits out its cool-down', async () => {
    await verifyIdentity(account);
    await setSetting('payout_method_cooldown_hours', '0.002');

    await open(page, '/user');
    await page.getByRole('navigation', { name: 'Funds' }).getByRole('button', { name: 'Withdraw' }).click();
    const ask = page.getByRole('dialog', { name: 'Set up a payment account first' });
    await ask.getByRole('button', { name: 'Set up' }).click();
    await page.waitForURL(/#\/mine\/withdraw-way\?type=1$/);
    await page.getByRole('radiogroup', { name: 'Currency' }).getByRole('radio', { name: 'USDT (TRC20)' }).check();
    await page.getByRole('textbox', { name: 'Withdrawal address' }).fill(TRC20_ADDRESS);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/#\/mine\/coin-address-list$/);

    await open(page, '/mine/withdraw');
    const method = page.getByRole('radiogroup', { name: 'Pay out to' }).getByRole('radio', { name: new RegExp(TRC20_ADDRESS) });
    await method.waitFor();
    expect(await method.isDisabled()).toBe(true);
    await page
      .getByRole('radiogroup', { name: 'Pay out to' })
      .getByText(/^Usable from /)
      .waitFor();
    await screenshot(page, 'cashier-method-cooling-down-en');

    await expect
      .poll(
        async () => {
          await page.reload();
          await method.waitFor();
          return method.isEnabled();
        },
        { timeout: 60_000, interval: 2_000 },
      )
      .toBe(true);
    expect(await page.getByText(/^Usable from /).count()).toBe(0);
  });

  it('withdraws what the screen quotes; a double tap makes one request, approved live', async () => {
    const figures = await accountFigures(account.token);
    await page
      .getByRole('radiogroup', { name: 'Pay out to' })
      .getByRole('radio', { name: new RegExp(TRC20_ADDRESS) })
      .check();
    const amount = page.getByRole('spinbutton', { name: 'Amount (USD)' });
    await expect.poll(() => withdrawOutput(page, 'Available to withdraw').innerText()).toContain('480.50');
    await page.getByRole('button', { name: 'All' }).click();
    expect(await amount.inputValue()).toBe(figures.withdrawable.toFixed(2));

    await amount.fill(WITHDRAWN);
    const fee = await withdrawOutput(page, 'Fee').innerText();
    const received = await withdrawOutput(page, 'Estimated received').innerText();
    await screenshot(page, 'cashier-withdraw-form-en');
    await page.getByRole('button', { name: 'Withdraw now' }).dblclick();

    const records = page.getByRole('list', { name: 'Withdrawal records' });
    await records.waitFor();
    const server = await withdrawals(account.token);
    expect(server.total).toBe(1);
    const withdrawal = server.data[0]!;
    expect(withdrawal.number).toBe(Number(WITHDRAWN));
    expect(cents(Number(fee.replace(/[^\d.]/g, '')))).toBe(cents(withdrawal.fee));
    expect(cents(Number(received.replace(/[^\d.]/g, '')))).toBe(cents(withdrawal.real_number));

    expect(cents((await balanceFigures(account.token)).lock_balance)).toBe(cents(Number(WITHDRAWN)));
    await expect.poll(() => walletFigure(wallet, 'wallet-locked'), { timeout: 15_000 }).toBe(cents(Number(WITHDRAWN)));

    await records.getByRole('listitem').first().getByRole('button').click();
    const detail = page.getByRole('dialog', { name: 'Withdrawal details' });
    await detail.getByText('Progress').waitFor();
    await detail.getByText(withdrawal.timeline[0]!.status_name, { exact: true }).waitFor();
    await detail.getByRole('button', { name: 'Cancel withdrawal' }).waitFor();

    await asOperator(`/admin/api/withdrawals/${withdrawal.id}/approve`);
    const approved = (await withdrawals(account.token)).data[0]!;
    expect(approved.status).toBe(1);
    await detail.getByText(approved.timeline.at(-1)!.status_name, { exact: true }).waitFor({ timeout: 15_000 });
    expect(await detail.getByRole('button', { name: 'Cancel withdrawal' }).count()).toBe(0);
    await screenshot(page, 'cashier-withdrawal-completed-en');

    const left = cents(Number(CREDITED)) - cents(Number(WITHDRAWN));
    await expect.poll(() => walletFigure(wallet, 'wallet-balance'), { timeout: 15_000 }).toBe(left);
    await expect.poll(() => walletFigure(wallet, 'wallet-locked')).toBe(0);
    const balance = await balanceFigures(account.token);
    expect([cents(balance.balance), cents(balance.lock_balance)]).toEqual([left, 0]);

    await open(page, '/mine/history');
    const ledger = await api<Ledger>('/v1/api/main/accountLog/forexChange', account.token);
    const list = page.getByRole('list', { name: 'Balance changes' });
    for (const type of ['withdrawal', 'withdrawal_fee']) {
      const entry = ledger.data.find((candidate) => candidate.Type === type)!;
      expect(entry, type).toBeDefined();
      expect(await shownCents(list.locator(`[data-ledger-id="${entry.Id}"]`).getByTestId('ledger-amount'))).toBe(
        cents(entry.Value),
      );
    }
    const out = ledger.data.filter((entry) => entry.Type.startsWith('withdrawal')).map((entry) => cents(entry.Value));
    expect(out.reduce((sum, value) => sum + value, 0)).toBe(-cents(Number(WITHDRAWN)));
  });

  it('offline, a tap on Withdraw now sends nothing', async () => {
    await open(page, '/mine/withdraw');
    await page
      .getByRole('radiogroup', { name: 'Pay out to' })
      .getByRole('radio', { name: new RegExp(TRC20_ADDRESS) })
      .check();
    await page.getByRole('spinbutton', { name: 'Amount (USD)' }).fill('20');
    const attempted: string[] = [];
    const reached: string[] = [];
    const isDraw = (url: string) => new URL(url).pathname === '/api/account/draw';
    page.on('request', (request) => {
      if (request.method() === 'POST' && isDraw(request.url())) attempted.push(request.url());
    });
    page.on('requestfinished', (request) => {
      if (request.method() === 'POST' && isDraw(request.url())) reached.push(request.url());
    });

    await context.setOffline(true);
    await page.getByRole('button', { name: 'Withdraw now' }).click();
    // Refused on the phone at once: not even tried, and nothing is held to send later.
    await page.getByText('You are offline, so nothing was sent. Try again once you are back online.').waitFor();
    await context.setOffline(false);

    expect(attempted).toEqual([]);
    expect((await withdrawals(account.token)).total).toBe(1);
    expect(page.url()).toMatch(/#\/mine\/withdraw$/);

    // Back online, the user taps again: that tap, and only it, makes the withdrawal.
    await page.getByRole('button', { name: 'Withdraw now' }).click();
    await page.getByRole('list', { name: 'Withdrawal records' }).waitFor();
    await expect.poll(() => reached.length).toBe(1);
    const after = await withdrawals(account.token);
    expect(after.total).toBe(2);
    expect(after.data[0]).toMatchObject({ number: 20, status: 0 });
  });
});
