import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Modules meet only through the services `modules.ts` hands over and the event bus: no module imports
 * another's code. Types may cross (they vanish at run time and name the service handed over). What
 * several modules share lies on a floor below them (`review/`, `cashier/`, `positions/`, `security/`,
 * `i18n/`, `http/`, `db/`, …), and a floor imports no module's code either. Only the wiring and the entry
 * points (`modules.ts`, `app.ts`, `main.ts`, `cli/`) build modules; the message catalogues that each
 * module keeps beside its code are data, which `i18n/catalog.ts` gathers.
 */
const SRC = fileURLToPath(new URL('../src/', import.meta.url));

const WIRING = /^(modules\.ts|app\.ts|main\.ts|cli\/)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The module a path under src/ belongs to, or null for the floors and the wiring. */
const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1] ?? null;

/** Whether an import or re-export brings in nothing but types (`import type`, or every name marked `type`). */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return (
      !!clause &&
      ts.isNamedExports(clause) &&
      clause.elements.length > 0 &&
      clause.elements.every((element) => element.isTypeOnly)
    );
  }
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

/** Every relative import of a file that brings in code (static, re-export, side-effect or dynamic), as paths under src/. */
function codeImports(file: string, source: string): string[] {
  const specifiers: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (!typeOnly(node) && ts.isStringLiteral(node.moduleSpecifier)) specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) specifiers.push(argument.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS));
  return specifiers
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
}

/** The code imports that cross from one module into another, or from a floor up into a module. */
function crossingImports(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, source]) => {
    if (WIRING.test(file)) return [];
    const from = moduleOf(file);
    return codeImports(file, source)
      .filter((target) => {
        const to = moduleOf(target);
        if (to === null || to === from) return false;
        return !(from === null && target.endsWith('.json'));
      })
      .map((target) => `${file} -> ${target}`);
  });
}

const files = Object.fromEntries(
  sourceFiles(SRC).map((file) => [path.relative(SRC, file).split(path.sep).join('/'), readFileSync(file, 'utf8')]),
);

describe('server modules', () => {
  it('finds the sources to check', () => {
    expect(Object.keys(files).length).toBeGreaterThan(100);
  });

  it('import no other module’s code, and the floors import none', () => {
    expect(crossingImports(files)).toEqual([]);
  });

  it('catches each crossing and lets types, the wiring and the catalogues through', () => {
    const sample = {
      'modules/reviews/routes.ts': [
        `import { presentOperatorDeposit } from '../deposits/present.js';`,
        `import type { DepositsService } from '../deposits/service.js';`,
        `import { type WithdrawalsService, type WithdrawalRecord } from '../withdrawals/service.js';`,
        `import { queuePage, type ReviewDesk } from '../../review/desk.js';`,
        `import { AdjustmentStatus } from './adjustments.js';`,
      ].join('\n'),
      'modules/risk/service.ts': `export { exposureOf } from '../trading/books.js';\nexport type { Book } from '../trading/books.js';`,
      'modules/deposits/channels.ts': `const checks = await import('../withdrawals/destinations.js');\nimport '../wallet/notices.js';`,
      'review/desk.ts': `import { UserSummaries } from '../modules/reviews/summary.js';\nimport type { Quote } from '../modules/market/api.js';`,
      'i18n/catalog.ts': `import deposits from '../modules/deposits/messages.json' with { type: 'json' };`,
      'modules.ts': `import { createDepositsModule } from './modules/deposits/module.js';`,
      'cli/operator.ts': `import { OperatorsService } from '../modules/operators/service.js';`,
    };
    expect(crossingImports(sample)).toEqual([
      'modules/reviews/routes.ts -> modules/deposits/present.js',
      'modules/risk/service.ts -> modules/trading/books.js',
      'modules/deposits/channels.ts -> modules/withdrawals/destinations.js',
      'modules/deposits/channels.ts -> modules/wallet/notices.js',
      'review/desk.ts -> modules/reviews/summary.js',
    ]);
  });
});
