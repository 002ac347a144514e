import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiPath, SOCKET_PATH } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';
import { rawGet } from './raw-http.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Opens the socket with the given headers: 101 when accepted, else the HTTP status of the refusal. */
function upgradeStatus(baseUrl: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(baseUrl.replace(/^http/, 'ws') + SOCKET_PATH, { headers });
    ws.on('open', () => {
      ws.close();
      resolve(101);
    });
    ws.on('unexpected-response', (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      ws.terminate();
    });
    ws.on('error', reject);
  });
}

describe('the page is never rate-limited; the API limit speaks the visitor’s language', () => {
  let server: TestServer;
  let dist: string;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'pipwise-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Pipwise</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'console.log("pipwise");');
    server = await startTestServer('pglite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  async function statuses(url: string, times: number, init: RequestInit = {}): Promise<number[]> {
    const seen: number[] = [];
    for (let sent = 0; sent < times; sent += 25) {
      const batch = Array.from({ length: Math.min(25, times - sent) }, () =>
        fetch(url, init).then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        }),
      );
      seen.push(...(await Promise.all(batch)));
    }
    return seen;
  }

  it('serves / and a script 700 times each to one address, all 200', async () => {
    const page = await statuses(`${server.baseUrl}/`, 700);
    const script = await statuses(`${server.baseUrl}/assets/index-abc123.js`, 700);
    expect(page.filter((status) => status !== 200)).toEqual([]);
    expect(script.filter((status) => status !== 200)).toEqual([]);
  });

  it('answers /api past its limit with 429, Retry-After and the envelope in the lang header’s or the browser’s language', async () => {
    const url = `${server.baseUrl}${ApiPath.areaList}`;
    const answered = await statuses(url, 600, { headers: { lang: 'en' } });
    expect(answered.filter((status) => status !== 200)).toEqual([]);

    const german = await fetch(url, { headers: { lang: 'de' } });
    expect(german.status).toBe(429);
    expect(Number(german.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(german.headers.get('cache-control')).toBe('no-store');
    expect(await german.json()).toEqual({
      code: 1429,
      msg: 'Zu viele Anfragen, bitte versuchen Sie es später erneut',
      data: null,
    });

    const byBrowser = await fetch(url, { headers: { 'accept-language': 'it-IT,it;q=0.9,en;q=0.8' } });
    expect(((await byBrowser.json()) as { msg: string }).msg).toBe('Troppe richieste, riprova più tardi');

    // The router decodes the path, so the API spelt with an escape is the API, limit included.
    const escaped = await rawGet(server.baseUrl, ApiPath.areaList.replace('/api/', '/%61pi/'), { lang: 'en' });
    expect(escaped.status).toBe(429);
    expect(escaped.headers['cache-control']).toBe('no-store');
  });

  it('shows a page load of a limited address a page in the browser’s language, never raw JSON', async () => {
    const response = await fetch(`${server.baseUrl}${ApiPath.areaList}`, {
      headers: { 'sec-fetch-dest': 'document', accept: 'text/html,*/*;q=0.8', 'accept-language': 'fr-FR,fr;q=0.9' },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('retry-after')).not.toBeNull();
    const html = await response.text();
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toContain('Trop de requêtes, veuillez réessayer plus tard');
    expect(html).not.toContain('"code"');
  });
});

describe.each(DB_KINDS)('framework errors, caching and the socket origin on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { env: { ALLOWED_ORIGINS: 'https://app.pipwise.example' } });
  });
  afterAll(() => server.close());

  it('answers a URL that does not decode with the envelope, without echoing it', async () => {
    const answer = await rawGet(server.baseUrl, '/api/%', { lang: 'en' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ code: 1001, msg: 'The requested address is not valid', data: null });
    expect(answer.body).not.toContain('%');
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers an over-long path parameter (414) with the envelope, without echoing it', async () => {
    const name = 'x'.repeat(300);
    const answer = await rawGet(server.baseUrl, `/logos/${name}.png`, { lang: 'en' });
    expect(answer.status).toBe(414);
    expect(JSON.parse(answer.body)).toEqual({ code: 1001, msg: 'The requested address is not valid', data: null });
    expect(answer.body).not.toContain('xxxxxxxxxx');
  });

  it('answers a 20 KB URL and a 40 KB header (431) with the envelope, without echoing them', async () => {
    const longUrl = await rawGet(server.baseUrl, `/api/user/info?q=${'u'.repeat(20_000)}`);
    const bigHeader = await rawGet(server.baseUrl, '/api/user/info', { 'x-filler': 'h'.repeat(40_000) });
    for (const answer of [longUrl, bigHeader]) {
      expect(answer.status).toBe(431);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(answer.body)).toEqual({ code: 1001, msg: '請求過大', data: null });
      expect(answer.body).not.toMatch(/uuuuuuuuuu|hhhhhhhhhh/);
    }
  });

  it('marks every API answer, token-bearing ones included, as not to be stored', async () => {
    const demo = await fetch(`${server.baseUrl}${ApiPath.createDemo}`, { headers: { lang: 'en' } });
    const body = (await demo.json()) as { code: number; data: { token?: string } };
    expect(body.code).toBe(1);
    expect(body.data.token).toEqual(expect.any(String));
    expect(demo.headers.get('cache-control')).toBe('no-store');
    for (const [method, path] of [
      ['POST', ApiPath.login],
      ['POST', ApiPath.register],
      ['GET', '/api/nope'],
      ['GET', `${ApiPath.userInfo}?x=1`],
    ] as const) {
      const response = await fetch(`${server.baseUrl}${path}`, { method, headers: { lang: 'en' } });
      expect({ path, cache: response.headers.get('cache-control') }).toEqual({ path, cache: 'no-store' });
    }
  });

  it('refuses a socket upgrade from a foreign page, and lets the own page, configured origins and non-browsers in', async () => {
    const host = new URL(server.baseUrl).host;
    expect(await upgradeStatus(server.baseUrl, { Origin: 'https://evil.example' })).toBe(403);
    expect(await upgradeStatus(server.baseUrl, { Origin: 'null' })).toBe(403);
    expect(await upgradeStatus(server.baseUrl, { Origin: `http://${host}.evil.example` })).toBe(403);
    expect(await upgradeStatus(server.baseUrl, { Origin: `http://${host}` })).toBe(101);
    expect(await upgradeStatus(server.baseUrl, { Origin: 'https://app.pipwise.example' })).toBe(101);
    expect(await upgradeStatus(server.baseUrl, {})).toBe(101);
  });
});

describe.each(DB_KINDS)('strict numbers in the order ticket on %s', (kind) => {
  let server: TradingServer;
  beforeAll(async () => {
    server = await startTradingServer(kind);
    await server.tick('EURUSD', '1.10000');
    await server.tick('XAUUSD', '2000.00');
  });
  afterAll(() => server.close());

  const counts = async () => {
    const result: unknown = await server.database.db.execute(sql`
      SELECT (SELECT COUNT(*) FROM orders) AS orders, (SELECT COUNT(*) FROM ledger_entries) AS ledger`);
    return JSON.stringify((result as { rows: unknown[] }).rows);
  };

  it('refuses hex, booleans, null, arrays and padded text where numbers belong, with 1001 and nothing placed', async () => {
    const trader = await server.trader({ balance: '100000' });
    const eurusd = server.instrumentId('EURUSD');
    const valid = { type: 1, cont: '0.01', forex_id: eurusd, status: 1, multiple: 10 };
    const before = await counts();
    const cases: [Record<string, unknown>, string][] = [
      [{ forex_id: `0x${server.instrumentId('XAUUSD').toString(16)}` }, 'Please choose a valid product'],
      [{ forex_id: true }, 'Please choose a valid product'],
      [{ forex_id: [eurusd] }, 'Please choose a valid product'],
      [{ forex_id: ` ${eurusd}` }, 'Please choose a valid product'],
      [{ status: null }, 'Please choose a market or a pending order'],
      [{ status: false }, 'Please choose a market or a pending order'],
      [{ status: [] }, 'Please choose a market or a pending order'],
      [{ status: '' }, 'Please choose a market or a pending order'],
      [{ type: true }, 'Please choose buy or sell'],
      [{ type: '1e0' }, 'Please choose buy or sell'],
      [{ multiple: '0x0a' }, 'Please choose a valid leverage'],
    ];
    for (const [patch, msg] of cases) {
      const answer = await server.submit(trader, { ...valid, ...patch });
      expect({ patch, status: answer.status, code: answer.code, msg: answer.msg, data: answer.data }).toEqual({
        patch,
        status: 200,
        code: 1001,
        msg,
        data: null,
      });
    }
    expect(await counts()).toBe(before);

    // What the spec's client sends still works: JSON numbers, and digit strings from forms and queries.
    const placed = await server.submit(trader, { ...valid, forex_id: String(eurusd), multiple: '10' });
    expect(placed.code).toBe(1);
  });
});
