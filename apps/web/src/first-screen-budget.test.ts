import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * What a phone downloads before it shows a screen, held under a budget so the first load cannot grow
 * unnoticed: the production build's entry chunk and every chunk it imports statically, the chunks the
 * screen's lazy component brings (and what they import), the CSS of all of them, and one language's
 * messages (the largest of them: a visitor loads only the one they read). Sizes are gzip -9 in KB of 1,024
 * bytes, as a phone receives them. The figures are in docs/benchmarks.md.
 */
interface Screen {
  /** The manifest keys of the lazy modules the screen loads at once, besides the entry. */
  lazy: string[];
  /** KB. */
  budget: number;
}

const SCREENS: Record<string, Screen> = {
  '/': { lazy: [], budget: 150 },
  // The trade tab and its candle chart, which it shows as soon as the bars arrive, with antd-mobile's render
  // that every screen but the first loads with it (app/antdRender.ts). The order ticket on it validates with
  // zod and estimates with decimal.js; its popups (the pair drawer, the receipt) come after the first paint.
  '/#/trade': {
    lazy: ['src/features/trade/TradePage.tsx', 'src/features/trade/CandleChart.tsx', 'src/app/setAntdRender.ts'],
    budget: 265,
  },
};

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const root = path.resolve(import.meta.dirname, '../../..');
const dist = path.join(root, 'apps/web/dist');
const LOCALE = /^src\/i18n\/locales\/[a-z]+\.json$/;

let manifest: Record<string, ManifestChunk>;
const gzipped = new Map<string, number>();

/** gzip -9 size of a built file, in bytes. */
function gzipSize(file: string): number {
  let size = gzipped.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    gzipped.set(file, size);
  }
  return size;
}

/** The files a module key loads: its chunk, its CSS, and the same for every chunk it imports statically. */
function loadedFiles(keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    files.add(chunk.file);
    chunk.css?.forEach((css) => files.add(css));
    chunk.imports?.forEach(visit);
  };
  keys.forEach(visit);
  return files;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

beforeAll(() => {
  // A no-op when `npm test`'s journeys (or `npm start`) already built the current sources.
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web-if-needed.mjs')], { cwd: root, stdio: 'inherit' });
  const file = path.join(dist, '.vite/manifest.json');
  if (!existsSync(file)) throw new Error('the web build wrote no .vite/manifest.json (build.manifest in vite.config.ts)');
  manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
}, 300_000);

describe('first screen budget', () => {
  const entry = () => Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const locales = () => Object.keys(manifest).filter((key) => LOCALE.test(key));

  it('finds the entry and one chunk per language', () => {
    expect(entry()).toEqual(['index.html']);
    expect(locales()).toHaveLength(18);
  });

  it('loads no language but the reader’s before the first paint', () => {
    const localeFiles = new Set(locales().map((key) => manifest[key]!.file));
    for (const { lazy } of Object.values(SCREENS)) {
      expect([...loadedFiles([...entry(), ...lazy])].filter((file) => localeFiles.has(file))).toEqual([]);
    }
  });

  for (const [screen, { lazy, budget }] of Object.entries(SCREENS)) {
    it(`keeps ${screen} under ${budget} KB of JS and CSS (gzip -9)`, () => {
      const files = [...loadedFiles([...entry(), ...lazy])];
      const messages = Math.max(...locales().map((key) => gzipSize(manifest[key]!.file)));
      const total = files.reduce((sum, file) => sum + gzipSize(file), messages);
      const largest = files
        .sort((a, b) => gzipSize(b) - gzipSize(a))
        .slice(0, 8)
        .map((file) => `${file} ${kb(gzipSize(file))}`);
      console.log(
        `${screen}: ${kb(total)} KB (budget ${budget} KB) in ${files.length + 1} files, ` +
          `${kb(messages)} KB of them one language's messages; largest: ${largest.join(', ')}`,
      );
      expect(kb(total)).toBeLessThanOrEqual(budget);
    });
  }
});
