import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const sources = import.meta.glob<string>(['../**/*.tsx', '!../**/*.test.tsx'], { eager: true, query: '?raw', import: 'default' });

/** Attributes a reader sees or hears. */
const VISIBLE_ATTRIBUTES = new Set([
  'placeholder',
  'title',
  'alt',
  'aria-label',
  'label',
  'content',
  'cancelText',
  'confirmText',
]);
const LETTER = /\p{L}/u;

/** Every JSX text and visible string attribute holding letters, i.e. text that bypasses t(). */
function hardCodedTexts(file: string, source: string): string[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && LETTER.test(node.text)) found.push(node.text.trim());
    if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText())) {
      const value = node.initializer;
      const literal = value && ts.isJsxExpression(value) ? value.expression : value;
      if (literal && (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal)) && LETTER.test(literal.text)) {
        found.push(`${node.name.getText()}="${literal.text}"`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return found;
}

describe('visible text', () => {
  it('finds the screens to check', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(10);
  });

  it.each(Object.entries(sources))('%s has no hard-coded visible text', (file, source) => {
    expect(hardCodedTexts(file, source)).toEqual([]);
  });

  it('catches text outside t()', () => {
    const sample = `export const A = () => <p title="Hello">Buy now <b>{t('trade.buy')}</b></p>;`;
    expect(hardCodedTexts('sample.tsx', sample)).toEqual(['title="Hello"', 'Buy now']);
  });
});
