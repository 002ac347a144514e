import { randomBytes } from 'node:crypto';
import { ApiPath, SocketTopic, type DayMarketView, type KlineUpdateView } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessions, users } from '../src/db/schema.js';
import { hashToken } from '../src/modules/accounts/module.js';
import { INSTRUMENT_SEEDS } from '../src/modules/market/catalog.js';
import { DEFAULT_HUB_OPTIONS } from '../src/realtime/hub.js';
import { DB_KINDS, ManualClock, startTestServer, type TestServer } from './harness.js';
import { TestSocket } from './socket-client.js';

/** Tuesday 2026-11-17 10:00:05 UTC: every session is open. */
const TUESDAY = Date.UTC(2026, 10, 17, 10, 0, 5);

/** A user with a live session, written directly: the accounts flows have their own suites. */
async function userWithToken(server: TestServer): Promise<{ userId: number; token: string }> {
  const { db } = server.database;
  const [user] = await db
    .insert(users)
    .values({ uid: 10_000_000 + Math.floor(Math.random() * 80_000_000), inviteCode: randomBytes(6).toString('hex') })
    .returning({ id: users.id });
  const token = randomBytes(32).toString('base64url');
  await db.insert(sessions).values({
    userId: user!.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(server.clock.now().getTime() + 86_400_000),
  });
  return { userId: user!.id, token };
}

describe.each(DB_KINDS)('live socket on %s (manual prices)', (kind) => {
  let server: TestServer;
  let clock: ManualClock;
  const sockets: TestSocket[] = [];
  const open = async () => {
    const socket = await TestSocket.open(server.baseUrl);
    sockets.push(socket);
    return socket;
  };

  beforeAll(async () => {
    clock = new ManualClock(TUESDAY);
    server = await startTestServer(kind, { clock });
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await server.close();
  });

  it('answers ping with pong', async () => {
    const socket = await open();
    await socket.settle();
    expect(socket.frames).toEqual([{ type: 'pong' }]);
  });

  it('pushes DAY_MARKET for a tick to subscribers only, and unsub stops the flow', async () => {
    const subscriber = await open();
    const bystander = await open();
    subscriber.send({ type: 'sub', topic: SocketTopic.dayMarket });
    await subscriber.settle();

    server.feed.tick('EURUSD', '1.16500');
    await subscriber.settle();
    await bystander.settle();
    expect(subscriber.of<DayMarketView>('DAY_MARKET')).toEqual([
      expect.objectContaining({ symbol: 'EURUSD', close: 1.165, bid: 1.165, ask: 1.16508, status: 1, time: TUESDAY }),
    ]);
    expect(bystander.of('DAY_MARKET')).toEqual([]);

    subscriber.send({ type: 'unsub', topic: SocketTopic.dayMarket });
    await subscriber.settle();
    subscriber.clear();
    server.feed.tick('EURUSD', '1.16600');
    await subscriber.settle();
    expect(subscriber.frames).toEqual([{ type: 'pong' }]);
  });

  it('updates the current bar of every period on KLINE.<code>, and opens a new bar on the next minute', async () => {
    const socket = await open();
    socket.send({ type: 'sub', topic: 'KLINE.GBPJPY' });
    await socket.settle();
    server.feed.tick('GBPJPY', '203.100', { volume: 3 });
    server.feed.tick('GBPJPY', '203.400', { volume: 2 });
    server.feed.tick('EURUSD', '1.16700');
    await socket.settle();
    const minuteStart = Math.floor(TUESDAY / 60_000) * 60;
    const updates = socket.of<KlineUpdateView>('KLINE.GBPJPY');
    expect(updates.map((u) => u.Period)).toEqual([
      '1min',
      '5min',
      '15min',
      '30min',
      '60min',
      '1day',
      '1min',
      '5min',
      '15min',
      '30min',
      '60min',
      '1day',
    ]);
    expect(updates.at(6)).toEqual({
      Period: '1min',
      Time: minuteStart,
      Open: 203.1,
      High: 203.4,
      Low: 203.1,
      Close: 203.4,
      Volume: 5,
    });
    expect(updates.at(-1)).toMatchObject({ Period: '1day', Time: Math.floor(TUESDAY / 86_400_000) * 86_400, Close: 203.4 });

    socket.clear();
    clock.advance(60_000);
    server.feed.tick('GBPJPY', '203.250');
    await socket.settle();
    const next = socket.of<KlineUpdateView>('KLINE.GBPJPY');
    expect(next.find((u) => u.Period === '1min')).toEqual({
      Period: '1min',
      Time: minuteStart + 60,
      Open: 203.25,
      High: 203.25,
      Low: 203.25,
      Close: 203.25,
      Volume: 1,
    });
    expect(next.find((u) => u.Period === '5min')).toMatchObject({ Open: 203.1, High: 203.4, Close: 203.25, Volume: 6 });
  });

  it('ignores malformed, type-less and unknown frames, and keeps serving the connection and others', async () => {
    const socket = await open();
    for (const bad of [
      'not json',
      '{}',
      '{"type":5}',
      '[1,2]',
      'null',
      '"ping"',
      '{"type":"sub"}',
      '{"type":"sub","topic":"bad topic!"}',
      '{"type":"teleport"}',
      '{"type":"login"}',
    ]) {
      socket.send(bad);
    }
    socket.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    socket.send({ type: 'sub', topic: SocketTopic.dayMarket });
    await socket.settle();
    socket.clear();
    server.feed.tick('USDJPY', '155.000');
    await socket.settle();
    expect(socket.of<DayMarketView>('DAY_MARKET').map((d) => d.symbol)).toEqual(['USDJPY']);
    // The yen's USD rate travels with the quote, so estimates convert at the rate orders are charged at.
    expect(socket.of<DayMarketView>('DAY_MARKET')[0]!.usd_rate).toBe('0.00645161290323');

    const oversized = await open();
    oversized.send({ type: 'sub', topic: 'x'.repeat(DEFAULT_HUB_OPTIONS.maxPayload) });
    expect(await oversized.closed).toBe(1009);
    await socket.settle();
  });

  it('caps subscriptions per connection', async () => {
    const socket = await open();
    for (let i = 0; i < DEFAULT_HUB_OPTIONS.maxSubscriptions + 5; i++) socket.send({ type: 'sub', topic: `T${i}` });
    await socket.settle();
    server.ctx.bus.publish('realtime.topic', { topic: 'T0', data: 1 });
    server.ctx.bus.publish('realtime.topic', { topic: `T${DEFAULT_HUB_OPTIONS.maxSubscriptions}`, data: 2 });
    await socket.settle();
    expect(socket.frames.filter((f) => f.type !== 'pong')).toEqual([{ type: 'T0', data: 1 }]);
  });

  it('delivers user topics only to the logged-in owner, ignores a second login, and logout revokes the token for HTTP too', async () => {
    const alice = await userWithToken(server);
    const bob = await userWithToken(server);
    const aliceSocket = await open();
    const anonymous = await open();
    for (const socket of [aliceSocket, anonymous]) socket.send({ type: 'sub', topic: SocketTopic.forexTrade });
    aliceSocket.send({ type: 'login', token: alice.token });
    aliceSocket.send({ type: 'login', token: bob.token });
    anonymous.send({ type: 'login', token: 'not-a-token' });
    await aliceSocket.settle();
    await anonymous.settle();

    const payload = { ProfitsTotal: 1.5, HazardRate: 2, CautionMoneyAll: 10, TransOrder: [] };
    server.ctx.bus.publish('realtime.user', { userId: alice.userId, topic: SocketTopic.forexTrade, data: payload });
    server.ctx.bus.publish('realtime.user', {
      userId: bob.userId,
      topic: SocketTopic.forexTrade,
      data: { ...payload, ProfitsTotal: 9 },
    });
    await aliceSocket.settle();
    await anonymous.settle();
    expect(aliceSocket.of('FOREX_TRADE')).toEqual([payload]);
    expect(anonymous.of('FOREX_TRADE')).toEqual([]);

    aliceSocket.send({ type: 'logout' });
    await aliceSocket.settle();
    expect(await server.ctx.resolveToken(alice.token)).toBeNull();
    const http = await server.call('GET', ApiPath.userInfo, { token: alice.token });
    expect(http.code).toBe(999);
    expect(await server.ctx.resolveToken(bob.token)).not.toBeNull();

    aliceSocket.clear();
    server.ctx.bus.publish('realtime.user', { userId: alice.userId, topic: SocketTopic.forexTrade, data: payload });
    await aliceSocket.settle();
    expect(aliceSocket.of('FOREX_TRADE')).toEqual([]);
  });

  it('drops socket logins of sessions revoked elsewhere (HTTP logout, password change)', async () => {
    const carol = await userWithToken(server);
    const socket = await open();
    socket.send({ type: 'sub', topic: SocketTopic.forexClosed });
    socket.send({ type: 'login', token: carol.token });
    await socket.settle();
    server.ctx.bus.publish('realtime.user', { userId: carol.userId, topic: SocketTopic.forexClosed, data: [1] });
    await socket.settle();
    expect(socket.of('FOREX_CLOSED')).toEqual([[1]]);

    const logout = await server.call('POST', ApiPath.logout, { token: carol.token });
    expect(logout.code).toBe(1);
    expect(server.ctx.hub.stats().loggedIn).toBe(0);
    server.ctx.bus.publish('realtime.user', { userId: carol.userId, topic: SocketTopic.forexClosed, data: [2] });
    await socket.settle();
    expect(socket.of('FOREX_CLOSED')).toEqual([[1]]);
  });

  it('keeps only the latest frame per topic and instrument for a consumer that stops reading, so memory stays bounded', async () => {
    const slow = await open();
    slow.send({ type: 'sub', topic: 'BULK' });
    slow.send({ type: 'sub', topic: 'KLINE.BULK' });
    await slow.settle();
    // ws's own pause: pausing the raw socket is not enough, ws resumes it whenever its parser drains.
    slow.ws.pause();

    const filler = 'x'.repeat(2048);
    const frames = 20_000;
    let congestedSeen = 0;
    for (let seq = 1; seq <= frames; seq++) {
      // Two instruments on one topic, as DAY_MARKET carries them: the latest of each is kept.
      server.ctx.bus.publish('realtime.topic', { topic: 'BULK', data: { symbol: seq % 2 ? 'ODD' : 'EVEN', seq, filler } });
      server.ctx.bus.publish('realtime.topic', { topic: 'KLINE.BULK', data: { Period: seq % 2 ? '1min' : '5min', seq } });
      if (seq % 500 === 0) {
        // Read at the end of each synchronous 1 MB burst, before the event loop may drain anything: 40 MB
        // are published in all, and at every point the server holds at most its high-water mark plus one
        // frame per key. (Whether the socket is still congested after a drain round depends on how much
        // the kernel's buffers absorbed, so that is not what is asserted.)
        const stats = server.ctx.hub.stats();
        expect(stats.maxBufferedAmount).toBeLessThan(DEFAULT_HUB_OPTIONS.highWaterBytes + 8 * 1024);
        expect(stats.maxPendingFrames).toBeLessThanOrEqual(4);
        congestedSeen = Math.max(congestedSeen, stats.congested);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    expect(congestedSeen).toBeGreaterThanOrEqual(1);

    slow.ws.resume();
    const last = await slow.waitFor((f) => f.type === 'BULK' && (f.data as { seq: number }).seq === frames);
    expect(last.data).toMatchObject({ seq: frames });
    await slow.waitFor((f) => f.type === 'BULK' && (f.data as { seq: number }).seq === frames - 1);
    await slow.waitFor((f) => f.type === 'KLINE.BULK' && (f.data as { seq: number }).seq === frames - 1);
    await slow.waitFor((f) => f.type === 'KLINE.BULK' && (f.data as { seq: number }).seq === frames);
    const received = slow.of<{ seq: number }>('BULK').map((d) => d.seq);
    expect(received.length).toBeLessThan(frames);
    expect([...received].sort((a, b) => a - b)).toEqual(received);
  });

  it('terminates a connection silent for more than 30 seconds and keeps one that pings', async () => {
    // Liveness is measured on monotonic time: the test moves that, not the app's clock.
    const start = performance.now();
    let elapsed = 0;
    const monotonic = vi.spyOn(performance, 'now').mockImplementation(() => start + elapsed);
    try {
      const silent = await open();
      const talkative = await open();
      elapsed = 20_000;
      await talkative.settle();
      elapsed = 31_000;
      server.ctx.hub.sweep();
      expect(await silent.closed).toBe(1006);
      await talkative.settle();
      expect(talkative.ws.readyState).toBe(talkative.ws.OPEN);
    } finally {
      monotonic.mockRestore();
    }
  });

  it('keeps quiet connections open when the wall clock jumps a day ahead', async () => {
    const quiet = await open();
    await quiet.settle();
    clock.advance(86_400_000);
    server.ctx.hub.sweep();
    await quiet.settle();
    expect(quiet.ws.readyState).toBe(quiet.ws.OPEN);
  });
});

describe.each(DB_KINDS)('live socket on %s (simulated feed)', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    // A clock running in real time from a Tuesday, when every session is open.
    const offset = TUESDAY - Date.now();
    server = await startTestServer(kind, { market: 'simulated', clock: { now: () => new Date(Date.now() + offset) } });
  });
  afterAll(() => server.close());

  it('sends a DAY_MARKET update for every open instrument within 2 seconds', async () => {
    const socket = await TestSocket.open(server.baseUrl);
    socket.send({ type: 'sub', topic: SocketTopic.dayMarket });
    await socket.settle();
    const everyCode = INSTRUMENT_SEEDS.map((seed) => seed.code).sort();
    const seen = new Set<string>();
    const allSeen = new Promise<void>((resolve) => {
      const check = () => {
        for (const update of socket.of<DayMarketView>('DAY_MARKET')) seen.add(update.symbol);
        if (seen.size === everyCode.length) resolve();
        else void socket.next((f) => f.type === 'DAY_MARKET').then(check);
      };
      check();
    });
    const timeout = new Promise((resolve) => setTimeout(resolve, 2_000));
    await Promise.race([allSeen, timeout]);
    expect([...seen].sort()).toEqual(everyCode);
    for (const update of socket.of<DayMarketView>('DAY_MARKET')) expect(update.status).toBe(1);
    socket.close();
  });

  it('closes open sockets when the server shuts down', async () => {
    const socket = await TestSocket.open(server.baseUrl);
    await socket.settle();
    await server.ctx.hub.closeAll();
    expect(await socket.closed).toBe(1001);
  });
});
