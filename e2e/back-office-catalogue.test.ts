import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator, desk, menu, type OperatorEnrolment } from './backoffice.js';
import { asOperator } from './cashier.js';
import { api, launchBrowser, open, phone, screenshot, type PairView } from './support.js';

/*
 * The back office's catalogue and content desks, each change made on a content operator's screen and
 * seen where users see it: a news article written in the rich-text editor (markup pasted into it loses
 * its script on the way) appears in the phone app's news, and a new spread of an instrument is in the
 * very next quotes the phone receives, without a restart.
 */

interface InstrumentRow {
  id: number;
  code: string;
  price_precision: number;
  spread: string;
}
interface NewsRow {
  id: number;
  lang: string;
  title: string;
  content: string;
  published: boolean;
}

const rowsOf = <T>(data: T[] | { data: T[] }) => (Array.isArray(data) ? data : data.data);

/** The quote of one instrument as the phone's market list receives it: ask − bid in units of its last digit. */
async function quotedSpreadUnits(code: string, precision: number): Promise<number> {
  const pairs = await api<PairView[]>('/v1/api/forex/trade_list');
  const pair = pairs.find((candidate) => candidate.Code === code);
  if (!pair) throw new Error(`${code} is not quoted`);
  return Math.round((pair.ForexQuotations.Ask - pair.ForexQuotations.Bid) * 10 ** precision);
}

const units = (spread: string, precision: number) => Math.round(Number(spread) * 10 ** precision);

describe('a content operator publishes news and changes a spread; the phone app follows', () => {
  let browser: Browser;
  let content: OperatorEnrolment;
  let desktop: { context: BrowserContext; page: Page };
  /** The instrument whose spread the journey changes, as it was before (restored afterwards). */
  let instrument: InstrumentRow | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
    content = await createOperator('content');
    desktop = await desk(browser, content);
  });

  afterAll(async () => {
    if (instrument) await asOperator(`/admin/api/instruments/${instrument.id}`, { spread: instrument.spread }, 'PUT');
    await browser?.close();
  });

  it('writes an article with a heading and bold text; the phone shows it, and pasted script never reaches anyone', async () => {
    const { page } = desktop;
    const title = `Rates decision ${Date.now()}`;
    await menu(page, 'News');
    await page.getByRole('button', { name: 'New article' }).click();
    const drawer = page.getByRole('dialog', { name: 'New article' });
    await drawer.waitFor();

    await drawer.getByLabel('Title', { exact: true }).fill(title);
    await drawer.getByLabel('Summary', { exact: true }).fill('What the central bank decided today.');
    await drawer.getByRole('switch', { name: 'Published' }).click();
    const editor = drawer.getByRole('textbox', { name: 'Content' });
    await editor.click();
    await drawer.getByRole('button', { name: 'Heading', exact: true }).click();
    await page.keyboard.type('What changed');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Rates are unchanged. ');
    await drawer.getByRole('button', { name: 'Bold', exact: true }).click();
    await page.keyboard.type('Carry trades stay open.');
    await drawer.getByRole('button', { name: 'Bold', exact: true }).click();
    await page.keyboard.press('Enter');
    // Markup copied from elsewhere, pasted into the editor: its script and handler must not survive.
    await editor.evaluate((element) => {
      const data = new DataTransfer();
      data.setData(
        'text/html',
        '<p>Pasted note.</p><script>window.__ran = "script"</script><img src="x" onerror="window.__ran = \'handler\'">',
      );
      data.setData('text/plain', 'Pasted note.');
      element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await editor.getByText('Pasted note.').waitFor();
    await drawer.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').first().waitFor({ timeout: 15_000 });
    // The drawer stays open on the article as the server stored it (sanitised), now as an edit.
    const edited = page.getByRole('dialog', { name: 'Edit article' });
    await edited.getByTestId('saved-preview').waitFor();
    await screenshot(page, 'back-office-news-saved');
    // The drawer's own Close (its corner icon is named "Close" too, without the text).
    await edited.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
    await edited.waitFor({ state: 'hidden' });

    // What the server stored: the heading and the bold text, and nothing that runs.
    const stored = rowsOf(
      await asOperator<NewsRow[] | { data: NewsRow[] }>('/admin/api/news?lang=en&page_size=100', {}, 'GET'),
    ).find((row) => row.title === title)!;
    expect(stored).toMatchObject({ lang: 'en', published: true });
    expect(stored.content).toMatch(/<h2>What changed<\/h2>/);
    expect(stored.content).toMatch(/<strong>Carry trades stay open\.<\/strong>/);
    expect(stored.content).not.toMatch(/<script|onerror|__ran/i);

    // The phone's news list and the article page show it.
    const reader = await phone(browser, 'en');
    await open(reader.page, '/news');
    await reader.page.getByRole('link', { name: new RegExp(title) }).click({ timeout: 20_000 });
    await expect.poll(() => reader.page.url()).toMatch(new RegExp(`#/news/detail\\?id=${stored.id}$`));
    const article = reader.page.getByRole('article');
    await expect.poll(() => article.getByRole('heading', { level: 1 }).innerText()).toBe(title);
    expect(await article.getByRole('heading', { level: 2 }).innerText()).toBe('What changed');
    expect(await article.locator('strong').innerText()).toBe('Carry trades stay open.');
    expect(await article.innerText()).toContain('Pasted note.');
    expect(await article.locator('script, [onerror]').count()).toBe(0);
    expect(await reader.page.evaluate(() => (window as { __ran?: string }).__ran ?? null)).toBeNull();
    await screenshot(reader.page, 'back-office-news-on-phone');
    await reader.context.close();
  });

  it('changes the spread of an instrument; the quotes the phone receives use it within seconds, without a restart', async () => {
    const instruments = rowsOf(
      await asOperator<InstrumentRow[] | { data: InstrumentRow[] }>('/admin/api/instruments', {}, 'GET'),
    );
    const pairs = await api<PairView[]>('/v1/api/forex/trade_list');
    // EURUSD when its market is open (it only ticks then); otherwise a market open now (crypto always is).
    const quoted =
      pairs.find((pair) => pair.Code === 'EURUSD' && pair.MarketStatus === 1) ?? pairs.find((pair) => pair.MarketStatus === 1);
    if (!quoted) throw new Error('no market is open');
    instrument = instruments.find((row) => row.code === quoted.Code)!;
    const precision = instrument.price_precision;
    const before = units(instrument.spread, precision);
    await expect.poll(() => quotedSpreadUnits(instrument!.code, precision), { timeout: 15_000 }).toBe(before);
    const widened = (before + 25) / 10 ** precision;
    const spread = widened.toFixed(precision);

    const { page } = desktop;
    await menu(page, 'Instruments');
    await page.getByRole('button', { name: `Edit ${instrument.code}`, exact: true }).click();
    const drawer = page.getByRole('dialog', { name: 'Edit instrument' });
    const field = drawer.getByRole('spinbutton', { name: 'Spread' });
    // The field writes the number as typed ("25" for a stored "25.00"): compared as numbers.
    await expect.poll(async () => Number(await field.inputValue())).toBe(Number(instrument.spread));
    await field.fill(spread);
    await drawer.getByRole('button', { name: 'Save', exact: true }).click();
    await drawer.waitFor({ state: 'hidden', timeout: 15_000 });
    await page.getByTestId(`row-${instrument.id}`).getByText(spread, { exact: true }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'back-office-spread-changed');

    const saved = rowsOf(await asOperator<InstrumentRow[] | { data: InstrumentRow[] }>('/admin/api/instruments', {}, 'GET')).find(
      (row) => row.id === instrument!.id,
    )!;
    expect(units(saved.spread, precision)).toBe(before + 25);
    await expect.poll(() => quotedSpreadUnits(instrument!.code, precision), { timeout: 15_000 }).toBe(before + 25);

    // And back, from the same screen: the quotes follow again.
    await page.getByRole('button', { name: `Edit ${instrument.code}`, exact: true }).click();
    await expect.poll(async () => Number(await field.inputValue())).toBe(Number(saved.spread));
    await field.fill(instrument.spread);
    // Not `exact`: after a first save antd leaves the button's (hidden) loading icon in its name ("loading Save").
    await drawer.getByRole('button', { name: 'Save' }).click();
    await drawer.waitFor({ state: 'hidden', timeout: 15_000 });
    await expect.poll(() => quotedSpreadUnits(instrument!.code, precision), { timeout: 15_000 }).toBe(before);
  });
});
