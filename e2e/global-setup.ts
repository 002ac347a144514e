import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as OTPAuth from 'otpauth';
import type { TestProject } from 'vitest/node';
import { firstOperatorEnrolment, startServer, stopServer, type ServerPlace } from './server-process.js';

const root = path.resolve(import.meta.dirname, '..');

/** One e2e server as the journeys reach it. */
export interface E2eServer {
  baseURL: string;
  /** A session of the server's first operator (the superadmin it enrolled on its first start). */
  operatorToken: string;
  /**
   * A session of a second superadmin independent of the first (it was not handed by the first its
   * enrolment link), who approves what the first asks for that waits for a second superadmin.
   */
  approverToken: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** One server per worker of the e2e project: worker N (VITEST_POOL_ID) uses server N. */
    e2eServers: E2eServer[];
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

/** One operator API call at setup; its data, or an error naming the refusal. */
async function call<T>(baseURL: string, route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseURL}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { code: number; msg: string; data: T };
  if (envelope.code !== 1) throw new Error(`${route}: ${envelope.code} ${envelope.msg}`);
  return envelope.data;
}

/** Opens a one-time enrolment link as its operator would (a password of their own, their code); answers a session. */
async function enrol(baseURL: string, link: string): Promise<string> {
  const token = link.slice(link.lastIndexOf('/') + 1);
  const { otpauth } = await call<{ otpauth: string }>(baseURL, '/admin/api/enrolment/begin', { token });
  const otp = (OTPAuth.URI.parse(otpauth) as OTPAuth.TOTP).generate();
  const password = `e2e-${Math.random().toString(36).slice(2)}-password`;
  return (await call<{ token: string }>(baseURL, '/admin/api/enrolment/finish', { token, password, otp })).token;
}

/**
 * The server's two superadmins, independent of each other as the four-eyes rule wants them: the first
 * start's, enrolled through the link it printed, and one the host adds from the command line (the server
 * stopped, as the embedded database asks), whose link nobody in the back office was handed. The second
 * approves what the first asks for that waits for a second superadmin.
 */
async function enrolSuperadmins(
  place: ServerPlace,
  baseURL: string,
): Promise<Pick<E2eServer, 'operatorToken' | 'approverToken'>> {
  const first = (await firstOperatorEnrolment(place)).link;
  await stopServer(place);
  const printed = execFileSync(
    path.join(root, 'node_modules/.bin/tsx'),
    ['apps/server/src/cli/operator.ts', 'add', '--email', `e2e-approver-${place.port}@ops.example.com`, '--role', 'superadmin'],
    { cwd: root, env: { ...process.env, DATA_DIR: place.dataDir, DATABASE_URL: '', REDIS_URL: '' }, encoding: 'utf8' },
  );
  const approver = JSON.parse(printed.trim().split('\n').at(-1)!) as { link: string };
  await startServer(place);
  return { operatorToken: await enrol(baseURL, first), approverToken: await enrol(baseURL, approver.link) };
}

/**
 * Builds the web app and the back office when their sources changed, then starts as many real servers as
 * the project has workers (journeys in parallel never share a server), each on a free port with a fresh
 * temporary data directory, and signs in as each one's first operator; everything is removed after the run.
 */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web-if-needed.mjs')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'scripts/build-server.mjs')], { cwd: root, stdio: 'inherit' });

  const count = Math.max(1, Number(project.config.maxWorkers) || 1);
  const places: ServerPlace[] = [];
  while (places.length < count) {
    const port = await freePort();
    if (places.some((place) => place.port === port)) continue;
    places.push({ dataDir: mkdtempSync(path.join(tmpdir(), 'pipwise-e2e-')), port });
  }
  const cleanUp = async () => {
    for (const place of places) {
      await stopServer(place);
      rmSync(place.dataDir, { recursive: true, force: true });
    }
  };
  try {
    const servers = await Promise.all(
      places.map(async (place): Promise<E2eServer> => {
        await startServer(place);
        const baseURL = `http://127.0.0.1:${place.port}`;
        return { baseURL, ...(await enrolSuperadmins(place, baseURL)) };
      }),
    );
    project.provide('e2eServers', servers);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
