import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, baseURL, hasHorizontalScroll, launchBrowser, open, phone, screenshot } from './support.js';

interface Pair {
  Id: number;
  Code: string;
  ShowCode: string;
  CategoryId: number;
  MarketStatus: number;
}

interface Category {
  Id: number;
  NameShowTrans: string;
}

describe('a visitor browses the markets', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sees prices move, filters by category, searches a pair and reads its 5M candles', async () => {
    const pairs = await api<Pair[]>('/v1/api/forex/trade_list');
    const categories = await api<Category[]>('/v1/api/forex/getCategories');
    // Bitcoin trades around the clock and moves by whole dollars a step, so its row visibly changes.
    const openPairs = pairs.filter((pair) => pair.MarketStatus === 1);
    const live = openPairs.find((pair) => pair.Code === 'BTCUSD') ?? openPairs[0];
    expect(live, 'an open market to watch').toBeDefined();
    const category = categories.find((candidate) => candidate.Id === live!.CategoryId)!;
    const inCategory = pairs.filter((pair) => pair.CategoryId === category.Id);

    const { context, page } = await phone(browser, 'en');
    // The main site's search finds companies; a company's own site searches its pairs (docs/api.md product).
    const company = await api<{ data: { id: number }[] }>('/api/company/search?name=Harbor');
    await context.addCookies([{ name: 'company_id', value: String(company.data[0]!.id), url: baseURL() }]);
    await open(page, '/');
    const markets = page.getByRole('list', { name: 'Markets' });
    await expect.poll(() => markets.getByRole('listitem').count()).toBe(pairs.length);
    expect(await hasHorizontalScroll(page)).toBe(false);
    await screenshot(page, 'journey1-home');

    // Prices tick over the socket: the open market's row changes (the bound is generous for a loaded machine).
    const row = markets.getByRole('link', { name: new RegExp(`^${live!.ShowCode}\\b`) });
    const before = await row.innerText();
    await expect.poll(() => row.innerText(), { timeout: 30_000, interval: 200 }).not.toBe(before);

    // A category chip filters; tapping it again clears the filter.
    const chip = page.getByRole('button', { name: category.NameShowTrans, exact: true });
    await chip.click();
    await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => markets.getByRole('listitem').count()).toBe(inCategory.length);
    await screenshot(page, 'journey1-filtered');
    await chip.click();
    await expect.poll(() => markets.getByRole('listitem').count()).toBe(pairs.length);

    // Search the pair and open it on the trade screen.
    await page.getByRole('link', { name: 'Search markets' }).click();
    await page.getByRole('searchbox').fill(live!.ShowCode.slice(0, 3));
    const results = page.getByRole('list', { name: 'Search results' });
    const result = results.getByRole('link', { name: new RegExp(`^${live!.ShowCode}\\b`) });
    await expect.poll(() => results.getByRole('listitem').count()).toBeLessThan(pairs.length);
    await result.waitFor();
    await screenshot(page, 'journey1-search');
    await result.click();
    await page.waitForURL(/#\/trade$/);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(live!.ShowCode);

    // Switch to 5-minute candles.
    await page.getByRole('button', { name: '5M', exact: true }).click();
    const chart = page.getByRole('img', { name: `${live!.ShowCode} candlestick chart, 5M` });
    await expect.poll(async () => Number(await chart.getAttribute('data-candles')), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'journey1-trade-5m');

    const bars = await api<unknown[]>(`/v1/api/forex/kline?forex_id=${live!.Id}&period=5min`);
    expect(Number(await chart.getAttribute('data-candles'))).toBe(bars.length);
    await context.close();
  });
});
