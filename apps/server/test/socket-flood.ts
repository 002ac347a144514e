import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';

/**
 * The attacker of issue 10 item 11, in a process of its own so that its work does not slow the server
 * under test: `sockets` connections each sending `rate` logins a second with fresh random tokens,
 * reconnecting whenever the server closes or refuses them, until `durationMs` has passed. It stops by
 * itself and reports to its parent what the server did.
 *
 *   node --import tsx socket-flood.ts <ws url> <sockets> <rate> <durationMs>
 */
const [url = '', sockets = '20', rate = '600', durationMs = '5000'] = process.argv.slice(2);
const deadline = Date.now() + Number(durationMs);
const perTick = Math.max(1, Math.round(Number(rate) / 100));

const report = {
  opened: 0,
  sent: 0,
  /** Close codes of the connections the server closed. */
  closedByServer: {} as Record<number, number>,
  /** Connections still open when the attack ended (the server never closed them). */
  stillOpen: 0,
  /** Upgrades answered with an HTTP status instead of a socket. */
  refused: {} as Record<number, number>,
  retryAfter: null as string | null,
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function connection(): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    let timer: NodeJS.Timeout | undefined;
    let opened = false;
    let endedByUs = false;
    ws.on('open', () => {
      opened = true;
      report.opened++;
      timer = setInterval(() => {
        if (Date.now() >= deadline) {
          endedByUs = true;
          report.stillOpen++;
          clearInterval(timer);
          ws.terminate();
          return;
        }
        for (let i = 0; i < perTick && ws.readyState === WebSocket.OPEN; i++) {
          ws.send(JSON.stringify({ type: 'login', token: randomBytes(32).toString('base64url') }));
          report.sent++;
        }
      }, 10);
    });
    ws.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      report.refused[status] = (report.refused[status] ?? 0) + 1;
      report.retryAfter ??= response.headers['retry-after'] ?? null;
      response.resume();
      ws.terminate();
    });
    ws.on('close', (code) => {
      clearInterval(timer);
      if (opened && !endedByUs) report.closedByServer[code] = (report.closedByServer[code] ?? 0) + 1;
      resolve();
    });
    ws.on('error', () => undefined);
  });
}

async function attacker() {
  while (Date.now() < deadline) {
    await connection();
    // Reconnects at once, as an attacker would; the pause only keeps this process from spinning.
    await sleep(10);
  }
}

process.send?.({ started: true });
await Promise.all(Array.from({ length: Number(sockets) }, attacker));
process.send?.({ report });
