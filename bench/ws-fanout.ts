import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * WebSocket fan-out: N clients subscribed to DAY_MARKET on one Pipwise server process (the real
 * server, simulated feed), then the same clients on a bare `ws` server broadcasting the same number of
 * quote frames at the same cadence. Clients live in two child processes so the server is measured
 * alone. Prints delivered messages/s, p50/p99 delivery latency (quote time → client, 1 ms resolution),
 * the server's CPU, and Pipwise ÷ bare.
 *
 *   npx tsx bench/ws-fanout.ts [clients=1000] [seconds=10]
 */
const clients = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 10);
const CLIENT_PROCESSES = 2;
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

interface Result {
  label: string;
  perSecond: number;
  p50: number;
  p99: number;
  cpuPercent: number;
  open: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** User + system CPU seconds of a process so far (Linux /proc). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function ask<T>(child: ChildProcess, message: unknown, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const listener = (reply: Record<string, unknown>) => {
      if ('error' in reply) reject(new Error(String(reply.error)));
      else if (key in reply) {
        child.off('message', listener);
        resolve(reply as T);
      }
    };
    child.on('message', listener);
    child.send(message as object);
  });
}

async function measure(label: string, server: ChildProcess, url: string): Promise<Result> {
  const swarm = Array.from({ length: CLIENT_PROCESSES }, () =>
    fork(path.join(here, 'ws-fanout/clients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' }),
  );
  const share = Math.ceil(clients / CLIENT_PROCESSES);
  await Promise.all(
    swarm.map((child, i) => ask(child, { cmd: 'connect', url, count: Math.min(share, clients - i * share) }, 'ready')),
  );
  if (server.connected) server.send({ cmd: 'broadcast' });
  await sleep(3000);
  for (const child of swarm) child.send({ cmd: 'start' });
  const cpuBefore = cpuSeconds(server.pid!);
  const started = performance.now();
  await sleep(seconds * 1000);
  const replies = await Promise.all(
    swarm.map((child) =>
      ask<{ received: number; buckets: [number, number][]; open: number }>(child, { cmd: 'stop' }, 'received'),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuPercent = ((cpuSeconds(server.pid!) - cpuBefore) / elapsed) * 100;
  for (const child of swarm) child.send({ cmd: 'close' });

  const histogram = new Map<number, number>();
  let received = 0;
  for (const reply of replies) {
    received += reply.received;
    for (const [ms, n] of reply.buckets) histogram.set(ms, (histogram.get(ms) ?? 0) + n);
  }
  const sorted = [...histogram.entries()].sort((a, b) => a[0] - b[0]);
  const percentile = (p: number) => {
    let seen = 0;
    for (const [ms, n] of sorted) {
      seen += n;
      if (seen >= received * p) return ms;
    }
    return NaN;
  };
  return {
    label,
    perSecond: received / elapsed,
    p50: percentile(0.5),
    p99: percentile(0.99),
    cpuPercent,
    open: replies.reduce((sum, reply) => sum + reply.open, 0),
  };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

async function pipwise(): Promise<{ result: Result; open: number }> {
  const port = await freePort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Every client connects from this host; the per-address cap is for the open internet.
      SOCKETS_PER_ADDRESS: String(clients),
      WEB_DIST: path.join(tmpdir(), 'pipwise-bench-no-web'),
      // Kept between runs: the first run back-fills chart history before it listens.
      DATA_DIR: process.env.DATA_DIR ?? path.join(tmpdir(), 'pipwise-bench-ws-fanout'),
    },
  });
  try {
    let open = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/api/forex/trade_list`);
        const body = (await response.json()) as { data: { MarketStatus: number }[] };
        open = body.data.filter((pair) => pair.MarketStatus === 1).length;
        break;
      } catch {
        if (attempt > 600 || server.exitCode !== null) throw new Error('the Pipwise server did not start');
        await sleep(500);
      }
    }
    const result = await measure('pipwise hub', server, `ws://127.0.0.1:${port}/v1/ws`);
    return { result, open };
  } finally {
    await stop(server);
  }
}

async function bare(symbols: number): Promise<Result> {
  const port = await freePort();
  const server = fork(path.join(here, 'ws-fanout/bare-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, PORT: String(port), SYMBOLS: String(symbols), EVERY_MS: '1200' },
  });
  try {
    await new Promise((resolve) => server.once('message', resolve));
    return await measure('bare ws', server, `ws://127.0.0.1:${port}`);
  } finally {
    await stop(server);
  }
}

const { result: ours, open } = await pipwise();
// Pipwise sends one DAY_MARKET per open instrument at most every second; with ticks every 400 ms
// that is every 1.2 s, which the baseline copies.
const baseline = await bare(open);

const row = (r: Result) =>
  `${r.label.padEnd(12)} ${r.perSecond.toFixed(0).padStart(10)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${r.cpuPercent.toFixed(0).padStart(8)}% ${String(r.open).padStart(8)}`;
console.log(`\nws-fanout: ${clients} clients subscribed to DAY_MARKET, ${open} instruments open, ${seconds} s measured`);
console.log(
  `${'server'.padEnd(12)} ${'msgs/s'.padStart(10)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'cpu'.padStart(9)} ${'sockets'.padStart(8)}`,
);
console.log(row(ours));
console.log(row(baseline));
console.log(
  `ratio pipwise/bare: delivered ${(ours.perSecond / baseline.perSecond).toFixed(2)}, ` +
    `p99 latency ${(baseline.p99 / Math.max(1, ours.p99)).toFixed(2)} (bare ÷ pipwise; ≥ 1 means pipwise is no slower)`,
);
process.exit(0);
