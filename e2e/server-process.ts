import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STARTUP_LIMIT_MS = 240_000;
const STOP_LIMIT_MS = 8_000;

/** Where one e2e server keeps its data, on which port, and where its console goes. */
export interface ServerPlace {
  dataDir: string;
  port: number;
}

export const logFileOf = (place: ServerPlace) => path.join(place.dataDir, 'server.log');
const pidFileOf = (place: ServerPlace) => path.join(place.dataDir, 'server.pid');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Starts the real server as `npm start` does (`node --conditions=pipwise-build apps/server/build/main.js`,
 * built by the global set-up) with the captcha off and
 * info logs, appending its console to the log file so journeys can read the codes the outbox prints.
 */
export async function startServer(place: ServerPlace) {
  const logFile = logFileOf(place);
  const from = existsSync(logFile) ? statSync(logFile).size : 0;
  const log = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--conditions=pipwise-build', 'apps/server/build/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(place.port),
      HOST: '127.0.0.1',
      DATA_DIR: place.dataDir,
      CAPTCHA_REQUIRED: 'false',
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      // Each simulated person comes from their own address (X-Forwarded-For, see support.ts), as real users
      // do: the per-address limits on codes and registration then count one person, not the whole suite.
      TRUST_PROXY: '1',
    },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  writeFileSync(pidFileOf(place), String(child.pid));

  const started = Date.now();
  while (Date.now() - started < STARTUP_LIMIT_MS) {
    const output = readFileSync(logFile, 'utf8').slice(from);
    if (output.includes('Pipwise listening')) return;
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stopServer(place);
  throw new Error('server did not start in time');
}

/** What a first start prints for the superadmin it makes: `OPERATOR ENROLMENT {json}`, its one-time enrolment link. */
export interface Enrolment {
  email: string;
  role: string;
  link: string;
  expires_at: string;
}

const ENROLMENT_MARK = 'OPERATOR ENROLMENT ';

/** The first operator's enrolment from the server's log (a fresh data directory's first start prints it). */
export async function firstOperatorEnrolment(place: ServerPlace, timeoutMs = 10_000): Promise<Enrolment> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const line = readFileSync(logFileOf(place), 'utf8')
      .split('\n')
      .find((candidate) => candidate.startsWith(ENROLMENT_MARK));
    if (line) return JSON.parse(line.slice(ENROLMENT_MARK.length)) as Enrolment;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the server printed no operator enrolment (${logFileOf(place)})`);
}

/** Stops the server of this place (SIGTERM, then SIGKILL when it outlives vitest's teardown budget). */
export async function stopServer(place: ServerPlace) {
  const pidFile = pidFileOf(place);
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, 'utf8'));
  rmSync(pidFile);
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const started = Date.now();
  while (alive(pid) && Date.now() - started < STOP_LIMIT_MS) await new Promise((resolve) => setTimeout(resolve, 100));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
}
