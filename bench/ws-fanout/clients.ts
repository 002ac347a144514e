import WebSocket from 'ws';

/**
 * A swarm of socket clients in its own process (so the server under test is measured alone). Driven
 * by the coordinator over IPC: connect → ready, start → count, stop → results, close → exit.
 * Each process connects from its own loopback address (`from`): one source address reaches one server
 * address and port through at most ~28,000 local ports, and the process's file limit (20,000 here)
 * bounds how many sockets one process holds.
 */
type Command =
  | { cmd: 'connect'; url: string; count: number; from: string; topic: string }
  | { cmd: 'start' }
  | { cmd: 'stop' }
  | { cmd: 'close' };

const sockets: WebSocket[] = [];
const MAX_LATENCY_MS = 60_000;
/** WS_OPEN_TIMEOUT_MS: on a machine shared with other work, connecting thousands of sockets may take longer. */
const OPEN_TIMEOUT_MS = Number(process.env.WS_OPEN_TIMEOUT_MS ?? 30_000);
const PREFIX = Buffer.from('{"type":"DAY_MARKET"');
const TIME = Buffer.from('"time":');
let histogram = new Uint32Array(MAX_LATENCY_MS + 1);
let received = 0;
let counting = false;
let pinger: NodeJS.Timeout | undefined;

/**
 * Reads the quote's `time` without parsing the frame: with tens of thousands of clients on two cores,
 * JSON.parse in the clients, not the server, would set the rate measured.
 */
function onMessage(raw: Buffer) {
  if (!counting || raw.length < PREFIX.length || raw.compare(PREFIX, 0, PREFIX.length, 0, PREFIX.length) !== 0) return;
  let at = raw.lastIndexOf(TIME) + TIME.length;
  let time = 0;
  for (let c = raw[at]; c !== undefined && c >= 48 && c <= 57; c = raw[++at]) time = time * 10 + (c - 48);
  received++;
  histogram[Math.min(MAX_LATENCY_MS, Math.max(0, Date.now() - time))]!++;
}

const opened = () => sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;

/** Opens one socket; a refused upgrade (503) answers the seconds its Retry-After asks the client to wait. */
function openOnce(url: string, from: string, subscribe: string) {
  const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: from });
  ws.on('error', () => undefined);
  return new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`a socket did not open within ${OPEN_TIMEOUT_MS} ms (${opened()} of this process's open)`)),
      OPEN_TIMEOUT_MS,
    );
    ws.once('open', () => {
      clearTimeout(timer);
      sockets.push(ws);
      ws.on('message', onMessage);
      ws.send(subscribe);
      resolve(0);
    });
    ws.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      response.destroy();
      if (response.statusCode === 503) resolve(Number(response.headers['retry-after'] ?? 1));
      else reject(new Error(`upgrade refused: ${response.statusCode}`));
    });
    ws.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** As the app does: told to come back later, it waits Retry-After times a random 0.5–1.5. */
async function open(url: string, from: string, subscribe: string) {
  for (let retryAfter = await openOnce(url, from, subscribe); retryAfter > 0; retryAfter = await openOnce(url, from, subscribe)) {
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000 * (0.5 + Math.random())));
  }
}

async function connect(url: string, count: number, from: string, topic: string) {
  const batch = 200;
  const subscribe = JSON.stringify({ type: 'sub', topic });
  for (let opened = 0; opened < count; opened += batch) {
    await Promise.all(Array.from({ length: Math.min(batch, count - opened) }, () => open(url, from, subscribe)));
  }
  // Like the app: a heartbeat every 5 s (spread over the interval so it is not one burst).
  let next = 0;
  pinger = setInterval(() => {
    const slice = Math.ceil(sockets.length / 50);
    for (let i = 0; i < slice; i++) {
      const ws = sockets[(next + i) % sockets.length];
      if (ws?.readyState === WebSocket.OPEN) ws.send('{"type":"ping"}');
    }
    next = (next + slice) % Math.max(1, sockets.length);
  }, 100);
}

process.on('message', (message: Command) => {
  switch (message.cmd) {
    case 'connect':
      connect(message.url, message.count, message.from, message.topic).then(
        () => process.send!({ ready: sockets.length }),
        (error: Error) => process.send!({ error: error.message }),
      );
      break;
    case 'start':
      histogram = new Uint32Array(MAX_LATENCY_MS + 1);
      received = 0;
      counting = true;
      break;
    case 'stop': {
      counting = false;
      const buckets: [number, number][] = [];
      histogram.forEach((n, ms) => n > 0 && buckets.push([ms, n]));
      process.send!({ received, buckets, open: opened() });
      break;
    }
    case 'close':
      clearInterval(pinger);
      for (const ws of sockets) ws.terminate();
      setTimeout(() => process.exit(0), 100);
      break;
  }
});
