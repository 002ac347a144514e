import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asOperator } from './cashier.js';
import { hasHorizontalScroll, launchBrowser, open, phone, screenshot } from './support.js';

const TITLE = 'Central banks hold rates';

describe('a visitor reads the news', () => {
  let browser: Browser;

  beforeAll(async () => {
    // Published through the operator API with markup that must never run: the server strips it, the app
    // sanitises again before showing it.
    await asOperator('/admin/api/news', {
      lang: 'en',
      title: TITLE,
      description: 'Markets expect no change this quarter.',
      content:
        '<p>Rates stay where they are.</p><p><strong>Why it matters:</strong> carry trades.</p>' +
        '<script>window.__ran = "script"</script><img src="x" onerror="window.__ran = \'handler\'">' +
        '<a href="javascript:window.__ran = \'link\'">more</a>',
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens an article from the list and sees its text, with nothing of its markup running', async () => {
    const { context, page } = await phone(browser, 'en');
    await open(page, '/news');
    await page.getByRole('link', { name: new RegExp(TITLE) }).click();
    await expect.poll(() => page.url()).toMatch(/#\/news\/detail\?id=\d+$/);
    const article = page.getByRole('article');
    await expect.poll(() => article.getByRole('heading', { level: 1 }).innerText()).toBe(TITLE);
    expect(await article.innerText()).toContain('Rates stay where they are.');
    expect(await article.locator('strong').innerText()).toBe('Why it matters:');
    expect(await article.locator('script, [onerror]').count()).toBe(0);
    // The javascript: address is gone, so "more" is no longer a link at all.
    const more = article.getByText('more', { exact: true });
    expect(await more.getAttribute('href')).toBeNull();
    await more.click();
    expect(await page.evaluate(() => (window as { __ran?: string }).__ran ?? null)).toBeNull();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'news-detail');

    // An address naming no article shows the empty state, not an error.
    await open(page, '/news/detail?id=987654');
    await expect.poll(() => page.getByRole('status').innerText()).toBe('No data');
    await context.close();
  });
});
