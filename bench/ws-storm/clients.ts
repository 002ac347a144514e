import { connect, type Socket } from 'node:net';

/**
 * Phones of a reconnect storm, in their own process: `connect` opens `count` sockets, each
 * subscribing to DAY_MARKET as the app does; `storm` drops them all at once (a network blip) and opens
 * them again at once. A refused upgrade (503, Retry-After) is retried after Retry-After seconds times a
 * random factor of 0.5–1.5, as a client told to come back later must.
 *
 * The phones are written at the protocol's level on plain TCP, not with the `ws` client: here they share
 * the two cores with the servers they storm, so they do no more than the protocol asks. Each sends the
 * same upgrade a browser sends, checks the server's 101 and its accept key, subscribes with a masked text
 * frame, discards the quotes unread and answers the server's liveness with an unsolicited pong
 * (RFC 6455 §5.5.3) every few seconds.
 */
type Command = { cmd: 'connect' | 'storm'; url: string; count: number } | { cmd: 'heard' | 'close' };

/** RFC 6455's own example key and its accept value: one pair for every phone, checked on every 101. */
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';
const ACCEPT = 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=';
const HEARTBEAT_MS = 5_000;

let sockets: Socket[] = [];
let refusals = 0;
/** The sockets that have had a quote since they last opened: proof the subscription took. */
const heard = new WeakSet<Socket>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A client-to-server frame: FIN, `opcode`, masked with a fixed key (the server unmasks whatever key it gets). */
function maskedFrame(opcode: number, payload: Buffer): Buffer {
  const mask = Buffer.from([0x12, 0x34, 0x56, 0x78]);
  const frame = Buffer.alloc(2 + 4 + payload.length);
  frame[0] = 0x80 | opcode;
  frame[1] = 0x80 | payload.length;
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = payload[i]! ^ mask[i % 4]!;
  return frame;
}
const SUBSCRIBE = maskedFrame(0x1, Buffer.from('{"type":"sub","topic":"DAY_MARKET"}'));
const PONG = maskedFrame(0xa, Buffer.alloc(0));

/** The socket once upgraded and subscribed; a number of seconds to wait when refused or failed. */
function openOnce(url: URL): Promise<Socket | number> {
  return new Promise((resolve) => {
    // No local address: binding each socket to a chosen 127.0.0.x before connecting makes the kernel look
    // for a free port the slow way, one search per socket over all those taken. In a CPU profile of the
    // storms measured before, that was 27–34 s of each client process's 51 s; a port picked by connect()
    // costs next to nothing, and one address reaches each gateway through ≈ 28,000 ports.
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    socket.setNoDelay(true);
    let head = '';
    const fail = () => {
      socket.destroy();
      resolve(1);
    };
    const onHead = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onHead);
      socket.off('error', fail);
      socket.off('close', fail);
      const response = head.slice(0, end);
      if (response.startsWith('HTTP/1.1 101') && response.includes(`Sec-WebSocket-Accept: ${ACCEPT}`)) {
        // Quotes flow from here on; a phone would parse them, this one only keeps the socket drained.
        socket.on('data', () => heard.add(socket));
        socket.on('error', () => {});
        socket.write(SUBSCRIBE);
        resolve(socket);
        return;
      }
      socket.destroy();
      if (response.startsWith('HTTP/1.1 503')) refusals++;
      resolve(Number(/\r\nRetry-After: (\d+)/i.exec(response)?.[1] ?? 1));
    };
    socket.on('data', onHead);
    socket.on('error', fail);
    socket.on('close', fail);
    socket.write(
      `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        `Sec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
  });
}

async function open(url: URL): Promise<Socket> {
  for (;;) {
    const result = await openOnce(url);
    if (typeof result !== 'number') return result;
    await sleep(result * 1000 * (0.5 + Math.random()));
  }
}

async function openAll(url: string, count: number) {
  const started = performance.now();
  refusals = 0;
  sockets = await Promise.all(Array.from({ length: count }, () => open(new URL(url))));
  return { ms: performance.now() - started, refusals };
}

setInterval(() => {
  for (const socket of sockets) if (!socket.destroyed) socket.write(PONG);
}, HEARTBEAT_MS).unref();

process.on('message', (message: Command) => {
  switch (message.cmd) {
    case 'heard':
      process.send!({ heard: sockets.filter((socket) => heard.has(socket)).length });
      return;
    case 'close':
      for (const socket of sockets) socket.destroy();
      setTimeout(() => process.exit(0), 100);
      return;
    case 'storm':
    case 'connect':
      if (message.cmd === 'storm') for (const socket of sockets) socket.destroy();
      openAll(message.url, message.count).then(
        (result) => process.send!({ done: true, ...result }),
        (error: Error) => process.send!({ error: error.message }),
      );
  }
});
