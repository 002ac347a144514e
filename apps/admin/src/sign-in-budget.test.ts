import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * What an operator's browser downloads before the sign-in form shows, held under a budget so it cannot
 * grow unnoticed: the production build's entry chunk and every chunk it imports statically, their CSS,
 * and the messages the form waits for (common, the menu's and sign-in's, in the larger language). The
 * signed-in shell, its pages and the schemas a field's check loads come later. Sizes are gzip -9 in KB of
 * 1,024 bytes, as apps/web's first-screen budget counts them; the figures are in docs/benchmarks.md.
 */
const BUDGET_KB = 240;
/** The areas i18n.ts loads at start and the sign-in page asks for. */
const SIGN_IN_AREAS = ['common', 'nav', 'login'];

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const root = path.resolve(import.meta.dirname, '../../..');
const dist = path.join(root, 'apps/admin/dist');

let manifest: Record<string, ManifestChunk>;

/** gzip -9 size of a built file, in bytes. */
const gzipSize = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

/** The entry's files: its chunk, its CSS, and the same for every chunk it imports statically. */
function entryFiles(): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build's manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.css?.forEach((css) => files.add(css));
    chunk.imports?.forEach(visit);
  };
  visit('index.html');
  return files;
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

beforeAll(() => {
  // A no-op when the journeys (or `npm start`) already built the current sources.
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web-if-needed.mjs')], { cwd: root, stdio: 'inherit' });
  const file = path.join(dist, '.vite/manifest.json');
  if (!existsSync(file)) throw new Error('the admin build wrote no .vite/manifest.json (build.manifest in vite.config.ts)');
  manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, ManifestChunk>;
}, 300_000);

describe('sign-in budget', () => {
  it('leaves the signed-in shell, zod and decimal.js out of the first load', () => {
    const loaded = entryFiles();
    for (const lazy of ['src/Shell.tsx', 'src/pages/Enrol.tsx']) {
      expect(manifest[lazy], lazy).toBeDefined();
      expect(loaded.has(manifest[lazy]!.file), lazy).toBe(false);
    }
    // Each library's own marker, which minifying keeps: decimal.js's error prefix, zod's base type's name.
    const found = [...loaded]
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => readFileSync(path.join(dist, file), 'utf8').match(/\[DecimalError\]|\$ZodType\b/g) ?? []);
    expect(new Set(found)).toEqual(new Set());
  });

  it(`keeps the sign-in page under ${BUDGET_KB} KB of JS and CSS (gzip -9)`, () => {
    const files = [...entryFiles()];
    const messages = Math.max(
      ...['en', 'hk'].map((language) =>
        SIGN_IN_AREAS.reduce((sum, area) => sum + gzipSize(manifest[`src/locales/${language}/${area}.json`]!.file), 0),
      ),
    );
    const total = files.reduce((sum, file) => sum + gzipSize(file), messages);
    const largest = files
      .sort((a, b) => gzipSize(b) - gzipSize(a))
      .slice(0, 6)
      .map((file) => `${file} ${kb(gzipSize(file))}`);
    console.log(
      `admin sign-in: ${kb(total)} KB (budget ${BUDGET_KB} KB) in ${files.length + SIGN_IN_AREAS.length} files, ` +
        `${kb(messages)} KB of them messages; largest: ${largest.join(', ')}`,
    );
    expect(kb(total)).toBeLessThanOrEqual(BUDGET_KB);
  });
});
