import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CAPTCHA_TTL_MS } from '../src/modules/accounts/captcha.js';
import { query, snapshot, solveCaptcha, startAccountsServer, type AccountsServer } from './accounts-helpers.js';
import { DB_KINDS, ManualClock } from './harness.js';

describe.each(DB_KINDS)('image captcha on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock });
  });
  afterAll(() => server.close());

  const sendReset = (captcha: Record<string, string>, lang = 'en') =>
    server.send('POST', '/api/notify/send_email', { lang, body: { to: 'nobody@example.com', type: 2, ...captcha } });

  it('serves an SVG image as a data URL and stores only a hash of the answer', async () => {
    const response = await server.send<{ id: string; b64s: string }>('GET', '/api/captcha');
    expect(response).toMatchObject({ status: 200, code: 1 });
    expect(response.data.id).toMatch(/^[0-9a-f-]{36}$/);
    const prefix = 'data:image/svg+xml;base64,';
    expect(response.data.b64s.startsWith(prefix)).toBe(true);
    const svg = Buffer.from(response.data.b64s.slice(prefix.length), 'base64').toString('utf8');
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('<path');
    const answer = server.answers.at(-1) ?? '';
    expect(answer).toMatch(/^[^0oO1iIlL]{4}$/);
    const [row] = await query<{ answer_hash: string }>(
      server,
      `select answer_hash from captchas where id = '${response.data.id}'`,
    );
    expect(row?.answer_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.answer_hash).not.toContain(answer.toLowerCase());
  });

  it('accepts the right answer once, in any letter case', async () => {
    const solved = await solveCaptcha(server);
    expect((await sendReset({ ...solved, captcha: solved.captcha.toUpperCase() })).code).toBe(1);
    const before = await snapshot(server);
    const reused = await sendReset(solved, 'spa');
    expect(reused).toMatchObject({
      status: 200,
      code: 1001,
      msg: 'El código de la imagen es incorrecto o ha caducado; solicita uno nuevo',
    });
    expect(await snapshot(server)).toEqual(before);
  });

  it('rejects a wrong answer and spends the captcha, so the right answer no longer works', async () => {
    const solved = await solveCaptcha(server);
    const before = await snapshot(server);
    const wrong = await sendReset({ key: solved.key, captcha: `${solved.captcha}x` });
    expect(wrong).toMatchObject({ code: 1001, msg: 'The image code is wrong or has expired; please get a new one' });
    expect((await sendReset(solved)).code).toBe(1001);
    expect(await snapshot(server)).toEqual(before);
  });

  it('rejects an expired captcha', async () => {
    const solved = await solveCaptcha(server);
    clock.advance(CAPTCHA_TTL_MS + 1);
    const before = await snapshot(server);
    expect(await sendReset(solved)).toMatchObject({
      code: 1001,
      msg: 'The image code is wrong or has expired; please get a new one',
    });
    expect(await snapshot(server)).toEqual(before);
  });

  it('requires a captcha and refuses an unknown id', async () => {
    const before = await snapshot(server);
    expect(await sendReset({}, 'it')).toMatchObject({ code: 1001, msg: "Inserisci i caratteri mostrati nell'immagine" });
    expect(await sendReset({ key: '00000000-0000-0000-0000-000000000000', captcha: 'abcd' })).toMatchObject({ code: 1001 });
    expect(await snapshot(server)).toEqual(before);
  });
});
