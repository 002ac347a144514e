import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backOfficeToken, createOperator, desk, menu, operatorCall, type OperatorEnrolment } from './backoffice.js';
import { declareWire, setSetting, verifyIdentity } from './cashier.js';
import {
  api,
  baseURL,
  launchBrowser,
  open,
  operatorToken,
  phone,
  registerRealUser,
  screenshot,
  signInAs,
  type RealAccount,
} from './support.js';

/*
 * Issue 17 items 9 to 12 as the trader and the operators see them: a deposit credited with another amount
 * than declared shows what was credited (and the declared amount beside it) on the phone and in the back
 * office; the wire deposit shows the payment reference and copies it; a withdrawal the trader cancelled
 * says "Cancelled by you"; an adjustment's internal note never reaches the trader's phone or mail.
 */

const TRC20_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const INTERNAL = 'Internal: chargeback case 4411, do not disclose';

interface Withdrawal {
  id: number;
  status: number;
  status_name: string;
}

/** The trader's mail, as support reads the outbox. */
async function mailOf(email: string): Promise<string> {
  const response = await fetch(`${baseURL()}/admin/api/outbox?${new URLSearchParams({ destination: email })}`, {
    headers: { lang: 'en', authorization: `Bearer ${operatorToken()}` },
  });
  const envelope = (await response.json()) as { data: { data: { subject: string; body: string }[] } };
  return JSON.stringify(envelope.data.data);
}

describe('the trader reads only client-facing words, and the amount credited', () => {
  let browser: Browser;
  let account: RealAccount;
  let uid: number;
  let financeA: OperatorEnrolment;
  let financeB: OperatorEnrolment;
  let phoneContext: BrowserContext;
  let phonePage: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    [account, financeA, financeB] = await Promise.all([
      registerRealUser('client-words'),
      createOperator('finance'),
      createOperator('finance', { handedTo: 'first' }),
    ]);
    uid = (account.user as unknown as { uid: number }).uid;
    ({ context: phoneContext, page: phonePage } = await phone(browser, 'en'));
    await phoneContext.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    await signInAs(phonePage, account);
  });

  afterAll(async () => {
    await setSetting('payout_method_cooldown_hours', '24');
    await browser?.close();
  });

  it('the wire deposit shows the payment reference, the UID, and its Copy button copies it', async () => {
    await open(phonePage, '/mine/charge');
    await phonePage.getByRole('tab', { name: 'Bank wire' }).click();
    const reference = phonePage.getByRole('textbox', { name: 'Payment reference' }).first();
    await expect.poll(() => reference.innerText(), { timeout: 15_000 }).toBe(String(uid));
    await phonePage.getByRole('button', { name: 'Copy Payment reference' }).first().click();
    await phonePage.getByText('Copied').waitFor();
    expect(await phonePage.evaluate(() => navigator.clipboard.readText())).toBe(String(uid));
    await phonePage.getByText('Write this reference, your UID, in your transfer', { exact: false }).first().waitFor();
    await screenshot(phonePage, 'client-words-wire-reference');
  });

  it('a deposit credited with another amount shows what was credited, the declared amount beside it', async () => {
    const id = await declareWire(account.token, '500');
    const finance = await desk(browser, financeA);
    const approved = await operatorCall(await backOfficeToken(finance.page), 'POST', `/admin/api/deposits/${id}/approve`, {
      credited_amount: 450,
    });
    expect(approved.code).toBe(1);

    await open(phonePage, '/mine/charge/records');
    const row = phonePage.locator(`[data-deposit-id="${id}"]`);
    await expect
      .poll(() => row.locator('.deposit-amount').innerText(), { timeout: 15_000 })
      .toMatch(/^450\.00 USD\s*Declared 500\.00$/);
    await row.getByText('Completed', { exact: true }).waitFor();
    await screenshot(phonePage, 'client-words-deposit-credited');

    const { page } = finance;
    await menu(page, 'Deposits');
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.locator('.ant-select-item-option', { hasText: /^Credited$/ }).click();
    const search = page.getByRole('searchbox', { name: 'Search by UID' });
    await search.fill(String(uid));
    await search.press('Enter');
    const cell = page.getByTestId(`row-${id}`).getByTestId('deposit-amount');
    await expect.poll(() => cell.innerText(), { timeout: 20_000 }).toMatch(/^450\.00 USD\s*\(declared 500\.00\)$/);
    await screenshot(page, 'client-words-deposit-credited-back-office');
    await finance.context.close();
  });

  it('a withdrawal the trader cancelled says "Cancelled by you", never "Invalid"', async () => {
    await verifyIdentity(account);
    await setSetting('payout_method_cooldown_hours', '0');
    const currencies = await api<{ id: number; code: string; protocol: string }[]>(
      '/api/account/draw_symbol_list?type=1',
      account.token,
    );
    const usdt = currencies.find((currency) => currency.code === 'USDT' && currency.protocol === 'TRC20')!;
    const method = await api<{ id: number }>('/api/wallet/bind_draw_method', account.token, {
      method: 'POST',
      body: { type: 1, draw_id: usdt.id, dc_address: TRC20_ADDRESS },
    });
    await api('/api/account/draw', account.token, {
      method: 'POST',
      body: { draw_currency_id: usdt.id, number: '100', draw_method_id: method.id },
    });

    await open(phonePage, '/mine/withdraw/records');
    await phonePage.getByRole('list', { name: 'Withdrawal records' }).getByRole('listitem').first().getByRole('button').click();
    const detail = phonePage.getByRole('dialog', { name: 'Withdrawal details' });
    await detail.getByRole('button', { name: 'Cancel withdrawal' }).click();
    await phonePage.locator('.adm-dialog').getByRole('button', { name: 'Cancel withdrawal' }).click();
    await phonePage.getByText('Withdrawal cancelled').waitFor();

    const [cancelled] = (await api<{ data: Withdrawal[] }>('/api/account/draw_list', account.token)).data;
    expect(cancelled).toMatchObject({ status: 3, status_name: 'Cancelled by you' });
    await open(phonePage, '/mine/withdraw/records');
    const list = phonePage.getByRole('list', { name: 'Withdrawal records' });
    await list.getByText('Cancelled by you', { exact: true }).first().waitFor({ timeout: 15_000 });
    expect(await list.innerText()).not.toContain('Invalid');
    await screenshot(phonePage, 'client-words-withdrawal-cancelled');
  });

  it('an adjustment shows the trader its client-facing text in the history and the e-mail, never the internal note', async () => {
    const client = `Goodwill credit for the delayed payout ${Date.now()}`;
    const maker = await desk(browser, financeA);
    await menu(maker.page, 'Adjustments');
    await maker.page.getByLabel('UID', { exact: true }).fill(String(uid));
    await maker.page.getByLabel('Amount (USD)', { exact: true }).fill('15');
    await maker.page.getByLabel('Text shown to the client', { exact: true }).fill(client);
    await maker.page.getByLabel('Internal note', { exact: true }).fill(INTERNAL);
    await maker.page.getByRole('button', { name: 'Propose' }).click();
    await maker.page.getByText('Adjustment proposed; a second operator must approve it.').waitFor();
    const listed = await operatorCall<{ data: { id: number; reason: string; internal_note: string | null }[] }>(
      await backOfficeToken(maker.page),
      'GET',
      '/admin/api/adjustments?status=0&page_size=100',
    );
    const proposal = listed.data.data.find((row) => row.reason === client)!;
    expect(proposal.internal_note).toBe(INTERNAL);
    await maker.page.getByTestId(`row-${proposal.id}`).getByText(INTERNAL).waitFor();
    await maker.context.close();

    const checker = await desk(browser, financeB);
    const approved = await operatorCall(
      await backOfficeToken(checker.page),
      'POST',
      `/admin/api/adjustments/${proposal.id}/approve`,
      {},
    );
    expect(approved.code).toBe(1);
    await checker.context.close();

    await open(phonePage, '/mine/history');
    const entry = phonePage.locator('[data-ledger-type="adjustment"]').first();
    await entry.getByText(`Balance adjustment: ${client}`).waitFor({ timeout: 15_000 });
    expect(await phonePage.getByRole('list').first().innerText()).not.toContain('chargeback');
    await screenshot(phonePage, 'client-words-adjustment-history');

    await expect.poll(() => mailOf(account.user.email), { timeout: 15_000 }).toContain(client);
    expect(await mailOf(account.user.email)).not.toContain('chargeback');
  });
});
