import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAllInOne, startClusterOnFreshDatabase, type Cluster } from './cluster.js';

/**
 * WebSocket fan-out: N clients subscribed to DAY_MARKET on the real Pipwise server (simulated feed),
 * then the same clients on bare `ws` servers broadcasting the same number of quote frames at the same
 * cadence. Prints delivered messages/s, p50/p99 delivery latency (quote time → client, 1 ms
 * resolution), the servers' CPU and resident memory, and Pipwise ÷ bare.
 *
 *   npx tsx bench/ws-fanout.ts [clients=1000] [seconds=10]
 *
 * WS_GATEWAYS=n: n `ROLE=gateway` processes and one `ROLE=engine` (bench/cluster.ts: the simulated
 * feed without the first start's history back-fill, every process ready by /readyz, so quotes flow
 * before the clients connect) on PostgreSQL (BENCH_DATABASE_URL, a fresh database made and dropped) and
 * Redis (BENCH_REDIS_URL), the clients split evenly over the gateways; the baseline is n bare servers
 * likewise split. Only the gateways' CPU and memory are counted, as only they hold sockets.
 *
 *   WS_GATEWAYS=2 npx tsx bench/ws-fanout.ts 1000 10
 *
 * Without WS_GATEWAYS the server is one `ROLE=all` process on PGlite (the whole product in one process:
 * `npm start`). Clients live in child processes of at most WS_CLIENTS_PER_PROCESS
 * (default 5,000) sockets, each from its own loopback address (127.0.0.10, .11, …): one source address
 * reaches one server port through at most ~28,000 local ports, and a process may hold 20,000 files here.
 */
const clients = Number(process.argv[2] ?? 1000);
const seconds = Number(process.argv[3] ?? 10);
const clustered = process.env.WS_GATEWAYS !== undefined;
const gateways = Number(process.env.WS_GATEWAYS ?? 1);
const perProcess = Number(process.env.WS_CLIENTS_PER_PROCESS ?? 5000);
/** `WS_TOPIC=IDLE` subscribes the clients to a topic nobody sends: the cost of sockets that only wait. */
const topic = process.env.WS_TOPIC ?? 'DAY_MARKET';
const here = path.dirname(fileURLToPath(import.meta.url));

interface Result {
  label: string;
  perSecond: number;
  p50: number;
  p99: number;
  cpuPercent: number;
  open: number;
  /** Resident memory of the socket servers together: before any client, and the most seen while measuring. */
  rssBefore: number;
  rssPeak: number;
  load: number;
}

/** Every process started, so a failed run leaves none behind. */
const started = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
});

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

/** Resident set of a process in bytes (Linux /proc). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
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

/** The clients split evenly over the servers; each process from its own source address. */
function plan(urls: string[]) {
  const perServer = Math.ceil(clients / urls.length);
  // At least two processes in all, so the clients' parsing can use both cores.
  const processesPerServer = Math.max(urls.length === 1 ? 2 : 1, Math.ceil(perServer / perProcess));
  const parts: { url: string; count: number; from: string }[] = [];
  let left = clients;
  urls.forEach((url, s) => {
    let serverLeft = Math.min(perServer, left);
    left -= serverLeft;
    for (let p = 0; p < processesPerServer; p++) {
      const count = Math.ceil(serverLeft / (processesPerServer - p));
      serverLeft -= count;
      parts.push({ url, count, from: `127.0.0.${10 + s * processesPerServer + p}` });
    }
  });
  return parts;
}

async function measure(label: string, servers: ChildProcess[], urls: string[]): Promise<Result> {
  const pids = servers.map((server) => server.pid!);
  const rssBefore = pids.reduce((sum, pid) => sum + rss(pid), 0);
  const parts = plan(urls);
  const swarm = parts.map(() =>
    track(fork(path.join(here, 'ws-fanout/clients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' })),
  );
  console.error(`${label}: connecting ${clients} clients from ${parts.length} processes (load ${loadavg()[0]!.toFixed(2)})`);
  await Promise.all(swarm.map((child, i) => ask(child, { cmd: 'connect', ...parts[i], topic }, 'ready')));
  console.error(`${label}: connected`);
  for (const server of servers) if (server.connected) server.send({ cmd: 'broadcast' });
  await sleep(3000);
  for (const child of swarm) child.send({ cmd: 'start' });
  const cpuBefore = pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const started = performance.now();
  let rssPeak = 0;
  while (performance.now() - started < seconds * 1000) {
    await sleep(500);
    rssPeak = Math.max(
      rssPeak,
      pids.reduce((sum, pid) => sum + rss(pid), 0),
    );
  }
  const replies = await Promise.all(
    swarm.map((child) =>
      ask<{ received: number; buckets: [number, number][]; open: number }>(child, { cmd: 'stop' }, 'received'),
    ),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuPercent = ((pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0) - cpuBefore) / elapsed) * 100;
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
  await sleep(1000);
  return {
    label,
    perSecond: received / elapsed,
    p50: percentile(0.5),
    p99: percentile(0.99),
    cpuPercent,
    open: replies.reduce((sum, reply) => sum + reply.open, 0),
    rssBefore,
    rssPeak,
    load: loadavg()[0]!,
  };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

function track(child: ChildProcess) {
  started.add(child);
  return child;
}

function startPipwise(port: number, env: Record<string, string>) {
  // Every client connects from a few loopback addresses; the per-address cap is for the open internet.
  return track(startAllInOne(port, { SOCKETS_PER_ADDRESS: String(clients), ...env }));
}

/** Instruments open on a server, once it answers. */
async function openInstruments(port: number, server: ChildProcess): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/v1/api/forex/trade_list`);
      const body = (await response.json()) as { data: { MarketStatus: number }[] };
      const open = body.data.filter((pair) => pair.MarketStatus === 1).length;
      if (open > 0) return open;
    } catch {
      // not listening yet
    }
    if (attempt > 600 || server.exitCode !== null) throw new Error('the Pipwise server did not start');
    await sleep(500);
  }
}

async function pipwise(): Promise<{ result: Result; open: number }> {
  let servers: ChildProcess[] = [];
  let ports: number[];
  let cluster: Cluster | undefined;
  try {
    if (clustered) {
      cluster = await startClusterOnFreshDatabase({ gateways, env: { SOCKETS_PER_ADDRESS: String(clients) } });
      ports = cluster.gateways.map((gateway) => gateway.port);
      servers = cluster.gateways.map((gateway) => gateway.child);
    } else {
      ports = [await freePort()];
      // Kept between runs: the first run back-fills chart history before it listens.
      servers = [startPipwise(ports[0]!, { DATA_DIR: process.env.DATA_DIR ?? path.join(tmpdir(), 'pipwise-bench-ws-fanout') })];
    }
    const counts = await Promise.all(ports.map((port, i) => openInstruments(port, servers[i]!)));
    const result = await measure(
      'pipwise hub',
      servers,
      ports.map((port) => `ws://127.0.0.1:${port}/v1/ws`),
    );
    return { result, open: Math.min(...counts) };
  } finally {
    await (cluster ? cluster.stop() : Promise.all(servers.map(stop)));
  }
}

async function bare(symbols: number): Promise<Result> {
  const ports = await Promise.all(Array.from({ length: gateways }, freePort));
  const servers = ports.map((port) =>
    track(
      fork(path.join(here, 'ws-fanout/bare-server.mjs'), [], {
        // Not this process's tsx loader: plain Node, as the Pipwise server it is compared with.
        execArgv: [],
        env: { ...process.env, PORT: String(port), SYMBOLS: String(symbols), EVERY_MS: '1200' },
      }),
    ),
  );
  try {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.once('message', resolve))));
    return await measure(
      'bare ws',
      servers,
      ports.map((port) => `ws://127.0.0.1:${port}`),
    );
  } finally {
    await Promise.all(servers.map(stop));
  }
}

process.on('unhandledRejection', (error) => {
  console.error(error);
  process.exit(1);
});
const { result: ours, open } = await pipwise();
// Pipwise sends one DAY_MARKET per open instrument at most every second; with ticks every 400 ms
// that is every 1.2 s, which the baseline copies.
const baseline = await bare(open);

const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const row = (r: Result) =>
  `${r.label.padEnd(12)} ${r.perSecond.toFixed(0).padStart(10)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${r.cpuPercent.toFixed(0).padStart(8)}% ${String(r.open).padStart(8)} ${mb(r.rssBefore).padStart(9)} ${mb(r.rssPeak).padStart(9)} ${((r.rssPeak - r.rssBefore) / clients / 1024).toFixed(1).padStart(10)} ${r.load.toFixed(2).padStart(6)}`;
console.log(
  `\nws-fanout: ${clients} clients subscribed to DAY_MARKET over ${clustered ? `${gateways} gateway process(es) on PostgreSQL + Redis` : 'one ROLE=all process on PGlite'}, ${open} instruments open, ${seconds} s measured`,
);
console.log(
  `${'server'.padEnd(12)} ${'msgs/s'.padStart(10)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'cpu'.padStart(9)} ${'sockets'.padStart(8)} ${'RSS0 MB'.padStart(9)} ${'RSS MB'.padStart(9)} ${'KiB/socket'.padStart(10)} ${'load1'.padStart(6)}`,
);
console.log(row(ours));
console.log(row(baseline));
console.log(
  `ratio pipwise/bare: delivered ${(ours.perSecond / baseline.perSecond).toFixed(2)}, ` +
    `RSS ${(ours.rssPeak / baseline.rssPeak).toFixed(2)}, ` +
    `p99 latency ${(baseline.p99 / Math.max(1, ours.p99)).toFixed(2)} (bare ÷ pipwise; ≥ 1 means pipwise is no slower)`,
);
process.exit(0);
