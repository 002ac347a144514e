import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ApiPath, SOCKET_PATH } from '@pipwise/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import WebSocket from 'ws';
import type { HubDeps } from '../src/realtime/hub.js';
import { DEFAULT_LOGIN_GUARD_OPTIONS } from '../src/realtime/login-guard.js';
import { createTrader, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FLOOD_SOCKETS = 20;
const SOCKETS_PER_ADDRESS = 25;

interface FloodReport {
  opened: number;
  sent: number;
  closedByServer: Record<number, number>;
  stillOpen: number;
  refused: Record<number, number>;
  retryAfter: string | null;
}

/** A raw socket from a chosen loopback address (Linux routes all of 127/8 to this host). */
function openFrom(baseUrl: string, localAddress: string) {
  const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + SOCKET_PATH, { localAddress });
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const frames: string[] = [];
  ws.on('message', (raw: Buffer) => frames.push(raw.toString()));
  const status = new Promise<number>((resolve, reject) => {
    ws.once('open', () => resolve(101));
    ws.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    ws.once('error', reject);
  });
  return { ws, closed, frames, status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(DB_KINDS)('socket abuse on %s', (kind) => {
  let server: TestServer;
  let trader: Trader;
  let lookups: MockInstance<HubDeps['resolveToken']>;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { SOCKETS_PER_ADDRESS: String(SOCKETS_PER_ADDRESS) } });
    trader = await createTrader(server.database.db);
    // Every token the hub cannot answer itself goes to the accounts service, a database look-up each
    // for unknown tokens: counting these calls counts what the flood costs the database.
    lookups = vi.spyOn((server.ctx.hub as unknown as { deps: HubDeps }).deps, 'resolveToken');
  });
  afterAll(() => server.close());
  beforeEach(() => {
    lookups.mockClear();
  });

  const login = (ws: WebSocket, token: string) => ws.send(JSON.stringify({ type: 'login', token }));

  it('closes a socket after three failed logins', async () => {
    const socket = openFrom(server.baseUrl, '127.0.0.4');
    await socket.status;
    for (let i = 0; i < 5; i++) login(socket.ws, `bad-token-${i}`);
    expect(await socket.closed).toBe(1008);
    expect(lookups).toHaveBeenCalledTimes(3);
  });

  it('answers a token recently found invalid from memory, and does not count those against the address', async () => {
    // Clients behind one address (a carrier's NAT) retrying a stale token: more than the address's budget.
    const retries = DEFAULT_LOGIN_GUARD_OPTIONS.maxFailuresPerAddress + 10;
    for (let i = 0; i < retries; i++) {
      const socket = openFrom(server.baseUrl, '127.0.0.5');
      expect(await socket.status).toBe(101);
      login(socket.ws, 'a-stale-token-the-app-keeps-retrying');
      socket.ws.send(JSON.stringify({ type: 'ping' }));
      await vi.waitFor(() => expect(socket.frames).toContain('{"type":"pong"}'));
      socket.ws.close();
      await socket.closed;
    }
    expect(lookups).toHaveBeenCalledTimes(1);
    const next = openFrom(server.baseUrl, '127.0.0.5');
    expect(await next.status).toBe(101);
    next.ws.close();
  });

  it('closes a socket that sends more messages than its rate allows', async () => {
    const socket = openFrom(server.baseUrl, '127.0.0.6');
    await socket.status;
    for (let i = 0; i < 300; i++) socket.ws.send(JSON.stringify({ type: 'ping' }));
    expect(await socket.closed).toBe(1008);
    expect(socket.frames.length).toBeLessThan(300);
  });

  it(`holds at most ${SOCKETS_PER_ADDRESS} sockets of one address`, async () => {
    const held = Array.from({ length: SOCKETS_PER_ADDRESS }, () => openFrom(server.baseUrl, '127.0.0.3'));
    expect(await Promise.all(held.map((socket) => socket.status))).toEqual(held.map(() => 101));
    expect(await openFrom(server.baseUrl, '127.0.0.3').status).toBe(429);
    // Another address is not affected.
    const other = openFrom(server.baseUrl, '127.0.0.7');
    expect(await other.status).toBe(101);
    for (const socket of [...held, other]) socket.ws.close();
    await Promise.all(held.map((socket) => socket.closed));
    // Closed sockets give their places back.
    const again = openFrom(server.baseUrl, '127.0.0.3');
    expect(await again.status).toBe(101);
    again.ws.close();
  });

  it('keeps the API answering while 20 sockets flood bad logins, and bounds what the flood costs the database', async () => {
    const read = async () => {
      const started = performance.now();
      const answer = await server.call('GET', `${ApiPath.myDeal}?status=1`, { token: trader.token });
      expect(answer.code).toBe(1);
      return performance.now() - started;
    };
    for (let i = 0; i < 10; i++) await read();
    const quiet: number[] = [];
    for (let i = 0; i < 40; i++) {
      quiet.push(await read());
      await sleep(20);
    }

    const flood = fork(
      path.join(here, 'socket-flood.ts'),
      [server.baseUrl.replace(/^http/, 'ws') + SOCKET_PATH, String(FLOOD_SOCKETS), '600', '4000'],
      {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      },
    );
    const finished = new Promise<FloodReport>((resolve, reject) => {
      flood.on('message', (message: { report?: FloodReport }) => message.report && resolve(message.report));
      flood.on('exit', (code) => code !== 0 && reject(new Error(`the flood exited with ${code}`)));
    });
    await new Promise((resolve) => flood.once('message', resolve));
    await sleep(300);

    const underFlood: number[] = [];
    for (let i = 0; i < 40; i++) {
      underFlood.push(await read());
      await sleep(20);
    }
    // A legitimate client on another address logs in while the flood runs.
    const legit = openFrom(server.baseUrl, '127.0.0.2');
    await legit.status;
    login(legit.ws, trader.token);
    await vi.waitFor(() => expect(server.ctx.hub.stats().loggedIn).toBe(1));
    const report = await finished;
    legit.ws.close();

    // The database answered at most the address's budget of failures, plus one in flight per socket
    // when it ran out; without the guard, every one of the flood's logins was a look-up.
    const floodLookups = lookups.mock.calls.filter(([token]) => token !== trader.token).length;
    expect(report.sent).toBeGreaterThanOrEqual(FLOOD_SOCKETS * 3);
    expect(floodLookups).toBeLessThanOrEqual(DEFAULT_LOGIN_GUARD_OPTIONS.maxFailuresPerAddress + FLOOD_SOCKETS);
    // Every flooding socket the server accepted was closed by it for the violation, and the rest were
    // refused at the door, saying when to come back.
    expect(report.stillOpen).toBe(0);
    expect(Object.keys(report.closedByServer)).toEqual(['1008']);
    expect(report.refused[429]).toBeGreaterThan(0);
    expect(Number(report.retryAfter)).toBeGreaterThan(0);
    // The legitimate read stays within a generous ratio of the same read without the flood.
    expect(median(underFlood)).toBeLessThanOrEqual(5 * median(quiet));
  });
});
