import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { logFileOf, startServer, stopServer, type ServerPlace } from './server-process.js';

const root = path.resolve(import.meta.dirname, '..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    serverLog: string;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Builds the web app when its sources changed, then starts the real server on a free port with a fresh
 * temporary data directory; everything is removed again after the run.
 */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web-if-needed.mjs')], { cwd: root, stdio: 'inherit' });

  const place: ServerPlace = { dataDir: mkdtempSync(path.join(tmpdir(), 'pipwise-e2e-')), port: await freePort() };
  const cleanUp = async () => {
    await stopServer(place);
    rmSync(place.dataDir, { recursive: true, force: true });
  };
  try {
    await startServer(place);
  } catch (error) {
    await cleanUp();
    throw error;
  }

  project.provide('baseURL', `http://127.0.0.1:${place.port}`);
  project.provide('serverLog', logFileOf(place));
  return cleanUp;
}
