import { ApiPath, FEEDBACK_TEXT_MAX, type FeedbackAdminView, type FeedbackSubmittedView } from '@pipwise/domain';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { feedback } from '../src/db/schema.js';
import { FEEDBACK_SUBMIT_LIMIT } from '../src/modules/feedback/routes.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';
import { createTrader, expectLedgerInvariants, type Trader } from './factories.js';
import { uidOf } from './reviews-helpers.js';

describe.each(DB_KINDS)('feedback on %s', (kind) => {
  let server: TestServer;
  let alice: Trader;
  let bob: Trader;
  let ipCounter = 0;
  /** Each call from its own address, so the per-address limit only bites where a test aims at it. */
  const freshIp = () => `10.20.${(ipCounter >> 8) & 255}.${ipCounter++ & 255}`;

  beforeAll(async () => {
    server = await startTestServer(kind, { env: { TRUST_PROXY: '1' } });
    alice = await createTrader(server.database.db);
    bob = await createTrader(server.database.db);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const submit = (body: Record<string, unknown>, token: string | null = null, ip = freshIp(), lang = 'en') =>
    server.call<FeedbackSubmittedView>('POST', ApiPath.feedbackSubmit, {
      body,
      token,
      lang,
      headers: { 'x-forwarded-for': ip },
    });
  const stored = async () => (await server.database.db.select({ n: count() }).from(feedback))[0]!.n;
  const imageOf = async (userId: number) => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#c33' } })
      .png()
      .toBuffer();
    return server.ctx.uploads.store(userId, { filename: 'shot.png', mimetype: 'image/png', data: png });
  };
  const operator = () => server.operatorHeaders('desk', 'support');
  const queue = async (status?: number) =>
    (
      await server.call<{ data: FeedbackAdminView[] }>(
        'GET',
        `/admin/api/feedback${status === undefined ? '' : `?status=${status}`}`,
        {
          headers: await operator(),
        },
      )
    ).data.data;

  it('keeps a visitor’s feedback without a user, lines kept, for the operators', async () => {
    const answer = await submit({ category: 'app', text: '  The chart\r\nfreezes\non rotate  ', contact: 'me@example.com' });
    expect(answer).toMatchObject({ code: 1, msg: 'Thank you, your feedback has been sent' });
    const item = (await queue()).find((row) => row.id === answer.data.id);
    expect(item).toMatchObject({
      uid: null,
      category: 'app',
      text: 'The chart\nfreezes\non rotate',
      contact: 'me@example.com',
      upload_id: null,
      lang: 'en',
      status: 0,
    });
  });

  it('keeps a signed-in user’s feedback with their own image, in their language', async () => {
    const image = await imageOf(alice.userId);
    const answer = await submit(
      { category: 'cashier', text: 'Deposit took long', upload_id: image.id },
      alice.token,
      freshIp(),
      'hk',
    );
    expect(answer.code, answer.msg).toBe(1);
    expect(answer.msg).toBe('多謝你的意見，我們已收到');
    const item = (await queue()).find((row) => row.id === answer.data.id);
    expect(item).toMatchObject({
      uid: await uidOf(server.database.db, alice.userId),
      upload_id: image.id,
      lang: 'hk',
      contact: null,
    });
    // Operators know users by their public number; the internal id stays on the server.
    expect(item).not.toHaveProperty('user_id');
  });

  it('refuses another user’s image, and any image from a visitor, like an unknown one, storing nothing', async () => {
    const image = await imageOf(bob.userId);
    const before = await stored();
    const theirs = await submit({ category: 'general', text: 'look', upload_id: image.id }, alice.token);
    const unknown = await submit({ category: 'general', text: 'look', upload_id: 'A'.repeat(22) }, alice.token);
    const visitor = await submit({ category: 'general', text: 'look', upload_id: image.id });
    for (const answer of [theirs, unknown, visitor]) expect(answer).toMatchObject({ code: 1001 });
    expect(theirs.msg).toBe(unknown.msg);
    expect(visitor.msg).toBe(unknown.msg);
    expect(await stored()).toBe(before);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const before = await stored();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ category: 'complaints', text: 'x' }, /choose what your feedback is about/i],
      [{ text: 'x' }, /choose what your feedback is about/i],
      [{ category: 'app', text: '   \n  ' }, /describe your feedback/i],
      [{ category: 'app' }, /describe your feedback/i],
      [{ category: 'app', text: 'a\u0000b' }, /control or invisible characters/i],
      [{ category: 'app', text: 'tab\there' }, /control or invisible characters/i],
      [{ category: 'app', text: 'x'.repeat(FEEDBACK_TEXT_MAX + 1) }, /2000/],
      [{ category: 'app', text: 'x'.repeat(1_000_000) }, /2000/],
      [{ category: 'app', text: 'ok', contact: 'a\u0007b' }, /control or invisible characters/i],
      [{ category: 'app', text: 'ok', contact: 'c'.repeat(101) }, /long/i],
      [{ category: ['app'], text: 'ok' }, /choose what your feedback is about/i],
      [{ category: 'app', text: 42 }, /describe your feedback/i],
    ];
    for (const [body, message] of cases) {
      const answer = await submit(body);
      expect(answer.code, JSON.stringify(body).slice(0, 80)).toBe(1001);
      expect(answer.msg).toMatch(message);
    }
    expect(await stored()).toBe(before);
    const longest = await submit({ category: 'suggestion', text: '字'.repeat(FEEDBACK_TEXT_MAX) });
    expect(longest.code, longest.msg).toBe(1);
  });

  it('limits submissions per address for visitors and per session for users', async () => {
    const ip = freshIp();
    for (let i = 0; i < FEEDBACK_SUBMIT_LIMIT.max; i++)
      expect((await submit({ category: 'app', text: `n${i}` }, null, ip)).code).toBe(1);
    const refused = await submit({ category: 'app', text: 'one more' }, null, ip);
    expect(refused).toMatchObject({ status: 429, code: 1429 });
    // A signed-in user behind the same address has a budget of their own.
    expect((await submit({ category: 'app', text: 'mine' }, bob.token, ip)).code).toBe(1);
    const session = (await createTrader(server.database.db)).token;
    for (let i = 0; i < FEEDBACK_SUBMIT_LIMIT.max; i++)
      expect((await submit({ category: 'app', text: `s${i}` }, session)).code).toBe(1);
    expect(await submit({ category: 'app', text: 'again' }, session)).toMatchObject({ status: 429, code: 1429 });

    // Operators page through them, newest first, with the count of all of a status.
    const waiting = Number((await server.database.db.select({ n: count() }).from(feedback).where(eq(feedback.status, 0)))[0]!.n);
    const pageOf = async (page: number) =>
      (
        await server.call<{ data: FeedbackAdminView[]; total: number; page: number; page_size: number }>(
          'GET',
          `/admin/api/feedback?status=0&page=${page}`,
          { headers: await operator() },
        )
      ).data;
    const first = await pageOf(1);
    expect(first).toMatchObject({ page: 1, page_size: 20, total: waiting });
    expect(first.data.slice(0, 2).map((row) => row.text)).toEqual([
      `s${FEEDBACK_SUBMIT_LIMIT.max - 1}`,
      `s${FEEDBACK_SUBMIT_LIMIT.max - 2}`,
    ]);
    expect(first.data).toHaveLength(Math.min(20, waiting));
    expect((await pageOf(Math.ceil(waiting / 20) + 1)).data).toEqual([]);
  });

  it('lets operators list by status and mark handled, and nobody else', async () => {
    const { data } = await submit({ category: 'account', text: 'Please call me' });
    const handled = await server.call<FeedbackAdminView>('POST', `/admin/api/feedback/${data.id}/handled`, {
      headers: await operator(),
    });
    expect(handled).toMatchObject({ code: 1, data: { id: data.id, status: 1 } });
    expect((await queue()).some((row) => row.id === data.id)).toBe(false);
    expect((await queue(1)).some((row) => row.id === data.id)).toBe(true);
    const again = await server.call<FeedbackAdminView>('POST', `/admin/api/feedback/${data.id}/handled`, {
      headers: await operator(),
    });
    expect(again).toMatchObject({ code: 1, data: { status: 1 } });

    expect(await server.call('POST', '/admin/api/feedback/999999/handled', { headers: await operator() })).toMatchObject({
      code: 1004,
    });
    expect(await server.call('GET', '/admin/api/feedback?status=7', { headers: await operator() })).toMatchObject({ code: 1001 });

    const open = (await submit({ category: 'account', text: 'Still waiting' })).data;
    const signIn = { code: 999, msg: 'Please sign in to the back office.' };
    const roleRefused = { code: 1003, msg: 'Your role may not do this.' };
    const finance = await server.operatorHeaders('fin', 'finance');
    expect(await server.call('GET', '/admin/api/feedback', { token: alice.token })).toMatchObject(signIn);
    expect(await server.call('GET', '/admin/api/feedback', { headers: finance })).toMatchObject(roleRefused);
    const handle = `/admin/api/feedback/${open.id}/handled`;
    expect(await server.call('POST', handle, { token: alice.token })).toMatchObject(signIn);
    expect(await server.call('POST', handle, { headers: { authorization: 'Bearer pwo_guess' } })).toMatchObject(signIn);
    expect(await server.call('POST', handle, { headers: finance })).toMatchObject(roleRefused);
    expect((await queue(0)).some((row) => row.id === open.id)).toBe(true);
  });
});
