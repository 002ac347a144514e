// Builds the server and the domain package to plain JavaScript (`build/` beside each `src/`, the same tree),
// when a build is missing or older than any of its sources, so the server runs on Node alone. Run from
// TypeScript by tsx, every server process would also hold tsx's module-loader thread and its
// transformed sources: about 50 MB of resident memory before the first request (docs/operations.md).
// Each file is transformed on its own (the sources are `isolatedModules`), imports untouched, so paths
// taken from `import.meta.url` (the migrations, the web builds) resolve as they do from `src/`.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const packages = ['packages/domain', 'apps/server'];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? files(full) : [full];
  });
}

const stamp = (dir) => path.join(dir, 'build/.built');

for (const name of packages) {
  const dir = path.join(root, name);
  const sources = files(path.join(dir, 'src')).filter((file) => !/\.test\.ts$/.test(file));
  const builtAt = existsSync(stamp(dir)) ? statSync(stamp(dir)).mtimeMs : 0;
  if (sources.every((file) => statSync(file).mtimeMs < builtAt)) continue;
  console.log(`pipwise: building ${name}…`);
  const out = path.join(dir, 'build');
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: sources.filter((file) => file.endsWith('.ts')),
    outdir: out,
    outbase: path.join(dir, 'src'),
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    sourcemap: true,
    logLevel: 'warning',
  });
  // What the code reads beside itself: message catalogues, logos.
  for (const file of sources.filter((source) => !source.endsWith('.ts'))) {
    const target = path.join(out, path.relative(path.join(dir, 'src'), file));
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(file, target);
  }
  writeFileSync(stamp(dir), '');
}
