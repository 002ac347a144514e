import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator } from './cashier.js';
import { api, hasHorizontalScroll, launchBrowser, open, phone, screenshot, registerRealUser, signInAs } from './support.js';

/** An operator's decision through the operator API, as the back office will make it. */
const decide = (userId: number, action: 'approve' | 'reject', body: Record<string, string> = {}) =>
  asOperator(`/admin/api/kyc/${userId}/${action}`, body);

const photo = async (red: number) => ({
  name: `side-${red}.png`,
  mimeType: 'image/png',
  buffer: await sharp({ create: { width: 320, height: 200, channels: 3, background: { r: red, g: 120, b: 200 } } })
    .png()
    .toBuffer(),
});

async function fillAndSubmit(page: Page, name: string, cardId: string) {
  await page.getByRole('textbox', { name: 'Real name' }).fill(name);
  await page.getByRole('textbox', { name: 'ID number' }).fill(cardId);
  await page.locator('input[type=file][aria-label="Front of ID"]').setInputFiles(await photo(10));
  await page.locator('input[type=file][aria-label="Back of ID"]').setInputFiles(await photo(90));
  await page.getByRole('img', { name: 'Front of ID' }).waitFor();
  await page.getByRole('img', { name: 'Back of ID' }).waitFor();
  await page.getByRole('button', { name: 'Submit for review' }).click();
}

describe('a user verifies their identity', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('submits two images, is sent back with a reason, resubmits, and is verified', async () => {
    const account = await registerRealUser('identity');
    const { context, page } = await phone(browser, 'en');
    await signInAs(page, account);

    await open(page, '/mine/auth');
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByText('Enter your real name').waitFor();
    await page.getByText('Enter your ID number').waitFor();
    await page.getByText('Upload one photo of the front of your ID').waitFor();
    await page.getByText('Upload one photo of the back of your ID').waitFor();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'identity-form-en');

    await fillAndSubmit(page, 'Chan Tai Man', 'A123 4567');
    await page.getByRole('heading', { name: 'Under review' }).waitFor();
    await open(page, '/user');
    await expect.poll(() => page.getByTestId('real-name-status').innerText()).toBe('Under review');
    await open(page, '/mine/auth');
    await page.getByRole('heading', { name: 'Under review' }).waitFor();
    await page.getByText('****4567').waitFor();
    await screenshot(page, 'identity-under-review-en');

    await decide(account.user.id, 'reject', { reason: 'The back photo is blurred' });
    await page.reload();
    await page.getByRole('heading', { name: 'Not approved' }).waitFor();
    await page.getByText('The back photo is blurred').waitFor();
    await screenshot(page, 'identity-rejected-en');

    await page.getByRole('button', { name: 'Submit again' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'Real name' }).inputValue()).toBe('Chan Tai Man');
    await fillAndSubmit(page, 'Chan Tai Man', 'A1234567');
    await page.getByRole('heading', { name: 'Under review' }).waitFor();

    await decide(account.user.id, 'approve');
    await page.reload();
    await page.getByRole('heading', { name: 'Verified' }).waitFor();
    const center = await api<{ review_status: number; card_id: string }>('/api/user_real/center', account.token);
    expect(center).toMatchObject({ review_status: 2, card_id: '****4567' });
    await screenshot(page, 'identity-verified-en');
    // The user center's badge says the same.
    await open(page, '/user');
    await expect.poll(() => page.getByTestId('real-name-status').innerText()).toBe('Verified');
    await context.close();

    for (const language of ['hk', 'ar']) {
      const shown = await phone(browser, language);
      await signInAs(shown.page, account);
      await open(shown.page, '/mine/auth');
      await shown.page.locator('.identity-status').waitFor();
      const text = await shown.page.locator('body').innerText();
      expect(text).not.toMatch(/identity\.\w+/);
      expect(await shown.page.evaluate(() => document.documentElement.dir)).toBe(language === 'ar' ? 'rtl' : 'ltr');
      expect(await hasHorizontalScroll(shown.page)).toBe(false);
      await screenshot(shown.page, `identity-verified-${language}`);
      await shown.context.close();
    }
  });

  it('shows a demo account the blocked notice', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/login');
    await page.getByRole('button', { name: 'Try a demo account' }).click();
    await page.waitForURL(/#\/$/);
    await open(page, '/mine/auth');
    await page.getByText('Please register or log in to a real account').waitFor();
    expect(await page.getByRole('textbox', { name: 'Real name' }).count()).toBe(0);
    await context.close();
  });
});
