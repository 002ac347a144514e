import type { FeedbackAdminView } from '@pipwise/domain';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator } from './cashier.js';
import {
  baseURL,
  hasHorizontalScroll,
  launchBrowser,
  open,
  phone,
  screenshot,
  registerRealUser,
  signInAs,
  type RealAccount,
} from './support.js';

const english = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../apps/web/src/i18n/locales/en.json'), 'utf8'),
) as Record<string, Record<string, string>>;
/** Every key of the sections these screens use, as it would show if a text were missing. */
const KEYS = ['system', 'chat', 'feedback', 'policy', 'user', 'common', 'language'].flatMap((section) =>
  Object.keys(english[section] ?? {}).map((key) => `${section}.${key}`),
);

const frameType = (frame: string) => (JSON.parse(frame) as { type?: string }).type;

const settings = () => asOperator<Record<string, string>>('/admin/api/settings', {}, 'GET');
const setSettings = (values: Record<string, string>) => asOperator('/admin/api/settings', values);

describe('system settings, customer service chat, feedback and the policy notice', () => {
  let browser: Browser;
  let account: RealAccount;
  let saved: Record<string, string>;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerRealUser('system');
    const current = await settings();
    saved = { service_link: current.service_link ?? '', service_link_type: current.service_link_type ?? '1' };
  });

  afterAll(async () => {
    await setSettings(saved);
    await browser?.close();
  });

  it('logs out from /mine/system: socket told, session gone, home with the success message', async () => {
    const { context, page } = await phone(browser, 'en');
    await signInAs(page, account);
    const sent: string[] = [];
    page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sent.push(String(payload))));
    await open(page, '/mine/system');
    await page.getByText('Our service is not provided to North Korea, Israel, China, Vanuatu, and Cuba.').waitFor();
    await expect.poll(() => sent.some((frame) => frameType(frame) === 'login')).toBe(true);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/#\/$/);
    await page.getByText('You have logged out').waitFor();
    expect(sent.some((frame) => frameType(frame) === 'logout')).toBe(true);
    const session = await page.evaluate(() => localStorage.getItem('pipwise.session') ?? '{}');
    expect((JSON.parse(session) as { state: unknown }).state).toMatchObject({ token: null, user: null });
    const info = await fetch(`${baseURL()}/api/user/info`, { headers: { lang: 'en', authorization: account.token } });
    expect(((await info.json()) as { code: number }).code).toBe(999);
    await context.close();
    account = await registerRealUser('system-after-logout');
  });

  it('clears the cache but keeps the session and the language', async () => {
    const { context, page } = await phone(browser, 'en');
    await signInAs(page, account);
    await open(page, '/mine/system');
    await page.getByText('Clear cache').click();
    await page.getByText('Cache cleared').waitFor();
    await page.reload();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('pipwise.lang'))).toBe('en');
    await context.close();
  });

  it('embeds the customer-service page, and says so when it is refused or there is no link', async () => {
    const link = `${baseURL()}/icons/icon-192.png`;
    await setSettings({ service_link: link, service_link_type: '1' });
    const { context, page } = await phone(browser, 'en');
    await signInAs(page, account);
    await open(page, '/mine/chat');
    const frame = page.locator('iframe[title="Customer service chat"]');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(link);
    // Shown once it has loaded (it stays hidden behind the spinner until then).
    await page.locator('iframe.chat-frame:not(.chat-frame-hidden)').waitFor();
    expect(await frame.getAttribute('sandbox')).not.toContain('allow-same-origin');
    await screenshot(page, 'chat-embedded-en');

    // Plain http is not a frame source the app's Content-Security-Policy allows: the browser refuses it.
    await setSettings({ service_link: 'http://chat.example.invalid/desk' });
    await page.reload();
    await page.getByText('The customer service page cannot be shown in the app.').waitFor();
    await page.locator('.chat-error').getByRole('button', { name: 'Open in browser' }).waitFor();
    await screenshot(page, 'chat-refused-en');

    await setSettings({ service_link: '' });
    await page.reload();
    await page.getByText('Customer service is not available right now. Please try again later.').waitFor();
    expect(await page.locator('iframe').count()).toBe(0);
    await screenshot(page, 'chat-no-link-en');
    await setSettings(saved);
    await context.close();
  });

  it('sends a visitor’s feedback once however fast the tap, and operators see it', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/feedback');
    const text = `The chart froze ${Date.now()}\nafter rotating the phone`;
    await page.getByText('Log in to a real account to attach a screenshot.').waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Choose a topic').waitFor();
    await page.getByText('App problem').click();
    await page.getByRole('textbox', { name: 'Your feedback' }).fill(text);
    await page.getByRole('textbox', { name: 'Contact (optional)' }).fill('visitor@example.com');
    await page.getByRole('button', { name: 'Send' }).dblclick();
    await page.getByText('Thank you!').waitFor();
    await screenshot(page, 'feedback-sent-en');

    const queue = await asOperator<{ data: FeedbackAdminView[] }>('/admin/api/feedback?status=0', {}, 'GET');
    const mine = queue.data.filter((row) => row.text === text);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ uid: null, category: 'app', contact: 'visitor@example.com' });
    expect(mine[0]).not.toHaveProperty('user_id');
    await context.close();
  });

  it('shows the policy notice where a person registers', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/register');
    await page.getByText('Our service is not provided to North Korea, Israel, China, Vanuatu, and Cuba.').waitFor();
    await context.close();
  });

  it.each(['en', 'hk', 'ar'])('%s: the screens without raw keys, in the reading direction', async (language) => {
    await setSettings({ service_link: `${baseURL()}/icons/icon-192.png`, service_link_type: '1' });
    const { context, page } = await phone(browser, language);
    await signInAs(page, account);
    for (const screen of ['/mine/system', '/mine/chat', '/feedback', '/register']) {
      await open(page, screen);
      await page.waitForLoadState('networkidle');
      await page
        .locator(screen === '/mine/chat' ? 'iframe.chat-frame:not(.chat-frame-hidden)' : '.policy-notice, .feedback-form')
        .first()
        .waitFor();
      const where = `${language} ${screen}`;
      expect(await page.evaluate(() => document.documentElement.dir), where).toBe(language === 'ar' ? 'rtl' : 'ltr');
      const shown = await page.locator('body').innerText();
      expect(
        KEYS.filter((key) => shown.includes(key)),
        where,
      ).toEqual([]);
      expect(await hasHorizontalScroll(page), where).toBe(false);
      await screenshot(page, `system-chat-feedback-${language}${screen.replaceAll('/', '-')}`);
    }
    await setSettings(saved);
    await context.close();
  });
});
