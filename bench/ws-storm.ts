import { fork, type ChildProcess } from 'node:child_process';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAllInOne, startClusterOnFreshDatabase, type Cluster } from './cluster.js';
import { cpuSeconds, freePort } from './order-client.js';

/**
 * Reconnect storm: N sockets (default 15,000, in client processes of 5,000) subscribed to DAY_MARKET, all
 * dropped at once and opened again at once, while one client asks the API for the trade list every
 * 20 ms. Prints how long the storm took to reconnect everyone, how many upgrades were refused (503,
 * retried after Retry-After with jitter), how many sockets had quotes again, the CPU servers and clients
 * spent, and the API's p50/p99 when calm (sockets connected) and during the storm.
 *
 *   npx tsx bench/ws-storm.ts [sockets=15000]
 *
 * The server is one Pipwise process (ROLE=all, PGlite, simulated feed), or with WS_GATEWAYS=n, n
 * `ROLE=gateway` processes and one `ROLE=engine` on PostgreSQL + Redis (bench/cluster.ts), the sockets
 * split evenly over the gateways and the API asked of the first.
 */
const count = Number(process.argv[2] ?? 15_000);
const gateways = process.env.WS_GATEWAYS === undefined ? undefined : Number(process.env.WS_GATEWAYS);
const PER_PROCESS = 5_000;
const CALM_MS = 5_000;
const PROBE_EVERY_MS = 20;
const here = path.dirname(fileURLToPath(import.meta.url));
const children = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve, reject) => {
    child.once('message', (reply: Record<string, unknown>) =>
      'error' in reply ? reject(new Error(String(reply.error))) : resolve(reply as T),
    );
    child.send(message);
  });
}

/**
 * API latencies (ms) of one client asking every PROBE_EVERY_MS until `until` resolves: a trader's app
 * asking, not a load of its own (asked back to back, the probe alone took a core from the storm).
 */
async function probe(api: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.then(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    const started = performance.now();
    const response = await fetch(api);
    await response.arrayBuffer();
    const took = performance.now() - started;
    latencies.push(took);
    await sleep(Math.max(0, PROBE_EVERY_MS - took));
  }
  return latencies.sort((a, b) => a - b);
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/** One ROLE=all process on PGlite: the whole product, as `npm start` runs it. */
async function startOne(): Promise<{ ports: number[]; pids: number[]; stop: () => void }> {
  const port = await freePort();
  const server = startAllInOne(port, {
    SOCKETS_PER_ADDRESS: String(count),
    DATA_DIR: process.env.DATA_DIR ?? path.join(tmpdir(), 'pipwise-bench-ws-fanout'),
  });
  children.add(server);
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) break;
    } catch {
      if (attempt > 600 || server.exitCode !== null) throw new Error('the Pipwise server did not start');
      await sleep(500);
    }
  }
  return { ports: [port], pids: [server.pid!], stop: () => server.kill('SIGTERM') };
}

let cluster: Cluster | undefined;
const servers =
  gateways === undefined
    ? await startOne()
    : await startClusterOnFreshDatabase({ gateways, env: { SOCKETS_PER_ADDRESS: String(count) } }).then((started) => {
        cluster = started;
        return {
          ports: started.gateways.map((gateway) => gateway.port),
          pids: [...started.gateways, ...started.engines].map((member) => member.pid),
          stop: () => void started.stop(),
        };
      });
const api = `http://127.0.0.1:${servers.ports[0]}/v1/api/forex/trade_list`;
const perServer = Math.ceil(count / servers.ports.length);
const parts = servers.ports.flatMap((port, s) => {
  const mine = Math.min(perServer, count - s * perServer);
  return Array.from({ length: Math.ceil(mine / PER_PROCESS) }, (_, i) => ({
    url: `ws://127.0.0.1:${port}/v1/ws`,
    count: Math.min(PER_PROCESS, mine - i * PER_PROCESS),
  }));
});
const swarm = parts.map(() => {
  const child = fork(path.join(here, 'ws-storm/clients.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  children.add(child);
  return child;
});
type Done = { ms: number; refusals: number };
await Promise.all(swarm.map((child, i) => ask<Done>(child, { cmd: 'connect', ...parts[i] })));
await sleep(2_000);

const calm = await probe(api, sleep(CALM_MS));
// Where the storm's CPU goes: the servers' share against the clients' (which share the same cores here).
const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
const clientPids = [process.pid, ...swarm.map((child) => child.pid!)];
const cpuBefore = { servers: cpuOf(servers.pids), clients: cpuOf(clientPids) };
const stormStarted = performance.now();
const storm = Promise.all(swarm.map((child, i) => ask<Done>(child, { cmd: 'storm', ...parts[i] })));
const during = await probe(api, storm);
const stormMs = performance.now() - stormStarted;
const results = await storm;
const serverCpu = cpuOf(servers.pids) - cpuBefore.servers;
const clientCpu = cpuOf(clientPids) - cpuBefore.clients;
// Quotes come for open markets only; on a weekend those are crypto's, several a second.
await sleep(2_000);
const heard = (await Promise.all(swarm.map((child) => ask<{ heard: number }>(child, { cmd: 'heard' })))).reduce(
  (sum, reply) => sum + reply.heard,
  0,
);
for (const child of swarm) child.send({ cmd: 'close' });

const refusals = results.reduce((sum, r) => sum + r.refusals, 0);
console.log(
  `\nws-storm: ${count} sockets over ${gateways === undefined ? 'one ROLE=all process on PGlite' : `${gateways} gateway process(es) on PostgreSQL + Redis`} dropped and reopened at once (load ${loadavg()[0]!.toFixed(2)})`,
);
console.log(`all reconnected in ${(stormMs / 1000).toFixed(2)} s; ${refusals} upgrades refused with 503 and retried`);
console.log(`${heard} of ${count} sockets had quotes after reconnecting`);
console.log(
  `CPU during the storm: servers ${serverCpu.toFixed(1)} s, clients ${clientCpu.toFixed(1)} s (of ${((availableParallelism() * stormMs) / 1000).toFixed(1)} s on ${availableParallelism()} cores)`,
);
console.log(`API calm:  ${calm.length} requests, p50 ${pct(calm, 0.5).toFixed(1)} ms, p99 ${pct(calm, 0.99).toFixed(1)} ms`);
console.log(
  `API storm: ${during.length} requests, p50 ${pct(during, 0.5).toFixed(1)} ms, p99 ${pct(during, 0.99).toFixed(1)} ms`,
);
console.log(`storm ÷ calm p50: ${(pct(during, 0.5) / pct(calm, 0.5)).toFixed(2)}`);
await (cluster ? cluster.stop() : servers.stop());
await sleep(2_000);
process.exit(0);
