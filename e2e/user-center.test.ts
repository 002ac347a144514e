import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator, setSetting } from './cashier.js';
import {
  api,
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
const KEYS = Object.entries(english).flatMap(([namespace, messages]) =>
  Object.keys(messages).map((key) => `${namespace}.${key}`),
);

interface NoticeList {
  data: { id: number; title: string; read: boolean }[];
  total: number;
}

/**
 * Every route the app moved to, in order. Screens other issues are still building may not be routed yet
 * (the app then sends an unknown path home), so a tile is checked by where it sent the user.
 */
async function recordRoutes(context: BrowserContext) {
  await context.addInitScript(() => {
    const visited: string[] = [];
    (window as unknown as { visitedRoutes: string[] }).visitedRoutes = visited;
    const record = () => visited.push(window.location.hash.slice(1));
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method].bind(history);
      history[method] = (...args: Parameters<History['pushState']>) => {
        original(...args);
        record();
      };
    }
  });
}

const visitedRoutes = (page: Page) => page.evaluate(() => (window as unknown as { visitedRoutes: string[] }).visitedRoutes);

/** Opens the user center fresh (a reload, so settings changed in between are read again). */
async function openUserCenter(page: Page) {
  await open(page, '/user');
  await page.reload();
  await page.getByTestId('user-balance').waitFor();
}

/** Taps a tile once it acts: a list item still waiting for what it needs (customer service, for the link's kind) is disabled. */
async function tap(page: Page, label: string) {
  const tile = page.getByText(label, { exact: true });
  await expect.poll(() => tile.evaluate((element) => element.closest('.adm-list-item-disabled') === null)).toBe(true);
  await tile.click();
}

describe('the user center', () => {
  let browser: Browser;
  let account: RealAccount;

  beforeAll(async () => {
    browser = await launchBrowser();
    account = await registerRealUser('user-center');
  });

  afterAll(async () => {
    await setSetting('service_link_type', '1');
    await setSetting('service_link', '');
    await browser?.close();
  });

  async function signedInPhone(language = 'en', who: RealAccount = account) {
    const { context, page } = await phone(browser, language);
    await recordRoutes(context);
    await signInAs(page, who);
    return { context, page };
  }

  it('hides the balance until asked, and every tile leads to its screen', async () => {
    const { context, page } = await signedInPhone();
    await openUserCenter(page);
    expect(await page.getByTestId('user-balance').innerText()).toBe('••••••');
    await page.getByRole('button', { name: 'Show balance' }).click();
    await expect.poll(() => page.getByTestId('user-balance').innerText()).toMatch(/\d/);

    const tiles: [string, string][] = [
      ['Deposit', '/mine/charge'],
      ['Withdraw', '/mine/withdraw'],
      ['Wallet', '/mine/wallet'],
      ['Account history', '/mine/history'],
      ['Real-name verification', '/mine/auth'],
      ['Invite friends', '/mine/invite'],
      ['Change password', '/mine/password'],
      ['Customer service', '/mine/chat'],
      ['Complaint email', '/mine/email'],
      ['Announcements', '/mine/announcement'],
      ['Language', '/language'],
      ['Settings', '/mine/system'],
      ['Feedback', '/feedback'],
    ];
    for (const [label, route] of tiles) {
      await openUserCenter(page);
      await tap(page, label);
      await expect.poll(() => visitedRoutes(page)).toContain(route);
    }

    // The screens this issue builds are there, not only their addresses.
    await openUserCenter(page);
    await tap(page, 'Complaint email');
    await page.getByText('complaints@pipwise.local').waitFor();
    expect(await page.getByRole('link', { name: 'Write an email' }).getAttribute('href')).toBe('mailto:complaints@pipwise.local');
    for (const control of [
      page.getByRole('link', { name: 'Write an email' }),
      page.getByRole('button', { name: 'Copy Email address' }),
    ]) {
      const box = await control.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(44);
      expect(box?.width).toBeGreaterThanOrEqual(44);
    }
    await context.close();
  });

  it('opens customer service as service_link_type says: a copy dialog, an outside page, or the in-app chat', async () => {
    const link = 'https://chat.example.com/room/42';
    await setSetting('service_link', link);

    await setSetting('service_link_type', '2');
    const copying = await signedInPhone();
    await copying.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openUserCenter(copying.page);
    await tap(copying.page, 'Customer service');
    const dialog = copying.page.getByRole('dialog');
    await dialog.getByText(link).waitFor();
    await dialog.getByRole('button', { name: 'Copy Customer service link' }).click();
    await copying.page.getByText('Copied').waitFor();
    expect(await copying.page.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await screenshot(copying.page, 'user-center-service-dialog');
    await dialog.getByRole('button', { name: 'Close' }).click();
    expect(await visitedRoutes(copying.page)).not.toContain('/mine/chat');
    await copying.context.close();

    await setSetting('service_link_type', '3');
    const outside = await signedInPhone();
    await outside.context.route('https://chat.example.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>chat</title>' }),
    );
    await openUserCenter(outside.page);
    const popup = outside.context.waitForEvent('page');
    await tap(outside.page, 'Customer service');
    const opened = await popup;
    await opened.waitForURL(link);
    expect(new URL(outside.page.url()).hash).toBe('#/user');
    await outside.context.close();

    await setSetting('service_link_type', '1');
    const inApp = await signedInPhone();
    await openUserCenter(inApp.page);
    await tap(inApp.page, 'Customer service');
    await expect.poll(() => visitedRoutes(inApp.page)).toContain('/mine/chat');
    await inApp.context.close();
  });

  it('shows unread announcements with a dot and a count; opening one marks it read, for this user only', async () => {
    const reader = await registerRealUser('notice-reader');
    const bystander = await registerRealUser('notice-bystander');
    await asOperator('/admin/api/announcements', {
      lang: 'en',
      title: 'Maintenance window',
      content: '<p>Trading pauses on Sunday.</p><img src="x" onerror="window.injected=1"><script>window.injected=1</script>',
    });
    const before = await api<NoticeList>('/api/notice/list', reader.token);
    const unreadBefore = before.data.filter((item) => !item.read).length;
    expect(unreadBefore).toBe(before.total);

    const { context, page } = await signedInPhone('en', reader);
    await openUserCenter(page);
    await expect.poll(() => page.getByTestId('unread-notices').innerText()).toBe(String(unreadBefore));
    await tap(page, 'Announcements');
    const list = page.getByRole('list', { name: 'Announcements' });
    await list.getByRole('link').first().waitFor();
    expect(await list.getByRole('img', { name: 'Unread' }).count()).toBe(unreadBefore);
    await screenshot(page, 'user-center-announcements');

    await list.getByRole('link', { name: /Maintenance window/ }).click();
    await page.getByRole('heading', { name: 'Maintenance window' }).waitFor();
    await page.getByText('Trading pauses on Sunday.').waitFor();
    expect(await page.evaluate(() => (window as unknown as { injected?: number }).injected)).toBeUndefined();
    await screenshot(page, 'user-center-announcement-detail');

    await page.goBack();
    await expect.poll(() => list.getByRole('img', { name: 'Unread' }).count()).toBe(unreadBefore - 1);
    await openUserCenter(page);
    await expect.poll(() => page.getByTestId('unread-notices').innerText()).toBe(String(unreadBefore - 1));

    const read = await api<NoticeList>('/api/notice/list', reader.token);
    expect(read.data.find((item) => item.title === 'Maintenance window')?.read).toBe(true);
    const untouched = await api<NoticeList>('/api/notice/list', bystander.token);
    expect(untouched.data.every((item) => !item.read)).toBe(true);
    await context.close();
  });

  it('tells a demo account that auth, invite, password, wallet, deposit and withdraw need a real account', async () => {
    const demo = await api<RealAccount>('/api/user/createAccountDemoForU');
    const { context, page } = await signedInPhone('en', demo);
    await openUserCenter(page);
    await page.getByText('Demo account', { exact: true }).waitFor();
    for (const label of ['Real-name verification', 'Invite friends', 'Change password', 'Wallet', 'Deposit', 'Withdraw']) {
      await tap(page, label);
      const dialog = page.getByRole('dialog');
      await dialog.getByText('Please register or log in to a real account').waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(new URL(page.url()).hash, label).toBe('#/user');
    }
    expect((await visitedRoutes(page)).filter((route) => route !== '/user')).toEqual([]);
    // What a demo account may open still opens.
    await tap(page, 'Announcements');
    await expect.poll(() => visitedRoutes(page)).toContain('/mine/announcement');
    await context.close();
  });

  it.each(['en', 'hk', 'ar'])('%s: the user center, complaint email and announcements show no raw keys', async (language) => {
    const { context, page } = await signedInPhone(language);
    // The newest announcement in this language (the seed writes two in each).
    const response = await fetch(`${baseURL()}/api/notice/list`, { headers: { lang: language, authorization: account.token } });
    const notices = ((await response.json()) as { data: NoticeList }).data;
    const screens = ['/user', '/mine/email', '/mine/announcement', `/mine/announcement?id=${notices.data[0]?.id ?? 0}`];
    for (const screen of screens) {
      await open(page, screen);
      await page.reload();
      await page.waitForLoadState('networkidle');
      await page
        .locator('[aria-busy="true"]')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => undefined);
      const where = `${language} ${screen}`;
      expect(new URL(page.url()).hash, where).toBe(`#${screen}`);
      expect(await page.evaluate(() => document.documentElement.dir), where).toBe(language === 'ar' ? 'rtl' : 'ltr');
      const text = await page.locator('body').innerText();
      expect(
        KEYS.filter((key) => text.includes(key)),
        where,
      ).toEqual([]);
      expect(await hasHorizontalScroll(page), where).toBe(false);
      await screenshot(page, `user-center-${language}${screen.replace(/[/?=]/g, '-')}`);
    }
    await context.close();
  });
});
