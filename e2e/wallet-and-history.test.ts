import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundThroughDeposit } from './cashier.js';
import {
  api,
  cents,
  hasHorizontalScroll,
  launchBrowser,
  open,
  openMarket,
  phone,
  screenshot,
  registerRealUser,
  signInAs,
  type RealAccount,
} from './support.js';

interface LedgerPage {
  data: { Id: number; Value: number; BalanceAfter: number; Type: string }[];
  total: number;
}

interface Figures {
  balance: number;
  lock_balance: number;
  current_margin: number;
}

/** The leverage options a pair offers (trade_list's HasForexMultiple). */
interface PairLeverage {
  Id: number;
  HasForexMultiple: { Value: number }[];
}

/** A shown figure ("1,234.56") in cents. */
const shownCents = (text: string) => cents(Number(text.replace(/,/g, '')));

/** Controls on the visible screen smaller than a finger (44×44 px). */
const smallTargets = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('a, button, [role="button"]'))
      .map((element) => ({ element, rect: element.getBoundingClientRect() }))
      .filter(({ element, rect }) => rect.width > 0 && rect.height > 0 && !element.closest('[aria-hidden="true"]'))
      .filter(({ rect }) => rect.width < 44 || rect.height < 44)
      .map(({ element, rect }) => `${element.innerText || element.getAttribute('aria-label')} ${rect.width}×${rect.height}`),
  );

const signed = (value: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, signDisplay: 'exceptZero' }).format(value);

describe('the wallet and the account history', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a real account reaches its wallet and history from the user center, in English and Arabic', async () => {
    const account = await registerRealUser('wallet');
    const { context, page } = await phone(browser, 'en');
    await signInAs(page, account);

    await open(page, '/user');
    await expect.poll(() => page.getByTestId('real-name-status').innerText()).toBe('Not verified');
    expect(await smallTargets(page), '/user').toEqual([]);
    await page.getByRole('navigation', { name: 'Funds' }).getByRole('button', { name: 'Wallet' }).click();
    await page.waitForURL(/#\/mine\/wallet$/);
    const figures = page.getByRole('region', { name: 'Account funds' });
    for (const id of [
      'wallet-balance',
      'wallet-locked',
      'wallet-withdrawable',
      'wallet-equity',
      'wallet-used-margin',
      'wallet-free-margin',
    ]) {
      await expect.poll(() => figures.getByTestId(id).innerText(), { message: id }).toBe('0.00');
    }
    await page.getByRole('button', { name: 'Deposit' }).waitFor();
    await page.getByRole('button', { name: 'Withdraw' }).waitFor();
    for (const width of [360, 430]) {
      await page.setViewportSize({ width, height: 844 });
      expect(await hasHorizontalScroll(page), `wallet at ${width} px`).toBe(false);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'wallet-en');
    expect(await smallTargets(page), '/mine/wallet').toEqual([]);

    await page.getByRole('navigation', { name: 'Wallet' }).getByText('Account history').click();
    await page.waitForURL(/#\/mine\/history$/);
    await page.getByText('No balance changes yet').waitFor();
    await context.close();

    const arabic = await phone(browser, 'ar');
    await signInAs(arabic.page, account);
    for (const screen of ['/mine/wallet', '/mine/history']) {
      await open(arabic.page, screen);
      await arabic.page.locator('.wallet-figure, .state-block').first().waitFor();
      expect(await arabic.page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      expect(await arabic.page.locator('body').innerText()).not.toMatch(/\b(wallet|history|user)\.\w+/);
      expect(await hasHorizontalScroll(arabic.page), screen).toBe(false);
      // Each figure reads from the start (right) side of its label, as the labels do.
      const offStart = await arabic.page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>('.wallet-figures > div')).flatMap((cell) => {
          const label = cell.querySelector('dt')?.getBoundingClientRect();
          const digits = document.createRange();
          digits.selectNodeContents(cell.querySelector('.wallet-figure') ?? cell);
          return label && Math.abs(digits.getBoundingClientRect().right - label.right) <= 2 ? [] : [cell.innerText];
        }),
      );
      expect(offStart, screen).toEqual([]);
      await screenshot(arabic.page, `wallet-ar${screen.replace(/\//g, '-')}`);
    }
    await arabic.context.close();
  });

  it('a funded account trading sees its margin and reservation in the wallet, and what may leave is the smaller of unreserved cash and free margin', async () => {
    const account = await registerRealUser('wallet');
    await fundThroughDeposit(account.token, '10000');
    const pair = await openMarket();
    const leverage = (await api<PairLeverage[]>('/v1/api/forex/trade_list')).find((candidate) => candidate.Id === pair.Id)!
      .HasForexMultiple[0]!.Value;
    const order = (body: Record<string, unknown>) =>
      api('/v1/api/forex/submit', account.token, {
        method: 'POST',
        body: { type: 1, cont: String(pair.ForexMinCont), forex_id: pair.Id, multiple: leverage, ...body },
      });
    await order({ status: 1 });
    // A buy limit at half the price waits: its reservation is locked money.
    await order({ status: 0, target_price: (pair.ForexQuotations.Ask / 2).toFixed(pair.PricePrecision) });
    const server = await api<Figures>('/v1/api/main/account/forexDetail', account.token);
    expect(server.current_margin).toBeGreaterThan(0);
    expect(server.lock_balance).toBeGreaterThan(0);

    const { context, page } = await phone(browser, 'en');
    await signInAs(page, account);
    await open(page, '/mine/wallet');
    const figures = page.getByRole('region', { name: 'Account funds' });
    const shown = (id: string) => figures.getByTestId(id).innerText();
    await expect.poll(() => shown('wallet-balance').then(shownCents)).toBe(cents(server.balance));
    await expect.poll(() => shown('wallet-locked').then(shownCents)).toBe(cents(server.lock_balance));
    await expect.poll(() => shown('wallet-used-margin').then(shownCents)).toBe(cents(server.current_margin));
    // One reading of the screen: the figures move with the prices, the rule holds in each state.
    const reading = await figures.evaluate((element): Record<string, string> =>
      Object.fromEntries(
        Array.from(element.querySelectorAll<HTMLElement>('[data-testid]')).map(
          (figure) => [figure.dataset.testid ?? '', figure.innerText] as const,
        ),
      ),
    );
    const at = (id: string) => shownCents(reading[id] ?? '');
    const mayLeave = Math.max(0, Math.min(at('wallet-balance') - at('wallet-locked'), at('wallet-free-margin')));
    // Free margin is shown rounded, what may leave is rounded down: they differ by a cent at most.
    expect(Math.abs(at('wallet-withdrawable') - mayLeave)).toBeLessThanOrEqual(1);
    expect(at('wallet-withdrawable')).toBeLessThan(cents(server.balance - server.lock_balance));
    await screenshot(page, 'wallet-trading-en');

    await page.getByRole('navigation', { name: 'Wallet' }).getByText('Account history').click();
    await page.waitForURL(/#\/mine\/history$/);
    const list = page.getByRole('list', { name: 'Balance changes' });
    const ledger = await api<LedgerPage>('/v1/api/main/accountLog/forexChange', account.token);
    expect(ledger.data.map((entry) => entry.Type)).toContain('deposit');
    for (const entry of ledger.data) {
      const row = list.locator(`[data-ledger-id="${entry.Id}"]`);
      await expect.poll(() => row.getByTestId('ledger-amount').innerText()).toBe(signed(entry.Value));
      await row.getByText(`Balance after: ${signed(entry.BalanceAfter).replace('+', '')}`).waitFor();
    }
    await list.locator('[data-ledger-type="deposit"]').getByText('Deposit', { exact: true }).waitFor();
    await screenshot(page, 'history-trading-en');
    await context.close();
  });

  it('a demo account sees its ledger but is told money screens need a real account', async () => {
    const demo = await api<RealAccount>('/api/user/createAccountDemoForU');
    const ledger = await api<LedgerPage>('/v1/api/main/accountLog/forexChange', demo.token);
    const grant = ledger.data.find((entry) => entry.Type === 'demo_grant');
    expect(grant).toBeDefined();

    const { context, page } = await phone(browser, 'en');
    await page.addInitScript(
      (saved) => localStorage.setItem('pipwise.session', saved),
      JSON.stringify({ state: demo, version: 0 }),
    );
    await open(page, '/user');
    expect(await page.getByTestId('real-name-status').count()).toBe(0);

    for (const name of ['Deposit', 'Withdraw', 'Wallet']) {
      await page.getByRole('navigation', { name: 'Funds' }).getByRole('button', { name }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Please register or log in to a real account').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).hash).toBe('#/user');
    }
    await page.getByText('Real-name verification').click();
    await page.getByRole('dialog').getByText('Please register or log in to a real account').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

    await page.getByRole('navigation', { name: 'Funds' }).getByRole('button', { name: 'Account history' }).click();
    await page.waitForURL(/#\/mine\/history$/);
    const row = page
      .getByRole('list', { name: 'Balance changes' })
      .getByRole('listitem')
      .filter({ hasText: 'Demo starting balance' });
    await expect.poll(() => row.getByTestId('ledger-amount').innerText()).toBe(signed(grant!.Value));
    await row.getByText(`Balance after: ${signed(grant!.BalanceAfter).replace('+', '')}`).waitFor();
    await screenshot(page, 'history-demo-en');

    await open(page, '/mine/wallet');
    await page.getByText('Please register or log in to a real account').waitFor();
    await context.close();
  });
});
