import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerSignUpQuestions,
  api,
  baseURL,
  emailedCode,
  outboxMark,
  hasHorizontalScroll,
  launchBrowser,
  open,
  phone,
  screenshot,
  registerRealUser,
  signInAs,
  type RealAccount,
  E2E_PASSWORD,
} from './support.js';

const NEW_PASSWORD = 'Brighter2027';

const loginAnswer = async (account: string, password: string) => {
  const response = await fetch(`${baseURL()}/api/user/loginForU`, {
    method: 'POST',
    headers: { lang: 'en', 'content-type': 'application/json' },
    body: JSON.stringify({ account, password, login_type: '1' }),
  });
  return (await response.json()) as { code: number; msg: string };
};

const english = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../apps/web/src/i18n/locales/en.json'), 'utf8'),
) as Record<string, Record<string, string>>;
const KEYS = Object.entries(english).flatMap(([namespace, messages]) =>
  Object.keys(messages).map((key) => `${namespace}.${key}`),
);

/** The page's text without what users wrote or own (links, e-mail addresses): those are marked `translate="no"`. */
function interfaceText(page: Page) {
  return page.evaluate(() => {
    const own = Array.from(document.querySelectorAll<HTMLElement>('[translate="no"]'));
    for (const element of own) element.style.display = 'none';
    const text = document.body.innerText;
    for (const element of own) element.style.removeProperty('display');
    return text;
  });
}

/** Buttons of the screen's body shorter than a fingertip (44 px). */
function smallTapTargets(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('.screen-body button, .screen-body a'))
      .filter((element) => element.offsetParent !== null && element.getBoundingClientRect().height < 44)
      .map((element) => element.getAttribute('aria-label') ?? element.innerText),
  );
}

describe('invite and password screens', () => {
  let browser: Browser;

  /**
   * RealAccount first: its registration code went to the address the password code goes to, and a code
   * is sent to one address at most once a minute, so that minute passes while the invite test runs.
   */
  let changer: Promise<RealAccount>;

  beforeAll(async () => {
    changer = registerRealUser('changer');
    browser = await launchBrowser();
    await changer;
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('the inviter copies and shares the link, a friend registers through it, and the count goes up', async () => {
    const inviter = await registerRealUser('inviter');
    const link = `${baseURL()}/#/register?invite_code=${inviter.user.invite_code}`;
    const { context, page } = await phone(browser, 'en');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL() });
    // The system share sheet, recorded: headless Chromium has none of its own.
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'share', {
        configurable: true,
        value: (data: ShareData) => {
          (window as unknown as { shared: ShareData }).shared = data;
          return Promise.resolve();
        },
      });
    });
    await signInAs(page, inviter);

    await open(page, '/mine/invite');
    await expect.poll(() => page.getByTestId('invite-count').innerText()).toBe('0');
    expect(await page.getByRole('textbox', { name: 'Your invite link' }).innerText()).toBe(link);
    await page.getByRole('img', { name: 'QR code of your invite link' }).waitFor();

    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Invite link copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    await page.getByRole('button', { name: 'Share' }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { shared?: ShareData }).shared?.url)).toBe(link);

    // The friend opens the copied link on their own phone and registers.
    const friendEmail = `friend-${process.pid}-${Date.now()}@example.com`;
    const friend = await phone(browser, 'en');
    await friend.page.goto(link);
    expect(await friend.page.getByRole('textbox', { name: 'Invitation code' }).inputValue()).toBe(inviter.user.invite_code);
    await friend.page.getByRole('textbox', { name: 'Email', exact: true }).fill(friendEmail);
    await friend.page.getByRole('button', { name: 'Send code' }).click();
    await expect.poll(() => friend.page.getByRole('button', { name: /Resend in/ }).count()).toBe(1);
    await friend.page.getByRole('textbox', { name: 'Verification code' }).fill(await emailedCode(friendEmail));
    await friend.page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_PASSWORD);
    await friend.page.getByRole('textbox', { name: 'Confirm password' }).fill(E2E_PASSWORD);
    await answerSignUpQuestions(friend.page);
    await friend.page.getByRole('button', { name: 'Register' }).click();
    await friend.page.waitForURL((url) => !url.hash.startsWith('#/register'));
    await friend.context.close();

    await page.reload();
    await expect.poll(() => page.getByTestId('invite-count').innerText()).toBe('1');
    await screenshot(page, 'invite-count-en');
    await context.close();
  });

  it(
    'a user changes the password with an emailed code and logs in with the new one, not the old',
    { timeout: 120_000 },
    async () => {
      const user = await changer;
      const otherDevice = await api<{ token: string }>('/api/user/loginForU', undefined, {
        method: 'POST',
        body: { account: user.user.email, password: E2E_PASSWORD, login_type: '1' },
      });
      const { context, page } = await phone(browser, 'en');
      await signInAs(page, user);
      await open(page, '/mine/password');
      await page.getByText(user.user.email).waitFor();

      const submit = page.getByRole('button', { name: 'Change password' });
      await submit.click();
      await expect.poll(() => page.getByText('Please complete the form').count()).toBe(2);
      await page.getByRole('textbox', { name: 'New password' }).fill(NEW_PASSWORD);
      await page.getByRole('textbox', { name: 'Confirm password' }).fill(`${NEW_PASSWORD}x`);
      await submit.click();
      await page.getByText('The passwords do not match').waitFor();

      // The registration code went to this address moments ago: the server holds the next one for the rest
      // of the minute (docs/api.md) and says how long; the user taps again after that.
      const sendCode = page.getByRole('button', { name: 'Send code' });
      await sendCode.click();
      const wait = page.getByText(/^Please wait \d+ seconds? before requesting another code$/);
      const seconds = Number(/\d+/.exec(await wait.innerText())?.[0]);
      expect(seconds).toBeGreaterThan(0);
      await page.waitForTimeout((seconds + 1) * 1000);
      const beforeResend = await outboxMark(user.user.email);
      await sendCode.click();
      await expect.poll(() => page.getByRole('button', { name: /Resend in \d+ s/ }).count()).toBe(1);
      expect(await page.getByRole('button', { name: /Resend in/ }).isDisabled()).toBe(true);
      await page.getByRole('textbox', { name: 'Verification code' }).fill(await emailedCode(user.user.email, beforeResend));
      await page.getByRole('textbox', { name: 'Confirm password' }).fill(NEW_PASSWORD);
      const amended = page.waitForResponse((response) => response.url().includes('/api/user/amend_password'));
      await submit.click();
      // The server's answer first, so that a refusal names its reason rather than a missing message.
      expect(await (await amended).json()).toMatchObject({ code: 1 });
      await page.getByText('Password changed. Your other devices have been logged out.').waitFor();
      await page.waitForURL(/#\/user$/);

      // This session stays; the other device's ends; the old password no longer opens the account.
      expect((await api<{ id: number }>('/api/user/info', user.token)).id).toBe(user.user.id);
      await expect(api('/api/user/info', otherDevice.token)).rejects.toThrow();
      expect(await loginAnswer(user.user.email, E2E_PASSWORD)).toMatchObject({ msg: 'Incorrect account or password' });

      const fresh = await phone(browser, 'en');
      await open(fresh.page, '/login');
      await fresh.page.getByRole('textbox', { name: 'Email or phone' }).fill(user.user.email);
      await fresh.page.getByRole('textbox', { name: 'Password', exact: true }).fill(E2E_PASSWORD);
      await fresh.page.getByRole('button', { name: 'Log in', exact: true }).click();
      await fresh.page.getByText('Incorrect account or password').waitFor();
      await fresh.page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
      await fresh.page.getByRole('button', { name: 'Log in', exact: true }).click();
      await fresh.page.waitForURL((url) => !url.hash.startsWith('#/login'));
      await fresh.context.close();
      await context.close();
    },
  );

  it('a demo account is shown the real-account message on both screens', async () => {
    const demo = await api<{ token: string; user: RealAccount['user'] }>('/api/user/createAccountDemoForU');
    const { context, page } = await phone(browser, 'en');
    await signInAs(page, demo);
    for (const screen of ['/mine/invite', '/mine/password']) {
      await open(page, screen);
      await page.getByText('Please register or log in to a real account').waitFor();
    }
    await context.close();
  });

  it.each(['en', 'hk', 'ar'])(
    '%s: both screens without raw keys, in the reading direction, with full tap targets',
    async (language) => {
      const user = await registerRealUser(`screens-${language}`);
      const { context, page } = await phone(browser, language);
      await signInAs(page, user);
      for (const screen of ['/mine/invite', '/mine/password']) {
        await open(page, screen);
        await page.waitForLoadState('networkidle');
        // The screen itself, not the loading placeholder of its lazily loaded code.
        await page.locator(screen === '/mine/invite' ? '[data-testid="invite-count"]' : '.password-form').waitFor();
        const where = `${language} ${screen}`;
        expect(await page.evaluate(() => document.documentElement.dir), where).toBe(language === 'ar' ? 'rtl' : 'ltr');
        const text = await page.locator('body').innerText();
        expect(
          KEYS.filter((key) => text.includes(key)),
          where,
        ).toEqual([]);
        if (language !== 'en') {
          const own = await interfaceText(page);
          expect(own.match(/\p{Script=Latin}*\p{Ll}\p{Script=Latin}*/gu) ?? [], where).toEqual([]);
        }
        expect(await smallTapTargets(page), where).toEqual([]);
        for (const width of [360, 430]) {
          await page.setViewportSize({ width, height: 844 });
          expect(await hasHorizontalScroll(page), `${where} at ${width} px`).toBe(false);
        }
        await page.setViewportSize({ width: 390, height: 844 });
        await screenshot(page, `invite-and-password-${language}${screen.replaceAll('/', '-')}`);
      }
      await context.close();
    },
  );
});
