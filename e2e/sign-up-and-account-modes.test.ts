import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundThroughDeposit, setSetting } from './cashier.js';
import {
  answerSignUpQuestions,
  api,
  desktop,
  fillSignUpAccount,
  inSight,
  launchBrowser,
  open,
  openMarket,
  phone,
  screenshot,
  storedToken,
} from './support.js';

interface UserView {
  uid: number;
  is_demo: number;
  country: string;
  risk_disclosure_version: number | null;
  risk_disclosure_due: number;
}

const userOf = (token: string) => api<UserView>('/api/user/info', token);

/** The sessions the app holds: the one in use and the one kept for the switch. */
const held = (page: Page) =>
  page.evaluate(() => {
    const saved = JSON.parse(localStorage.getItem('pipwise.session') ?? '{}') as {
      state?: { token?: string; kept?: { token: string } | null };
    };
    return { token: saved.state?.token, kept: saved.state?.kept?.token };
  });

/**
 * The mode the screen shows in `scope` (its colour follows data-mode), as a word and as the mode; the word
 * only if the person sees it, not merely somewhere in the page.
 */
const shownMode = async (page: Page, scope: string) => {
  const mode = page.locator(`${scope} .account-mode`);
  await mode.waitFor();
  const label = mode.locator('.account-mode-label');
  return { mode: await mode.getAttribute('data-mode'), label: (await inSight(label)) ? await label.innerText() : 'unseen' };
};

/**
 * The journey at both sizes, side by side (a fresh person each). The header with the switch: the home
 * screen's on a phone; on a desktop the trader's, the screen that has the whole window there.
 */
const VIEWPORTS = [
  { name: '390×844 phone', size: 'phone', open: phone, header: { route: '/', scope: '.home-header' } },
  { name: '1440×900 desktop', size: 'desktop', open: desktop, header: { route: '/trade', scope: '.terminal .trade-header' } },
] as const;

describe('sign-up as brokers must, and one tap between demo and real', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it.concurrent.for(VIEWPORTS.map((viewport) => [viewport.name, viewport] as const))(
    'on a %s: signs up choosing a country (a restricted one refused with the policy notice) and accepting the disclosure, then switches demo ↔ real and back without a login',
    async ([, viewport], { expect }) => {
      const email = `modes-${viewport.size}-${process.pid}-${Date.now()}@example.com`;
      const { context, page } = await viewport.open(browser, 'en');
      const { header, size } = viewport;

      await open(page, '/register');
      await fillSignUpAccount(page, email);

      // A country the service is not provided to is refused with the policy notice, before anything is sent.
      const country = page.getByRole('combobox', { name: 'Country of residence' });
      await country.selectOption({ label: 'North Korea' });
      await page.getByRole('button', { name: 'Register' }).click();
      await page
        .getByRole('alert')
        .filter({ hasText: 'Our service is not provided to North Korea, Israel, China, Vanuatu, and Cuba.' })
        .waitFor();
      await page.getByRole('alert').filter({ hasText: 'Read the risk disclosure and accept it' }).waitFor();
      expect(page.url()).toMatch(/#\/register$/);

      // Read the disclosure in full and accept it from there.
      await country.selectOption({ label: 'Germany' });
      await page.getByRole('button', { name: 'Read the risk disclosure' }).click();
      await page.getByRole('heading', { name: 'Risk disclosure' }).waitFor();
      await page.getByText('Version 1', { exact: true }).waitFor();
      await screenshot(page, `sign-up-risk-disclosure-${size}`);
      await page.getByRole('button', { name: 'I accept' }).click();
      await page.getByRole('button', { name: 'Register' }).click();
      await page.waitForURL((url) => !url.hash.startsWith('#/register'));

      const realToken = await storedToken(page);
      expect(await userOf(realToken)).toMatchObject({
        is_demo: 0,
        country: 'DE',
        risk_disclosure_version: 1,
        risk_disclosure_due: 0,
      });

      // The header says which account is in use, as the API does.
      await open(page, header.route);
      await expect.poll(() => shownMode(page, header.scope)).toEqual({ mode: 'real', label: 'Real' });

      // One tap: the person's demo account, the real session kept beside it.
      await page.locator(`${header.scope} .account-mode`).click();
      await page.getByText('You are trading on the demo account').waitFor();
      await expect.poll(() => shownMode(page, header.scope)).toEqual({ mode: 'demo', label: 'Demo' });
      const onDemo = await held(page);
      expect(onDemo.kept).toBe(realToken);
      expect(onDemo.token).not.toBe(realToken);
      const demoToken = onDemo.token!;
      const demo = await userOf(demoToken);
      expect(demo.is_demo).toBe(1);
      expect((await userOf(realToken)).is_demo).toBe(0);
      await screenshot(page, `account-mode-demo-${size}`);

      // And back from the user center: the very same real session, no login; the demo one stays live.
      await open(page, '/user');
      await expect.poll(() => shownMode(page, '.user-card')).toEqual({ mode: 'demo', label: 'Demo' });
      await page.locator('.user-card .account-mode').click();
      await page.getByText('You are trading on the real account').waitFor();
      await expect.poll(async () => (await shownMode(page, '.user-card')).mode).toBe('real');
      expect(await held(page)).toEqual({ token: realToken, kept: demoToken });
      expect((await userOf(realToken)).is_demo).toBe(0);
      expect((await userOf(demoToken)).uid).toBe(demo.uid);
      expect(page.url()).not.toMatch(/#\/login/);

      // Demo again: the same demo account, linked to this real account.
      await page.locator('.user-card .account-mode').click();
      await expect.poll(async () => (await shownMode(page, '.user-card')).mode).toBe('demo');
      const demoAgain = (await held(page)).token!;
      expect((await userOf(demoAgain)).uid).toBe(demo.uid);
      expect((await userOf(realToken)).is_demo).toBe(0);

      // The mode in use is in the header, on the orders tab and beside a back arrow too.
      await open(page, header.route);
      await expect.poll(() => shownMode(page, header.scope)).toEqual({ mode: 'demo', label: 'Demo' });
      await open(page, '/order');
      await expect.poll(() => shownMode(page, '.account-strip')).toEqual({ mode: 'demo', label: 'Demo' });
      await open(page, '/mine/notices');
      await expect.poll(() => shownMode(page, '.screen-nav')).toEqual({ mode: 'demo', label: 'Demo' });
      await open(page, '/user');

      // Logging out, the person leaves: the session in use and the kept one both end.
      await page.getByText('Log out', { exact: true }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
      await expect.poll(async () => (await held(page)).token ?? null).toBeNull();
      for (const token of [demoAgain, realToken]) await expect(userOf(token)).rejects.toThrow(/999/);
      await context.close();
    },
  );

  it('an updated disclosure is shown again, and orders are refused until it is accepted', async () => {
    const email = `disclosure-${process.pid}-${Date.now()}@example.com`;
    const { context, page } = await phone(browser, 'en');
    await open(page, '/register');
    await fillSignUpAccount(page, email);
    await answerSignUpQuestions(page);
    await page.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL((url) => !url.hash.startsWith('#/register'));
    const token = await storedToken(page);
    await fundThroughDeposit(token, '10000');

    await setSetting('risk_disclosure_version', '2');
    try {
      // A market open now (crypto trades around the clock). The sheet comes up over whatever screen the
      // trader is on once the app learns of the new version: here the quotes, at the start of the app.
      const pair = await openMarket();
      await open(page, '/');
      await page.reload();
      const updated = page.getByText('The risk disclosure has changed. Read it and accept it to place your next order.');
      await updated.waitFor();
      await page.getByText('Version 2', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Later' }).click();
      await updated.waitFor({ state: 'hidden' });

      await page
        .getByRole('list', { name: 'Markets' })
        .getByRole('link', { name: new RegExp(`^${pair.ShowCode}\\b`) })
        .click();
      await page.waitForURL(/#\/trade$/);

      // Put off, the order is refused with the server's words, and the disclosure comes back.
      await page.getByRole('button', { name: 'Buy' }).click();
      await page.getByText('Accept the updated risk disclosure before placing an order').waitFor();
      await updated.waitFor();
      expect((await userOf(token)).risk_disclosure_due).toBe(1);
      await page.getByRole('button', { name: 'I accept' }).click();
      await updated.waitFor({ state: 'hidden' });
      expect(await userOf(token)).toMatchObject({ risk_disclosure_version: 2, risk_disclosure_due: 0 });

      await page.getByRole('button', { name: 'Buy' }).click();
      await page.getByRole('dialog', { name: 'Order placed' }).waitFor();
    } finally {
      await setSetting('risk_disclosure_version', '1');
    }
    await context.close();
  });
});
