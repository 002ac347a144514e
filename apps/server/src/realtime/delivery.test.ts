import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { InMemoryEventBus } from './bus.js';
import { Connection } from './connection.js';
import { Delivery, MAX_QUEUED_WRITES, SOCKETS_PER_TURN } from './delivery.js';
import { Subscriptions } from './subscriptions.js';

/** A connection whose socket records what is written to it: the fan-out's part, without the network. */
function recordingConnection() {
  const written: string[] = [];
  const socket = { cork() {}, uncork() {}, write: (chunk: Buffer) => written.push(chunk.toString('latin1')) };
  const ws = { readyState: WebSocket.OPEN, bufferedAmount: 0, _socket: socket } as unknown as WebSocket;
  return { conn: new Connection(ws, '127.0.0.1', 0, 10), written };
}

/** The messages a socket received, in order (each frame's payload after its header). */
const typesAndSeqs = (written: string[]) =>
  written
    .join('')
    .split(/(?=\{"type")/)
    .filter((part) => part.startsWith('{'))
    .map((part) => {
      const message = JSON.parse(part.replace(/[^}]*$/, '')) as { type: string; data: { seq: number } };
      return `${message.type}:${message.data.seq}`;
    });

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('fan-out to thousands of sockets', () => {
  const setUp = (count: number) => {
    const subscriptions = new Subscriptions(new InMemoryEventBus());
    const delivery = new Delivery(subscriptions, { highWaterBytes: 64 * 1024, maxSubscriptions: 20, drainIntervalMs: 50 });
    const sockets = Array.from({ length: count }, () => recordingConnection());
    for (const { conn } of sockets) subscriptions.subscribe(conn, 'DAY_MARKET');
    return { subscriptions, delivery, sockets };
  };

  it('writes a step to a slice of sockets per turn of the event loop, so requests are served in between', async () => {
    const { delivery, sockets } = setUp(SOCKETS_PER_TURN * 3 + 7);
    delivery.broadcast('DAY_MARKET', { seq: 1 });
    await new Promise((resolve) => process.nextTick(resolve));
    const reached = () => sockets.filter(({ written }) => written.length > 0).length;
    expect(reached()).toBe(SOCKETS_PER_TURN);
    await turn();
    expect(reached()).toBe(SOCKETS_PER_TURN * 2);
    await turn();
    await turn();
    expect(reached()).toBe(sockets.length);
  });

  it('keeps each socket’s steps in order when a step is broadcast before the last one reached everyone', async () => {
    const { delivery, sockets } = setUp(SOCKETS_PER_TURN * 2 + 1);
    for (let seq = 1; seq <= 4; seq++) {
      delivery.broadcast('DAY_MARKET', { seq });
      await new Promise((resolve) => process.nextTick(resolve));
    }
    for (let i = 0; i < 12; i++) await turn();
    for (const { written } of sockets)
      expect(typesAndSeqs(written)).toEqual(['DAY_MARKET:1', 'DAY_MARKET:2', 'DAY_MARKET:3', 'DAY_MARKET:4']);
  });

  it('sends nothing more of a topic to a socket that unsubscribed while the step waited for its turn', async () => {
    const { subscriptions, delivery, sockets } = setUp(SOCKETS_PER_TURN + 1);
    delivery.broadcast('DAY_MARKET', { seq: 1 });
    await new Promise((resolve) => process.nextTick(resolve));
    const last = sockets.at(-1)!;
    expect(last.written).toEqual([]);
    subscriptions.unsubscribe(last.conn, 'DAY_MARKET');
    await turn();
    expect(last.written).toEqual([]);
    expect(sockets[0]!.written).toHaveLength(1);
  });

  it('writes without yielding while more is queued than the loop can work off, rather than queueing without end', async () => {
    const { delivery, sockets } = setUp(MAX_QUEUED_WRITES + SOCKETS_PER_TURN * 3);
    delivery.broadcast('DAY_MARKET', { seq: 1 });
    await new Promise((resolve) => process.nextTick(resolve));
    expect(sockets.filter(({ written }) => written.length > 0)).toHaveLength(SOCKETS_PER_TURN * 3);
  });
});
