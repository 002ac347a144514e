import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Imports point one way: the app (router, shell) on top, the features (one folder per screen) below it,
 * and the floor (api, components, company, i18n, routing, stores, …) under both. A feature that needs
 * another's widget, or a route path, finds it on the floor; two features never import each other.
 */
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.d.ts'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

type Layer = { rank: number; name: string };

function layerOf(file: string): Layer {
  if (file.startsWith('app/') || file === 'main.tsx') return { rank: 3, name: 'app' };
  const feature = /^features\/([^/]+)\//.exec(file)?.[1];
  if (feature) return { rank: 2, name: `features/${feature}` };
  return { rank: 1, name: 'floor' };
}

/** Every relative import of a file (static, dynamic, side-effect and CSS), as paths under src/. */
function relativeImports(file: string, source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)));
}

/** The imports that point up a layer or across to another feature. */
function wrongWayImports(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, source]) => {
    const from = layerOf(file);
    return relativeImports(file, source)
      .filter((target) => {
        const to = layerOf(target);
        return to.rank > from.rank || (to.rank === 2 && from.rank === 2 && to.name !== from.name);
      })
      .map((target) => `${file} -> ${target}`);
  });
}

const files = Object.fromEntries(Object.entries(sources).map(([file, source]) => [file.replace(/^\.\//, ''), source]));

describe('import direction', () => {
  it('finds the sources to check', () => {
    expect(Object.keys(files).length).toBeGreaterThan(50);
  });

  it('has no import from the floor up, from a feature into the app, or between features', () => {
    expect(wrongWayImports(files)).toEqual([]);
  });

  it('catches each wrong way', () => {
    const sample = {
      'components/Widget.tsx': `import { X } from '../features/trade/X';`,
      'features/home/HomePage.tsx': `import { router } from '../../app/router';\nconst L = lazy(() => import('../trade/TradePage'));\nimport '../wallet/wallet.css';\nimport { Paths } from '../../routing/paths';`,
      'app/router.tsx': `import Home from '../features/home/HomePage';`,
    };
    expect(wrongWayImports(sample)).toEqual([
      'components/Widget.tsx -> features/trade/X',
      'features/home/HomePage.tsx -> app/router',
      'features/home/HomePage.tsx -> features/trade/TradePage',
      'features/home/HomePage.tsx -> features/wallet/wallet.css',
    ]);
  });
});
