import { fork, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Reconnect storm: N sockets (default 15,000, in processes of 5,000 from their own 127.0.0.x) subscribed
 * to DAY_MARKET on one Pipwise process (ROLE=all, PGlite, simulated feed), all dropped at once and opened
 * again at once, while one client asks the API for the trade list over and over. Prints how long the
 * storm took to reconnect everyone, how many upgrades were refused (503, retried after Retry-After with
 * jitter), and the API's p50/p99 when calm (sockets connected) and during the storm.
 *
 *   npx tsx bench/ws-storm.ts [sockets=15000]
 */
const count = Number(process.argv[2] ?? 15_000);
const PER_PROCESS = 5_000;
const CALM_MS = 5_000;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (reply: Record<string, unknown>) =>
      'error' in reply ? reject(new Error(String(reply.error))) : resolve(reply as T),
    );
    child.send(message);
  });
}

/** API latencies (ms) of one client asking one request after another until `until` resolves. */
async function probe(api: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await fetch(api);
    await response.arrayBuffer();
    latencies.push(performance.now() - started);
  }
  return latencies.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    SOCKETS_PER_ADDRESS: String(count),
    WEB_DIST: path.join(tmpdir(), 'pipwise-bench-no-web'),
    DATA_DIR: process.env.DATA_DIR ?? path.join(tmpdir(), 'pipwise-bench-ws-fanout'),
  },
});
children.add(server);
const api = `http://127.0.0.1:${port}/v1/api/forex/trade_list`;
for (let attempt = 0; ; attempt++) {
  try {
    if ((await fetch(api)).ok) break;
  } catch {
    if (attempt > 600 || server.exitCode !== null) throw new Error('the Pipwise server did not start');
    await sleep(500);
  }
}

const url = `ws://127.0.0.1:${port}/v1/ws`;
const parts = Array.from({ length: Math.ceil(count / PER_PROCESS) }, (_, i) => ({
  url,
  count: Math.min(PER_PROCESS, count - i * PER_PROCESS),
  from: `127.0.0.${20 + i}`,
}));
const swarm = parts.map(() => {
  const child = fork(path.join(here, 'ws-storm/clients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.add(child);
  return child;
});
type Done = { ms: number; refusals: number };
await Promise.all(swarm.map((child, i) => ask<Done>(child, { cmd: 'connect', ...parts[i] })));
await sleep(2_000);

const calm = await probe(api, sleep(CALM_MS));
const stormStarted = performance.now();
const storm = Promise.all(swarm.map((child, i) => ask<Done>(child, { cmd: 'storm', ...parts[i] })));
const during = await probe(api, storm);
const stormMs = performance.now() - stormStarted;
const results = await storm;
for (const child of swarm) child.send({ cmd: 'close' });

const refusals = results.reduce((sum, r) => sum + r.refusals, 0);
console.log(`\nws-storm: ${count} sockets dropped and reopened at once (load ${loadavg()[0]!.toFixed(2)})`);
console.log(`all reconnected in ${(stormMs / 1000).toFixed(2)} s; ${refusals} upgrades refused with 503 and retried`);
console.log(`API calm:  ${calm.length} requests, p50 ${pct(calm, 0.5).toFixed(1)} ms, p99 ${pct(calm, 0.99).toFixed(1)} ms`);
console.log(
  `API storm: ${during.length} requests, p50 ${pct(during, 0.5).toFixed(1)} ms, p99 ${pct(during, 0.99).toFixed(1)} ms`,
);
console.log(`storm ÷ calm p50: ${(pct(during, 0.5) / pct(calm, 0.5)).toFixed(2)}`);
server.kill('SIGTERM');
await sleep(2_000);
process.exit(0);
