import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const tsx = path.resolve(serverDir, '../../node_modules/.bin/tsx');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>) {
  const child = spawn(tsx, ['src/main.ts'], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function waitFor(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('the server process', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a bad setting with a one-line reason and a non-zero exit', async () => {
    const server = startServer({ PORT: 'eighty' });
    children.push(server.child);
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toMatch(/^pipwise: Invalid PORT="eighty": .+$/);
  });

  // A first start back-fills the charts' history before it is ready: a minute on a busy machine.
  it('starts on PGlite in DATA_DIR, serves the API, and on SIGTERM closes everything and exits 0', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pipwise-process-'));
    dirs.push(dataDir);
    const port = await freePort();
    const server = startServer({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    children.push(server.child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(async () => {
      try {
        return (await fetch(`${base}/api/nope`)).status === 404;
      } catch {
        return false;
      }
    }, 'the server to answer');

    const response = await fetch(`${base}/api/nope`, { headers: { lang: 'en' } });
    expect(await response.json()).toEqual({ code: 1004, msg: 'The requested address does not exist', data: null });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('stopped');
  }, 150_000);
});
