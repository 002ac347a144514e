import { WebSocketServer } from 'ws';

/**
 * The baseline: a bare `ws` server doing the same broadcast as Pipwise's DAY_MARKET — `SYMBOLS`
 * quote frames every `EVERY_MS`, each serialised once and sent to every subscribed client. Plain
 * JavaScript on Node alone, as the Pipwise server it is compared with runs its build.
 */
const port = Number(process.env.PORT);
const symbols = Number(process.env.SYMBOLS ?? 7);
const everyMs = Number(process.env.EVERY_MS ?? 1200);
/** @type {Set<import('ws').WebSocket>} */
const subscribed = new Set();
// Silent until the coordinator has connected every client: a bare server broadcasting to thousands of
// sockets starves its own accept loop, which would measure the connect storm rather than the fan-out.
let broadcasting = false;
process.on('message', (message) => {
  if (message.cmd === 'broadcast') broadcasting = true;
});

const wss = new WebSocketServer({ port, host: '127.0.0.1', perMessageDeflate: false, maxPayload: 4096 });
wss.on('connection', (ws) => {
  ws.on('message', (raw) => {
    if (raw.toString().includes('"topic":"DAY_MARKET"')) subscribed.add(ws);
  });
  ws.on('close', () => subscribed.delete(ws));
});

let price = 100;
setInterval(() => {
  if (!broadcasting) return;
  // One time for the whole batch, as the feed stamps every quote of one step with the step's time.
  const time = Date.now();
  for (let i = 0; i < symbols; i++) {
    price += 0.01;
    const frame = Buffer.from(
      JSON.stringify({
        type: 'DAY_MARKET',
        data: {
          id: i + 1,
          symbol: `SYM${i}`,
          close: price,
          bid: price,
          ask: price + 0.02,
          open: 99,
          high: 101,
          low: 98,
          change: 1.23,
          volume: 12345,
          status: 1,
          time,
        },
      }),
    );
    for (const ws of subscribed) ws.send(frame, { binary: false });
  }
}, everyMs);
wss.on('listening', () => process.send?.({ listening: true }));
