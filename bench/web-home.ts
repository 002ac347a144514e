/**
 * What a phone downloads for `/` and how fast it paints, against the server `npm start` runs:
 *   - the gzip size of every script the page loads (goal ≤ 200 KB), measured in Chromium as the page
 *     actually requests them (entry, preloads, lazy chunks of the first screen, the language file);
 *   - the Lighthouse performance score of the phone and of the desktop layout (goal ≥ 94 each), Lighthouse
 *     12 from npm (the last major that runs on Node 20) with the system Chromium.
 * Each figure is printed with its ratio to the goal.
 *
 *   npm start                                   # in another shell
 *   npx tsx bench/web-home.ts [http://localhost:8080/]
 *   CHROMIUM_PATH (default /usr/bin/chromium)
 */
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const url = process.argv[2] ?? 'http://localhost:8080/';
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const flags = ['--headless', '--no-sandbox', '--disable-gpu'];
const JS_GOAL_KB = 200;
const SCORE_GOAL = 94;

async function scriptsOfHome() {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: [...flags, '--disable-background-networking'] });
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 2 });
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script') scripts.set(response.url(), response.body());
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  const sizes = await Promise.all(
    [...scripts].map(async ([script, body]) => {
      const raw = await body;
      return { name: new URL(script).pathname, raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
    }),
  );
  await browser.close();
  return sizes.sort((a, b) => b.gzip - a.gzip);
}

function lighthouseScore(formFactor: '--form-factor=mobile' | '--preset=desktop') {
  const output = execFileSync(
    'npx',
    [
      '-y',
      'lighthouse@12',
      url,
      '--only-categories=performance',
      formFactor,
      '--output=json',
      '--output-path=stdout',
      '--quiet',
      `--chrome-flags=${flags.join(' ')}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromiumPath }, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
  );
  const report = JSON.parse(output) as {
    categories: { performance: { score: number } };
    audits: Record<string, { displayValue?: string }>;
  };
  const metrics = [
    'first-contentful-paint',
    'largest-contentful-paint',
    'total-blocking-time',
    'cumulative-layout-shift',
    'speed-index',
  ];
  return {
    score: Math.round(report.categories.performance.score * 100),
    metrics: metrics.map((id) => `${id} ${report.audits[id]?.displayValue ?? '?'}`),
  };
}

const sizes = await scriptsOfHome();
const total = sizes.reduce((sum, size) => sum + size.gzip, 0) / 1024;
for (const size of sizes)
  console.log(
    `${(size.gzip / 1024).toFixed(1).padStart(7)} KB gzip  ${(size.raw / 1024).toFixed(1).padStart(7)} KB  ${size.name}`,
  );
console.log(
  `JS loaded for /: ${total.toFixed(1)} KB gzip in ${sizes.length} files (goal ≤ ${JS_GOAL_KB} KB, ratio ${(total / JS_GOAL_KB).toFixed(2)})`,
);

for (const [layout, formFactor] of [
  ['phone', '--form-factor=mobile'],
  ['desktop', '--preset=desktop'],
] as const) {
  const lighthouse = lighthouseScore(formFactor);
  console.log(lighthouse.metrics.join('\n'));
  console.log(
    `Lighthouse ${layout} performance: ${lighthouse.score} (goal ≥ ${SCORE_GOAL}, ratio ${(lighthouse.score / SCORE_GOAL).toFixed(2)})`,
  );
}
