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

/** Signs in as the superadmin the server enrolled on its first start, with the code of the current step. */
async function signInFirstOperator(place: ServerPlace, baseURL: string): Promise<string> {
  const { email, password, otpauth } = await firstOperatorEnrolment(place);
  const otp = (OTPAuth.URI.parse(otpauth) as OTPAuth.TOTP).generate();
  const response = await fetch(`${baseURL}/admin/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', lang: 'en' },
    body: JSON.stringify({ email, password, otp }),
  });
  const envelope = (await response.json()) as { code: number; msg: string; data: { token: string } };
  if (envelope.code !== 1) throw new Error(`the first operator could not sign in: ${envelope.code} ${envelope.msg}`);
  return envelope.data.token;
}

/**
 * Builds the web app and the back office when their sources changed, then starts as many real servers as
 * the project has workers (journeys in parallel never share a server), each on a free port with a fresh
 * temporary data directory, and signs in as each one's first operator; everything is removed after the run.
 */
export default async function setup(project: TestProject) {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-web-if-needed.mjs')], { cwd: root, stdio: 'inherit' });

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
        return { baseURL, operatorToken: await signInFirstOperator(place, baseURL) };
      }),
    );
    project.provide('e2eServers', servers);
  } catch (error) {
    await cleanUp();
    throw error;
  }
  return cleanUp;
}
