import WebSocket from 'ws';

/**
 * Phones of a reconnect storm, in their own process: `connect` opens `count` sockets from `from`, each
 * subscribing to DAY_MARKET as the app does; `storm` drops them all at once (a network blip) and opens
 * them again at once. A refused upgrade (503, Retry-After) is retried after Retry-After seconds times a
 * random factor of 0.5–1.5, as a client told to come back later must.
 */
type Command = { cmd: 'connect' | 'storm'; url: string; count: number; from: string } | { cmd: 'close' };

let sockets: WebSocket[] = [];
let refusals = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function openOnce(url: string, from: string): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { perMessageDeflate: false, localAddress: from });
    ws.on('error', () => resolve(1));
    ws.once('open', () => {
      ws.send('{"type":"sub","topic":"DAY_MARKET"}');
      resolve(ws);
    });
    ws.once('unexpected-response', (_request, response) => {
      refusals++;
      resolve(Number(response.headers['retry-after'] ?? 1));
      response.destroy();
    });
  });
}

async function open(url: string, from: string): Promise<WebSocket> {
  for (;;) {
    const result = await openOnce(url, from);
    if (typeof result !== 'number') return result;
    await sleep(result * 1000 * (0.5 + Math.random()));
  }
}

async function openAll(url: string, count: number, from: string) {
  const started = performance.now();
  refusals = 0;
  sockets = await Promise.all(Array.from({ length: count }, () => open(url, from)));
  return { ms: performance.now() - started, refusals };
}

process.on('message', (message: Command) => {
  if (message.cmd === 'close') {
    for (const ws of sockets) ws.terminate();
    setTimeout(() => process.exit(0), 100);
    return;
  }
  if (message.cmd === 'storm') for (const ws of sockets) ws.terminate();
  openAll(message.url, message.count, message.from).then(
    (result) => process.send!({ done: true, ...result }),
    (error: Error) => process.send!({ error: error.message }),
  );
});
