import type { AdjustmentView } from '@pipwise/domain';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backOfficeToken, createOperator, desk, menu, operatorCall, type OperatorEnrolment } from './backoffice.js';
import { declareWire, proofImage, setSetting, upload } from './cashier.js';
import { api, cents, launchBrowser, open, phone, registerRealUser, screenshot, signInAs, type RealAccount } from './support.js';

/*
 * The back office's money desks, each decision made on an operator's screen and followed on the user's
 * phone and in the server's figures: a wire deposit credited from the Deposits queue (a double click
 * credits once), an identity verified from the KYC queue, a withdrawal rejected with a reason from the
 * Withdrawals queue, and a manual adjustment that its maker cannot approve and a second operator does.
 */

interface WireChannel {
  id: number;
  currency_code: string;
}
interface Deposit {
  id: number;
  number: number;
  credited_number: number | null;
  status: number;
}
interface Withdrawal {
  id: number;
  number: number;
  status: number;
  timeline: { status: number; status_name: string; note: string | null }[];
}
interface Ledger {
  data: { Id: number; Value: number; Type: string }[];
}

const DECLARED = '500';
const WITHDRAWN = '100';
const ADJUSTED = '-12.34';
const TRC20_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
const REJECTION = 'The payout address failed our screening';
const VOID_REASON = 'Declared twice; the other declaration was credited';

const balanceFigures = (token: string) => api<{ balance: number; lock_balance: number }>('/v1/api/main/wallet/getBalance', token);
const ledger = (token: string) => api<Ledger>('/v1/api/main/accountLog/forexChange', token);

/** Narrows a review queue to one user and opens one of its items in the drawer. */
async function openQueueItem(page: Page, uid: number, id: number): Promise<Locator> {
  const search = page.getByRole('searchbox', { name: 'Search by UID' });
  await search.fill(String(uid));
  await search.press('Enter');
  await page.getByTestId(`row-${id}`).click({ timeout: 20_000 });
  const drawer = page.getByRole('dialog', { name: `Item #${id}` });
  await drawer.waitFor();
  return drawer;
}

/** The value cell of a bordered description list's row. */
const described = (scope: Locator, label: string) =>
  scope
    .locator('tr', { has: scope.page().locator('th', { hasText: new RegExp(`^${label}$`) }) })
    .locator('td')
    .first();

/** Whether an image has been drawn from real bytes (a broken or pending one has no natural size). */
const drawn = (image: Locator) =>
  image.evaluate((element) => (element as HTMLImageElement).complete && (element as HTMLImageElement).naturalWidth > 0);

/** A figure as shown ("1,234.56") in cents. */
const shownCents = async (locator: Locator) => cents(Number((await locator.innerText()).replace(/[^\d.-]/g, '')));

const walletFigure = (page: Page, id: string) => shownCents(page.getByRole('region', { name: 'Account funds' }).getByTestId(id));

describe('the back office moves money, and the phone and the server follow', () => {
  let browser: Browser;
  let account: RealAccount;
  let uid: number;
  let financeA: OperatorEnrolment;
  let financeB: OperatorEnrolment;
  let compliance: OperatorEnrolment;
  /** The user's phone, and a second tab left on the wallet: it must follow every decision by itself. */
  let phoneContext: BrowserContext;
  let phonePage: Page;
  let wallet: Page;
  let financeDesk: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    browser = await launchBrowser();
    [account, financeA, financeB, compliance] = await Promise.all([
      registerRealUser('back-office-money'),
      createOperator('finance'),
      createOperator('finance', { handedTo: 'first' }),
      createOperator('compliance'),
    ]);
    uid = (account.user as unknown as { uid: number }).uid;
    ({ context: phoneContext, page: phonePage } = await phone(browser, 'en'));
    await signInAs(phonePage, account);
    wallet = await phoneContext.newPage();
  });

  afterAll(async () => {
    await setSetting('payout_method_cooldown_hours', '24');
    await browser?.close();
  });

  it('a finance operator signs in with a TOTP code and credits a wire deposit declared on the phone; a double click credits once', async () => {
    // The user declares a bank wire with its proof on the phone's deposit screen.
    await open(phonePage, '/mine/charge');
    await phonePage.getByRole('tab', { name: 'Bank wire' }).click();
    const [channel] = await api<WireChannel[]>('/api/quickCharge/wire_info', account.token);
    await phonePage.getByRole('textbox', { name: `Amount (${channel!.currency_code})` }).fill(DECLARED);
    await phonePage
      .locator('input[type=file][aria-label="Payment proof"]')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: await proofImage('wire receipt') });
    await phonePage.getByRole('img', { name: 'Payment proof' }).waitFor();
    await phonePage.getByRole('button', { name: 'Submit deposit' }).click();
    await phonePage.getByRole('list', { name: 'Deposit records' }).waitFor();
    const deposit = (await api<{ data: Deposit[] }>('/api/quickCharge/quick_ist', account.token)).data[0]!;
    expect(deposit).toMatchObject({ number: Number(DECLARED), status: 0, credited_number: null });

    await open(wallet, '/mine/wallet');
    await expect.poll(() => walletFigure(wallet, 'wallet-balance'), { timeout: 15_000 }).toBe(0);

    financeDesk = await desk(browser, financeA);
    const { page } = financeDesk;
    await menu(page, 'Deposits');
    const drawer = await openQueueItem(page, uid, deposit.id);

    // The proof as the user sent it, and the account it belongs to.
    const proof = drawer.getByRole('img', { name: 'Payment proof' });
    await proof.waitFor({ timeout: 15_000 });
    await expect.poll(() => drawn(proof)).toBe(true);
    await expect.poll(() => described(drawer, 'E-mail').innerText()).toBe(account.user.email);
    expect(await described(drawer, 'UID').innerText()).toBe(String(uid));
    expect(await shownCents(described(drawer, 'Balance'))).toBe(0);
    expect(await described(drawer, 'Identity').innerText()).toBe('Not verified');
    expect(await shownCents(described(drawer, 'Declared amount'))).toBe(cents(Number(DECLARED)));
    // The amount to credit starts as the declared one.
    expect(Number(await drawer.getByRole('textbox', { name: 'Credited amount' }).inputValue())).toBe(Number(DECLARED));
    await screenshot(page, 'back-office-deposit-review');

    await drawer.getByRole('button', { name: 'Approve', exact: true }).dblclick();
    await drawer.waitFor({ state: 'hidden', timeout: 15_000 });

    const credited = (await api<{ data: Deposit[] }>('/api/quickCharge/quick_ist', account.token)).data[0]!;
    expect(credited).toMatchObject({ id: deposit.id, status: 1, credited_number: Number(DECLARED) });
    // The wallet tab, never reloaded, shows the credit; it is what the server holds.
    await expect.poll(() => walletFigure(wallet, 'wallet-balance'), { timeout: 15_000 }).toBe(cents(Number(DECLARED)));
    expect(cents((await balanceFigures(account.token)).balance)).toBe(cents(Number(DECLARED)));
    // Two clicks, one credit.
    const deposits = (await ledger(account.token)).data.filter((entry) => entry.Type === 'deposit');
    expect(deposits.map((entry) => cents(entry.Value))).toEqual([cents(Number(DECLARED))]);
  });

  it('two finance operators on one deposit: a claim shows who holds it, a release frees it, a void needs a reason, and the stale screen changes nothing', async () => {
    const before = await balanceFigures(account.token);
    const depositId = await declareWire(account.token, '250');
    const { page } = financeDesk;
    await page.reload(); // the queue as it is now, not as the first journey left it
    await menu(page, 'Deposits');
    const held = await openQueueItem(page, uid, depositId);
    await held.getByRole('button', { name: 'Claim', exact: true }).click();
    await held.getByText(/^You hold this item until/).waitFor();
    const queueItem = async () =>
      (
        await operatorCall<{ data: { id: number; status: number; claim: { operator: string } | null }[] }>(
          await backOfficeToken(page),
          'GET',
          `/admin/api/deposits?status=0&uid=${uid}`,
        )
      ).data.data.find((item) => item.id === depositId);
    expect((await queueItem())?.claim?.operator).toBe(financeA.email);

    // The second operator sees who holds it and can do nothing with it on screen; the server agrees.
    const other = await desk(browser, financeB);
    await menu(other.page, 'Deposits');
    let seen = await openQueueItem(other.page, uid, depositId);
    await seen.getByText(`Held by ${financeA.email} until`, { exact: false }).waitFor();
    for (const name of ['Claim', 'Approve', 'Reject', 'Void'])
      expect(await seen.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    const taken = await operatorCall(await backOfficeToken(other.page), 'POST', `/admin/api/claims/deposits/${depositId}`, {});
    expect([taken.code, taken.msg]).toEqual([1009, `${financeA.email} is reviewing this item.`]);

    // Released, it is free for the second operator, who voids it with a reason (required).
    await held.getByRole('button', { name: 'Release', exact: true }).click();
    await held.getByRole('button', { name: 'Claim', exact: true }).waitFor();
    expect((await queueItem())?.claim ?? null).toBeNull();
    await other.page.reload();
    await menu(other.page, 'Deposits');
    seen = await openQueueItem(other.page, uid, depositId);
    await seen.getByRole('button', { name: 'Void', exact: true }).click();
    const ask = other.page.getByRole('dialog', { name: 'Void — reason for the user' });
    await ask.getByRole('button', { name: 'Void', exact: true }).click();
    await ask.getByText('Enter the reason; the user reads it.').waitFor();
    await ask.getByRole('textbox', { name: 'Reason' }).fill(VOID_REASON);
    await ask.getByRole('button', { name: 'Void', exact: true }).click();
    await seen.waitFor({ state: 'hidden', timeout: 15_000 });
    await other.context.close();
    const voided = (await api<{ data: Deposit[] }>('/api/quickCharge/quick_ist', account.token)).data.find(
      (deposit) => deposit.id === depositId,
    );
    expect(voided).toMatchObject({ status: 3, credited_number: null });

    // The first operator's screen still offers Approve: the server refuses it, the screen says why and
    // closes the item, and no money moves.
    await held.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByText('This deposit has already been decided; nothing was changed').waitFor();
    await held.waitFor({ state: 'hidden', timeout: 15_000 });
    expect(await balanceFigures(account.token)).toEqual(before);
    const credits = (await ledger(account.token)).data.filter((entry) => entry.Type === 'deposit');
    expect(credits.map((entry) => cents(entry.Value))).toEqual([cents(Number(DECLARED))]);
  });

  it('a compliance operator verifies the identity the user submitted, seeing both sides of the ID', async () => {
    const [front, back] = [
      await upload(account.token, await proofImage('front')),
      await upload(account.token, await proofImage('back')),
    ];
    await api('/api/user_real/real_name', account.token, {
      method: 'POST',
      body: { name: 'Chan Tai Man', card_id: 'A7654321', front_pic: front.id, reverse_pic: back.id },
    });
    expect((await api<{ review_status: number }>('/api/user_real/center', account.token)).review_status).toBe(1);

    const { context, page } = await desk(browser, compliance);
    await menu(page, 'Identity (KYC)');
    const drawer = await openQueueItem(page, uid, account.user.id);
    for (const side of ['ID front', 'ID back']) {
      const image = drawer.getByRole('img', { name: side });
      await image.waitFor({ timeout: 15_000 });
      await expect.poll(() => drawn(image), { message: side }).toBe(true);
    }
    expect(await described(drawer, 'Legal name').innerText()).toBe('Chan Tai Man');
    expect(await drawer.getByTestId('card-id').innerText()).toContain('4321');
    expect(await drawer.getByTestId('card-id').innerText()).not.toContain('A7654321');
    await screenshot(page, 'back-office-kyc-review');

    await drawer.getByRole('button', { name: 'Approve', exact: true }).click();
    await drawer.waitFor({ state: 'hidden', timeout: 15_000 });
    const center = await api<{ review_status: number }>('/api/user_real/center', account.token);
    expect(center.review_status).toBe(2);
    await context.close();
  });

  it('a finance operator rejects a withdrawal with a reason: the lock is released and the phone shows the reason', async () => {
    // A payout address usable at once (no cool-down for this journey; restored afterwards).
    await setSetting('payout_method_cooldown_hours', '0');
    const currencies = await api<{ id: number; code: string; protocol: string }[]>(
      '/api/account/draw_symbol_list?type=1',
      account.token,
    );
    const usdt = currencies.find((currency) => currency.code === 'USDT' && currency.protocol === 'TRC20')!;
    await api('/api/wallet/bind_draw_method', account.token, {
      method: 'POST',
      body: { type: 1, draw_id: usdt.id, dc_address: TRC20_ADDRESS },
    });

    await open(phonePage, '/mine/withdraw');
    await phonePage.getByRole('radiogroup', { name: 'Currency' }).getByRole('radio', { name: 'USDT (TRC20)' }).check();
    const method = phonePage
      .getByRole('radiogroup', { name: 'Pay out to' })
      .getByRole('radio', { name: new RegExp(TRC20_ADDRESS) });
    await expect.poll(() => method.isEnabled(), { timeout: 15_000 }).toBe(true);
    await method.check();
    await phonePage.getByRole('spinbutton', { name: 'Amount (USD)' }).fill(WITHDRAWN);
    await phonePage.getByRole('button', { name: 'Withdraw now' }).click();
    await phonePage.getByRole('list', { name: 'Withdrawal records' }).waitFor();
    const withdrawal = (await api<{ data: Withdrawal[] }>('/api/account/draw_list', account.token)).data[0]!;
    expect(withdrawal).toMatchObject({ number: Number(WITHDRAWN), status: 0 });
    expect(cents((await balanceFigures(account.token)).lock_balance)).toBe(cents(Number(WITHDRAWN)));
    await expect.poll(() => walletFigure(wallet, 'wallet-locked'), { timeout: 15_000 }).toBe(cents(Number(WITHDRAWN)));

    const { page } = financeDesk;
    await menu(page, 'Withdrawals');
    const drawer = await openQueueItem(page, uid, withdrawal.id);
    await expect.poll(() => described(drawer, 'Address').innerText()).toBe(TRC20_ADDRESS);
    expect(await described(drawer, 'E-mail').innerText()).toBe(account.user.email);
    await drawer.getByRole('button', { name: 'Reject', exact: true }).click();
    const ask = page.getByRole('dialog', { name: 'Reject — reason for the user' });
    await ask.getByRole('textbox', { name: 'Reason' }).fill(REJECTION);
    await ask.getByRole('button', { name: 'Reject', exact: true }).click();
    await ask.waitFor({ state: 'hidden', timeout: 15_000 });
    await drawer.waitFor({ state: 'hidden', timeout: 15_000 });

    const rejected = (await api<{ data: Withdrawal[] }>('/api/account/draw_list', account.token)).data[0]!;
    expect(rejected.status).toBe(2);
    expect(rejected.timeline.at(-1)!.note).toBe(REJECTION);
    const figures = await balanceFigures(account.token);
    expect([cents(figures.balance), cents(figures.lock_balance)]).toEqual([cents(Number(DECLARED)), 0]);
    await expect.poll(() => walletFigure(wallet, 'wallet-locked'), { timeout: 15_000 }).toBe(0);

    await open(phonePage, '/mine/withdraw/records');
    await phonePage.getByRole('list', { name: 'Withdrawal records' }).getByRole('listitem').first().getByRole('button').click();
    const detail = phonePage.getByRole('dialog', { name: 'Withdrawal details' });
    await detail.getByText(rejected.timeline.at(-1)!.status_name, { exact: true }).waitFor();
    await detail.getByText(REJECTION, { exact: true }).waitFor();
    await screenshot(phonePage, 'back-office-withdrawal-rejected-phone');
  });

  it('a manual adjustment is posted only when a second finance operator approves it', async () => {
    const { page } = financeDesk;
    const before = await balanceFigures(account.token);
    const reason = `Fee refund ${Date.now()}`;

    await menu(page, 'Adjustments');
    await page.getByLabel('UID', { exact: true }).fill(String(uid));
    await page.getByLabel('Amount (USD)', { exact: true }).fill(ADJUSTED);
    await page.getByLabel('Text shown to the client', { exact: true }).fill(reason);
    await page.getByRole('button', { name: 'Propose' }).click();
    await page.getByText('Adjustment proposed; a second operator must approve it.').waitFor();

    const token = await backOfficeToken(page);
    const listed = await operatorCall<{ data: AdjustmentView[] }>(token, 'GET', '/admin/api/adjustments?status=0&page_size=100');
    const proposal = listed.data.data.find((row) => row.reason === reason)!;
    expect(proposal).toMatchObject({ uid, amount: Number(ADJUSTED), status: 0, maker: financeA.email });

    // The maker sees their proposal but cannot approve it, and the server refuses them as well.
    const ownRow = page.getByTestId(`row-${proposal.id}`);
    await ownRow.getByText('Your proposal: a second operator must approve it.').waitFor({ timeout: 15_000 });
    expect(await ownRow.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
    const refused = await operatorCall(token, 'POST', `/admin/api/adjustments/${proposal.id}/approve`, {});
    expect(refused.code).toBe(1002);
    expect(cents((await balanceFigures(account.token)).balance)).toBe(cents(before.balance));

    const checker = await desk(browser, financeB);
    await menu(checker.page, 'Adjustments');
    const row = checker.page.getByTestId(`row-${proposal.id}`);
    await row.getByRole('button', { name: 'Approve' }).click({ timeout: 20_000 });
    await checker.page.getByText('Approved and posted to the ledger.').waitFor();
    // Once decided it leaves the "waiting" list; in "All" it reads as posted, with both names.
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    await checker.page.getByRole('combobox', { name: 'Status' }).click();
    await checker.page.locator('.ant-select-item-option', { hasText: /^All$/ }).click();
    await row.getByText('Approved and posted', { exact: true }).waitFor({ timeout: 15_000 });
    await row.getByText(financeB.email, { exact: true }).waitFor();
    await screenshot(checker.page, 'back-office-adjustment-approved');
    await checker.context.close();

    const after = await balanceFigures(account.token);
    expect(cents(after.balance) - cents(before.balance)).toBe(cents(Number(ADJUSTED)));
    const adjustments = (await ledger(account.token)).data.filter((entry) => entry.Type === 'adjustment');
    expect(adjustments.map((entry) => cents(entry.Value))).toEqual([cents(Number(ADJUSTED))]);
    await expect.poll(() => walletFigure(wallet, 'wallet-balance'), { timeout: 15_000 }).toBe(cents(after.balance));
  });
});
