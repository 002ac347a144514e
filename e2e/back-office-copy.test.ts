import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, desk, menu } from './backoffice.js';
import { api, launchBrowser, registerRealUser, screenshot, type RealAccount } from './support.js';

/*
 * Copy trading's back office on the operators' screens: a content operator hides a provider from the
 * public list, a compliance operator suspends it with a reason (the provider reads it on their own page)
 * and lifts the suspension; the provider shows on the user's detail.
 */

interface MyProvider {
  provider_id: number;
  status: string;
  suspended_reason: string | null;
  listed: boolean;
}

describe('operators hide and suspend a copy-trading provider', () => {
  let browser: Browser;
  let compliance: { context: BrowserContext; page: Page };
  let content: { context: BrowserContext; page: Page };
  let provider: RealAccount;
  let mine: MyProvider;
  const nickname = `Desk ${Date.now() % 100_000}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    provider = await registerRealUser('copy-desk');
    mine = await api<MyProvider>('/api/follow/provider/become', provider.token, {
      method: 'POST',
      body: { nickname, bio: 'Swing trades', fee_pct: 10 },
    });
    compliance = await desk(browser, await createOperator('compliance'));
    content = await desk(browser, await createOperator('content'));
  });
  afterAll(async () => {
    await browser?.close();
  });

  const openRow = async (page: Page) => {
    await menu(page, 'Copy trading');
    await page.getByLabel('Search', { exact: true }).fill(nickname);
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const row = page.getByTestId(`row-${mine.provider_id}`);
    await row.waitFor();
    return row;
  };

  it('hides the provider from the public list and shows it again', async () => {
    const { page } = content;
    const row = await openRow(page);
    await row.getByRole('button', { name: 'Hide', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await row.getByText('Hidden', { exact: true }).waitFor();
    expect((await api<MyProvider>('/api/follow/provider/mine', provider.token)).listed).toBe(false);
    // Content may hide, not suspend.
    expect(await row.getByRole('button', { name: 'Suspend' }).count()).toBe(0);
    await row.getByRole('button', { name: 'Show again', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await row.getByText('Hidden', { exact: true }).waitFor({ state: 'detached' });
  });

  it('suspends with a required reason the provider reads, then lifts it', async () => {
    const { page } = compliance;
    const row = await openRow(page);
    await row.getByRole('button', { name: 'Suspend', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
    await dialog.getByText('Write why the provider is suspended (at most 200 characters).').waitFor();
    const reason = 'Bio promises returns (case 77)';
    await dialog.getByLabel('Reason').fill(reason);
    await screenshot(page, 'back-office-copy-suspend');
    await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
    await row.getByText('Suspended', { exact: true }).waitFor();
    const suspended = await api<MyProvider>('/api/follow/provider/mine', provider.token);
    expect(suspended).toMatchObject({ status: 'suspended', suspended_reason: reason, listed: false });

    await row.getByRole('button', { name: 'Lift suspension', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await row.getByText('Stopped', { exact: true }).waitFor();
    expect((await api<MyProvider>('/api/follow/provider/mine', provider.token)).status).toBe('stopped');
  });

  it("shows the provider's copies on the user's detail", async () => {
    const { page } = compliance;
    const row = await openRow(page);
    await row.getByRole('link').first().click();
    await page.getByRole('tab', { name: 'Copy trading' }).click();
    await page.getByText('Copies of them', { exact: true }).click();
    await page.getByRole('tabpanel').getByRole('table').waitFor();
    await screenshot(page, 'back-office-copy-user');
  });
});
