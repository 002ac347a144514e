import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The repository explains itself: comments and docs cite docs/product.md, docs/api.md and
 * docs/architecture.md, never a document a person who clones it cannot read (a specification's or
 * design notes' numbered sections, or a folder beside the repository).
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const TREES = ['apps', 'packages', 'e2e', 'bench', 'docs', 'scripts', '.ci'];
const SKIPPED = new Set(['node_modules', 'dist', 'data', 'artifacts', 'drizzle']);
const TEXT = /\.(?:ts|tsx|js|mjs|json|md|css|html|sh|yml|yaml)$/;
const OUTSIDE = /\b(?:spec|specification|DESIGN)\s*§|\.\.\/shared\b|product-spec\.md|DESIGN\.md/;

function textFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : textFiles(full);
    return TEXT.test(entry.name) ? [full] : [];
  });
}

describe('docs and comments stand on their own', () => {
  it('cite no document outside the repository', () => {
    const files = [...TREES.flatMap((tree) => textFiles(path.join(ROOT, tree))), path.join(ROOT, 'README.md')];
    expect(files.length).toBeGreaterThan(300);
    const citing = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) => (OUTSIDE.test(line) ? [`${path.relative(ROOT, file)}:${index + 1}: ${line.trim()}`] : [])),
    );
    expect(citing).toEqual([]);
  });
});
