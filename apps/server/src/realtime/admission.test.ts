import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { systemClock } from '../clock.js';
import { InMemoryEventBus } from './bus.js';
import { Hub } from './hub.js';

/** What an upgrade got: the socket, or the refusal's status and Retry-After. */
function upgrade(url: string): Promise<{ ws?: WebSocket; status?: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_request, response) =>
      resolve({ status: response.statusCode, retryAfter: response.headers['retry-after'] }),
    );
    ws.once('error', reject);
  });
}

describe('socket admission under a reconnect storm', () => {
  let app: FastifyInstance;
  let hub: Hub;
  let url: string;
  let elapsed = 0;
  const opened: WebSocket[] = [];

  beforeEach(async () => {
    // Admission runs on monotonic time: the test moves that. This start is one whose half-second slots
    // add up to a hair over two seconds in floating point (CI once saw Retry-After 3 instead of 2).
    const start = 30_791.594859710614;
    elapsed = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => start + elapsed);
    app = Fastify();
    hub = new Hub({
      bus: new InMemoryEventBus(),
      clock: systemClock,
      log: pino({ level: 'silent' }),
      resolveToken: async () => null,
      revokeToken: async () => undefined,
      config: {
        trustProxy: false,
        allowedOrigins: [],
        socketsPerAddress: 100,
        socketUpgradesPerSecond: 2,
        socketUpgradeBurst: 2,
      },
    });
    hub.attach(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/v1/ws`;
  });

  afterEach(async () => {
    for (const ws of opened.splice(0)) ws.terminate();
    await hub.stop();
    await app.close();
    vi.restoreAllMocks();
  });

  const attempt = async () => {
    const result = await upgrade(url);
    if (result.ws) opened.push(result.ws);
    return result;
  };

  it('admits a burst, then tells each client refused a later second to come back, and admits again at the steady rate', async () => {
    expect((await attempt()).ws).toBeDefined();
    expect((await attempt()).ws).toBeDefined();

    // Two a second: the refused are given the next free half-second slots, so they come back spread out.
    const refused = [await attempt(), await attempt(), await attempt(), await attempt()];
    expect(refused.map((r) => r.status)).toEqual([503, 503, 503, 503]);
    expect(refused.map((r) => r.retryAfter)).toEqual(['1', '1', '2', '2']);
    expect(hub.stats().connections).toBe(2);

    elapsed = 1_000;
    expect((await attempt()).ws).toBeDefined();
    expect((await attempt()).ws).toBeDefined();
    expect((await attempt()).status).toBe(503);
    expect(hub.stats().connections).toBe(4);
  });
});
