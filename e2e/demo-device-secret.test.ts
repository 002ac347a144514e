import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseURL, launchBrowser, open, phone, storedToken } from './support.js';

interface SavedSession {
  state?: { token?: string | null; user?: { uid: number } | null; demo?: { id: string; secret: string } | null };
}

const saved = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('pipwise.session') ?? '{}') as SavedSession);

describe('a demo account on its device', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('comes back to the same demo account after logging out, with the secret only this device keeps', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    await storedToken(page);
    const first = await saved(page);
    const uid = first.state?.user?.uid;
    const demo = first.state?.demo;
    expect(demo?.id).toBe(String(uid));
    expect(demo?.secret.length).toBeGreaterThanOrEqual(40);

    // Someone who knows only the public uid is not let in.
    const byUid = await fetch(`${baseURL()}/api/user/createAccountDemoForU?demo_id=${uid}`, { headers: { lang: 'en' } });
    expect(((await byUid.json()) as { code: number }).code).not.toBe(1);

    await page.getByRole('link', { name: 'Me' }).click();
    await page.getByText('Log out').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(async () => (await saved(page)).state?.token ?? null).toBeNull();
    expect((await saved(page)).state?.demo).toEqual(demo);

    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    await storedToken(page);
    expect((await saved(page)).state?.user?.uid).toBe(uid);

    // A secret the server no longer knows (e.g. an account from before secrets): a new demo account.
    // Edited on a blank page of the same origin, after the app's page is closed: a running app (also one
    // navigated away from, whose answers still arrive) would write its own session back over the edit.
    await page.close();
    const reopened = await context.newPage();
    await reopened.route(`${baseURL()}/blank`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html>' }));
    await reopened.goto(`${baseURL()}/blank`);
    await reopened.evaluate(() => {
      const session = JSON.parse(localStorage.getItem('pipwise.session') ?? '{}') as SavedSession;
      if (session.state)
        session.state = { ...session.state, token: null, user: null, demo: { id: '12345678', secret: 'x'.repeat(43) } };
      localStorage.setItem('pipwise.session', JSON.stringify(session));
    });
    await open(reopened, '/login');
    expect((await saved(reopened)).state?.demo?.id).toBe('12345678');
    await reopened.getByRole('button', { name: 'Try a demo account' }).click();
    await reopened.waitForURL(/#\/$/);
    await storedToken(reopened);
    const fresh = await saved(reopened);
    expect(fresh.state?.user?.uid).not.toBe(uid);
    expect(fresh.state?.demo?.id).toBe(String(fresh.state?.user?.uid));
    await context.close();
  });

  it('shows the captcha on the login form once a login has failed', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/login');
    const captcha = page.getByRole('textbox', { name: 'Image code' });
    expect(await captcha.count()).toBe(0);
    await page.getByRole('textbox', { name: 'Email or phone' }).fill('nobody@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill('Wrong12345');
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await captcha.waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Show another picture' }).locator('img').count()).toBe(1);
    await context.close();
  });
});
