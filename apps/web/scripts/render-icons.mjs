// Renders the PNG app icons from their SVG sources with the system Chromium (run after editing an SVG):
//   node apps/web/scripts/render-icons.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const dir = path.resolve(import.meta.dirname, '../public/icons');
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu'],
});
for (const [svg, out, size] of [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['maskable.svg', 'maskable-512.png', 512],
  ['maskable.svg', 'apple-touch-icon.png', 180],
]) {
  const page = await browser.newPage({ viewport: { width: size, height: size } });
  const markup = readFileSync(`${dir}/${svg}`, 'utf8').replace('<svg ', `<svg width="${size}" height="${size}" `);
  await page.setContent(`<html><body style="margin:0;background:transparent">${markup}</body></html>`);
  await page.screenshot({ path: `${dir}/${out}`, omitBackground: true });
  await page.close();
}
await browser.close();
