// Runs a bench on Node alone against the server's JavaScript build, as `npm start` runs the server: the
// bench's own files are bundled by esbuild, every import of apps/server/src is taken from
// apps/server/build instead, and packages (and @pipwise/domain, under the pipwise-build condition) come
// from node_modules. A bench run by tsx would measure tsx's loader thread and transformed sources too
// (about 90 MB of resident memory with the server's modules loaded).
//
//   node bench/run-built.mjs bench/engine-db.ts [args…]   (Node flags such as --expose-gc before the script)
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';

const benchDir = import.meta.dirname;
const root = path.resolve(benchDir, '..');
const [entry, ...args] = process.argv.slice(2);
if (!entry) throw new Error('usage: node bench/run-built.mjs <bench file> [args…]');

execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { stdio: 'inherit' });
// Beside the benches, so the bundle finds node_modules as they do.
const out = path.join(benchDir, '.built', `${path.basename(entry, '.ts')}.mjs`);
const serverSources = `${path.sep}apps${path.sep}server${path.sep}src${path.sep}`;
await build({
  entryPoints: [path.resolve(entry)],
  outfile: out,
  bundle: true,
  packages: 'external',
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  logLevel: 'warning',
  plugins: [
    {
      name: 'server-build',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /apps\/server\/src\// }, ({ path: specifier, resolveDir }) => ({
          path: path
            .resolve(resolveDir, specifier)
            .replace(serverSources, `${path.sep}apps${path.sep}server${path.sep}build${path.sep}`),
          external: true,
        }));
      },
    },
  ],
});
const { status } = spawnSync(process.execPath, [...process.execArgv, '--conditions=pipwise-build', out, ...args], {
  stdio: 'inherit',
});
process.exit(status ?? 1);
