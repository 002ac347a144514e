import WebSocket from 'ws';

/**
 * A swarm of socket clients in its own process (so the server under test is measured alone). Driven
 * by the coordinator over IPC: connect → ready, start → count, stop → results, close → exit.
 */
type Command = { cmd: 'connect'; url: string; count: number } | { cmd: 'start' } | { cmd: 'stop' } | { cmd: 'close' };

const sockets: WebSocket[] = [];
const MAX_LATENCY_MS = 60_000;
const OPEN_TIMEOUT_MS = 30_000;
let histogram = new Uint32Array(MAX_LATENCY_MS + 1);
let received = 0;
let counting = false;
let pinger: NodeJS.Timeout | undefined;

function onMessage(raw: Buffer) {
  if (!counting) return;
  const text = raw.toString();
  if (!text.startsWith('{"type":"DAY_MARKET"')) return;
  const { data } = JSON.parse(text) as { data: { time: number } };
  received++;
  histogram[Math.min(MAX_LATENCY_MS, Math.max(0, Date.now() - data.time))]!++;
}

async function connect(url: string, count: number) {
  const batch = 200;
  for (let opened = 0; opened < count; opened += batch) {
    await Promise.all(
      Array.from({ length: Math.min(batch, count - opened) }, () => {
        const ws = new WebSocket(url, { perMessageDeflate: false });
        sockets.push(ws);
        ws.on('message', onMessage);
        ws.on('error', () => undefined);
        return new Promise<void>((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`a socket did not open within ${OPEN_TIMEOUT_MS} ms`)),
            OPEN_TIMEOUT_MS,
          );
          ws.once('open', () => {
            clearTimeout(timer);
            ws.send('{"type":"sub","topic":"DAY_MARKET"}');
            resolve();
          });
          ws.once('error', (error) => {
            clearTimeout(timer);
            reject(error);
          });
        });
      }),
    );
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
      connect(message.url, message.count).then(
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
      const open = sockets.filter((ws) => ws.readyState === WebSocket.OPEN).length;
      process.send!({ received, buckets, open });
      break;
    }
    case 'close':
      clearInterval(pinger);
      for (const ws of sockets) ws.terminate();
      setTimeout(() => process.exit(0), 100);
      break;
  }
});
