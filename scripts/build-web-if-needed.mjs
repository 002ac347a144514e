// Builds the web app when its production bundle is missing or older than any of its sources, so
// `npm start` on a fresh clone serves the app and later starts skip the build.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/domain/src'];
const bundle = path.join(root, 'apps/web/dist/index.html');

function newest(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newest(path.join(entry, name))));
}

const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
if (builtAt < Math.max(...sources.map(newest))) {
  console.log('pipwise: building the web app…');
  // A NODE_ENV inherited from a test runner (vitest sets "test") would make Vite ship React's development build.
  execSync('npm run build -w @pipwise/web', { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
