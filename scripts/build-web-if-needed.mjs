// Builds the web app and the back office when a production bundle is missing or older than any of its sources, so
// `npm start` on a fresh clone serves the app and later starts skip the build.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const apps = [
  { name: 'web', workspace: '@pipwise/web', label: 'the web app' },
  { name: 'admin', workspace: '@pipwise/admin', label: 'the back office' },
];

function newest(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newest(path.join(entry, name))));
}

for (const app of apps) {
  const dir = `apps/${app.name}`;
  const sources = [`${dir}/src`, `${dir}/public`, `${dir}/index.html`, `${dir}/vite.config.ts`, 'packages/domain/src'];
  const bundle = path.join(root, dir, 'dist/index.html');
  const builtAt = existsSync(bundle) ? statSync(bundle).mtimeMs : 0;
  if (builtAt < Math.max(...sources.map(newest))) {
    console.log(`pipwise: building ${app.label}…`);
    // A NODE_ENV inherited from a test runner (vitest sets "test") would make Vite ship React's development build.
    execSync(`npm run build -w ${app.workspace}`, {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}
