import { CashierType } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deposits, reviewClaims } from '../src/db/schema.js';
import { DEPOSITS_START, startDepositServer, type DepositServer } from './deposits-helpers.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS, ManualClock } from './harness.js';
import { auditOf, claimsOn, ledgerOf, mailTo, setLanguage, uidOf } from './reviews-helpers.js';

const MINUTE_MS = 60_000;

interface QueueItem {
  id: number;
  user_id: number;
  status: number;
  proof_url: string;
  claim: { operator: string; expires_at: string } | null;
  user: Record<string, unknown> | null;
}
interface KycItem {
  user_id: number;
  uid: number;
  card_id_masked: string;
  front_url: string;
  reverse_url: string;
  review_status: number;
  claim: { operator: string } | null;
  user: Record<string, unknown> | null;
}
type Page<T> = { data: T[]; total: number; page: number; page_size: number };

/** The review queues as operators work them: items with proofs, claims and user summaries; decisions audited and mailed. */
describe.each(DB_KINDS)('review queues on %s', (kind) => {
  let server: DepositServer;
  const clock = new ManualClock(DEPOSITS_START);

  beforeAll(async () => {
    server = await startDepositServer(kind, { clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const finance = (name = 'alice') => server.operatorHeaders(name, 'finance');
  const compliance = (name = 'carol') => server.operatorHeaders(name, 'compliance');

  async function declared(trader: Trader, number = '120.5') {
    const submitted = await server.submitCoin(trader, {
      number,
      proofImg: await server.proof(trader.userId),
      charge_id: await server.channel(CashierType.coin, 'USDT', 'TRC20'),
    });
    expect(submitted.code).toBe(1);
    return submitted.data.id;
  }

  const decide = async (action: 'approve' | 'reject' | 'void', id: number, name: string, body: Record<string, unknown> = {}) =>
    server.call<QueueItem & { credited_number: number | null; decided_by: string }>(
      'POST',
      `/admin/api/deposits/${id}/${action}`,
      { body, headers: await finance(name) },
    );
  const claim = async (method: 'POST' | 'DELETE', queue: string, id: number | string, headers: Record<string, string>) =>
    server.call<{ operator: string; expires_at: string } | null>(method, `/admin/api/claims/${queue}/${id}`, { headers });
  const creditsOf = (id: number) => ledgerOf(server.database.db, 'deposit', id);

  it('lists deposits with the proof, the live claim and a summary of the user, filtered by uid', async () => {
    const trader = await server.trader({ balance: '75' });
    const id = await declared(trader);
    const uid = await uidOf(server.database.db, trader.userId);
    const queue = await server.call<Page<QueueItem>>('GET', `/admin/api/deposits?status=0&uid=${uid}`, {
      headers: await finance(),
    });
    expect(queue).toMatchObject({ code: 1, data: { total: 1, page: 1, page_size: 20 } });
    const [item] = queue.data.data;
    expect(item).toMatchObject({ id, user_id: trader.userId, status: 0, claim: null });
    expect(item!.proof_url).toMatch(/^\/api\/common\/upload\/[A-Za-z0-9_-]{22}\?expires=\d+&sig=/);
    expect(item!.user).toEqual({
      uid,
      email: expect.stringMatching(/@example\.test$/),
      phone: null,
      balance: 75,
      lock_balance: 0,
      equity: 75,
      kyc_status: 0,
      deposits_total: 0,
      withdrawals_total: 0,
      created_at: expect.any(String),
    });

    const nobody = await server.call<Page<QueueItem>>('GET', '/admin/api/deposits?uid=1', { headers: await finance() });
    expect(nobody.data).toMatchObject({ data: [], total: 0 });
    const bad = await server.call('GET', '/admin/api/deposits?uid=abc', { headers: await finance() });
    expect(bad).toMatchObject({ code: 1001, msg: "Enter the user's UID (digits)." });
    const role = await server.call('GET', '/admin/api/deposits', { headers: await server.operatorHeaders('sue', 'support') });
    expect(role.code).toBe(1003);
  });

  it('claims: one holder at a time, named to the others; expired claims can be taken; only the holder releases', async () => {
    const trader = await server.trader();
    const id = await declared(trader);
    const taken = await claim('POST', 'deposits', id, await finance('alice'));
    expect(taken).toMatchObject({
      code: 1,
      data: { operator: 'alice@ops.test', expires_at: new Date(clock.now().getTime() + 15 * MINUTE_MS).toISOString() },
    });
    const refused = await claim('POST', 'deposits', id, await finance('bob'));
    expect(refused).toMatchObject({ code: 1009, msg: 'alice@ops.test is reviewing this item.' });
    expect((await claim('DELETE', 'deposits', id, await finance('bob'))).code).toBe(1009);
    // Renewing one's own claim is allowed.
    expect((await claim('POST', 'deposits', id, await finance('alice'))).code).toBe(1);

    const listed = await server.call<Page<QueueItem>>('GET', '/admin/api/deposits?status=0', { headers: await finance('bob') });
    expect(listed.data.data.find((item) => item.id === id)?.claim).toMatchObject({ operator: 'alice@ops.test' });

    clock.advance(15 * MINUTE_MS + 1);
    const expired = await server.call<Page<QueueItem>>('GET', '/admin/api/deposits?status=0', { headers: await finance('bob') });
    expect(expired.data.data.find((item) => item.id === id)?.claim).toBeNull();
    expect(await claim('POST', 'deposits', id, await finance('bob'))).toMatchObject({
      code: 1,
      data: { operator: 'bob@ops.test' },
    });
    expect((await claim('POST', 'deposits', id, await finance('alice'))).code).toBe(1009);
    expect((await claim('DELETE', 'deposits', id, await finance('bob'))).code).toBe(1);
    expect(await claim('POST', 'deposits', id, await finance('alice'))).toMatchObject({
      code: 1,
      data: { operator: 'alice@ops.test' },
    });

    expect((await claim('POST', 'kyc', trader.userId, await finance('alice'))).code).toBe(1003);
    expect((await claim('POST', 'orders', id, await finance('alice'))).code).toBe(1001);
    expect((await claim('POST', 'deposits', 99_999_999, await finance('alice'))).code).toBe(1004);

    const actions = (await auditOf(server.database.db, 'deposits', id)).map((row) => `${row.action} ${row.actor}`);
    expect(actions).toEqual([
      'claim.take operator:alice@ops.test',
      'claim.take operator:alice@ops.test',
      'claim.take operator:bob@ops.test',
      'claim.release operator:bob@ops.test',
      'claim.take operator:alice@ops.test',
    ]);
  });

  it('two operators claiming one item at once: exactly one holds it, the other is told who', async () => {
    const trader = await server.trader();
    const id = await declared(trader);
    const [alice, bob] = [await finance('alice'), await finance('bob')];
    const answers = await Promise.all([claim('POST', 'deposits', id, alice), claim('POST', 'deposits', id, bob)]);
    expect(answers.map((answer) => answer.code).sort()).toEqual([1, 1009]);
    const holder = answers.find((answer) => answer.code === 1)!.data!.operator;
    expect(answers.find((answer) => answer.code === 1009)!.msg).toBe(`${holder} is reviewing this item.`);
    expect(await claimsOn(server.database.db, id)).toMatchObject([{ queue: 'deposits', operatorEmail: holder }]);
  });

  it('approving takes over a claim and ends it; audited with before and after; the user is mailed in their language', async () => {
    const trader = await server.trader();
    await setLanguage(server.database.db, trader.userId, 'hk');
    const id = await declared(trader, '300');
    await claim('POST', 'deposits', id, await finance('alice'));

    const approved = await decide('approve', id, 'bob', { credited_amount: '299.5' });
    expect(approved).toMatchObject({ code: 1, data: { status: 1, credited_number: 299.5, decided_by: 'operator:bob@ops.test' } });
    expect(await claimsOn(server.database.db, id)).toEqual([]);
    expect(await creditsOf(id)).toMatchObject([{ type: 'deposit', amount: '299.50' }]);

    const audit = await auditOf(server.database.db, 'deposit', id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'deposit.approve',
      actor: 'operator:bob@ops.test',
      operatorId: expect.any(Number),
      ip: '127.0.0.1',
      before: { status: 0, amount: '300.00', user_id: trader.userId },
      after: { status: 1, amount: '300.00', credited_amount: '299.50', reason: null },
    });
    const mail = await mailTo(server.database.db, trader.userId);
    expect(mail).toMatchObject([{ channel: 'email', subject: `你的 Pipwise 入金 #${id}` }]);
    expect(mail[0]!.body).toContain('299.50 USD');

    const summary = await server.call<Page<QueueItem>>('GET', '/admin/api/deposits?status=1', { headers: await finance() });
    expect(summary.data.data.find((item) => item.id === id)?.user).toMatchObject({ deposits_total: 299.5, balance: 299.5 });
  });

  it('rejecting and voiding: audited with the reason, the user told why, nothing credited', async () => {
    const trader = await server.trader();
    await setLanguage(server.database.db, trader.userId, 'en');
    const rejectedId = await declared(trader, '50');
    const voidedId = await declared(trader, '60');
    expect(await decide('reject', rejectedId, 'alice', { reason: 'No payment arrived' })).toMatchObject({
      code: 1,
      data: { status: 2 },
    });
    expect(await decide('void', voidedId, 'bob', { reason: 'Duplicate of another deposit' })).toMatchObject({
      code: 1,
      data: { status: 3 },
    });
    expect(await decide('approve', rejectedId, 'bob')).toMatchObject({ code: 1009 });

    const [rejectedAudit] = await auditOf(server.database.db, 'deposit', rejectedId);
    expect(rejectedAudit).toMatchObject({
      action: 'deposit.reject',
      actor: 'operator:alice@ops.test',
      before: { status: 0, amount: '50.00' },
      after: { status: 2, reason: 'No payment arrived' },
    });
    expect(await auditOf(server.database.db, 'deposit', voidedId)).toMatchObject([
      { action: 'deposit.void', actor: 'operator:bob@ops.test', after: { status: 3, reason: 'Duplicate of another deposit' } },
    ]);
    const bodies = (await mailTo(server.database.db, trader.userId)).map((message) => message.body);
    expect(bodies).toEqual([
      `Your deposit #${rejectedId} of 50.00 USD was not credited. Reason: No payment arrived`,
      `Your deposit #${voidedId} of 60.00 USD was not credited. Reason: Duplicate of another deposit`,
    ]);
    expect(await creditsOf(rejectedId)).toEqual([]);
    expect(await creditsOf(voidedId)).toEqual([]);
  });

  it('an approve and a reject from two operators at once: exactly one wins, one audit row, credited at most once', async () => {
    for (let round = 0; round < 4; round += 1) {
      const trader = await server.trader();
      const id = await declared(trader, '80');
      const [approve, reject] = await Promise.all([
        decide('approve', id, 'alice'),
        decide('reject', id, 'bob', { reason: 'Raced' }),
      ]);
      expect([approve.code, reject.code].sort()).toEqual([1, 1009]);
      const [row] = await server.database.db.select().from(deposits).where(eq(deposits.id, id));
      expect(row!.status).toBe(approve.code === 1 ? 1 : 2);
      expect(await creditsOf(id)).toHaveLength(approve.code === 1 ? 1 : 0);
      expect(await auditOf(server.database.db, 'deposit', id)).toHaveLength(1);
      expect(await mailTo(server.database.db, trader.userId)).toHaveLength(1);
    }
  });

  it('a double approve and a retry credit once', async () => {
    const trader = await server.trader();
    const id = await declared(trader, '90');
    const both = await Promise.all([decide('approve', id, 'alice'), decide('approve', id, 'bob')]);
    expect(both.map((answer) => answer.code).sort()).toEqual([1, 1009]);
    expect(await decide('approve', id, 'alice')).toMatchObject({ code: 1009 });
    expect(await creditsOf(id)).toHaveLength(1);
    expect(await server.balanceOf(trader.userId)).toBe('90.00');
    expect(await auditOf(server.database.db, 'deposit', id)).toHaveLength(1);
  });

  it('KYC: queued with document links, claim and user; approve and reject audited and mailed; the ID reveal audited', async () => {
    const alice = await server.trader();
    const ben = await server.trader();
    for (const user of [alice, ben]) {
      await setLanguage(server.database.db, user.userId, 'en');
      await server.ctx.identity.submit(user.userId, {
        name: 'Ada Lovelace',
        card_id: 'X12345678',
        front_pic: await server.proof(user.userId),
        reverse_pic: await server.proof(user.userId),
      });
    }
    await claim('POST', 'kyc', alice.userId, await compliance());
    expect((await claim('POST', 'kyc', alice.userId, await finance('alice'))).code).toBe(1003);

    const uid = await uidOf(server.database.db, alice.userId);
    const queue = await server.call<Page<KycItem>>('GET', `/admin/api/kyc?status=1&uid=${uid}`, { headers: await compliance() });
    expect(queue.data.total).toBe(1);
    expect(queue.data.data[0]).toMatchObject({
      user_id: alice.userId,
      uid,
      card_id_masked: '****5678',
      review_status: 1,
      claim: { operator: 'carol@ops.test' },
      user: { uid, kyc_status: 1 },
    });
    expect(queue.data.data[0]!.front_url).toMatch(/^\/api\/common\/upload\//);
    expect(queue.data.data[0]!.reverse_url).toMatch(/^\/api\/common\/upload\//);

    const headers = await compliance('dave');
    const approved = await server.call('POST', `/admin/api/kyc/${alice.userId}/approve`, { headers });
    expect(approved).toMatchObject({ code: 1, data: { review_status: 2, reviewed_by: 'operator:dave@ops.test' } });
    expect(await server.database.db.select().from(reviewClaims).where(eq(reviewClaims.queue, 'kyc'))).toEqual([]);
    const rejected = await server.call('POST', `/admin/api/kyc/${ben.userId}/reject`, {
      headers,
      body: { reason: 'The photo is blurred' },
    });
    expect(rejected).toMatchObject({ code: 1, data: { review_status: 0, reason: 'The photo is blurred' } });
    expect((await server.call('POST', `/admin/api/kyc/${ben.userId}/approve`, { headers })).code).toBe(1009);
    const revealed = await server.call('GET', `/admin/api/kyc/${alice.userId}/card_id`, { headers });
    expect(revealed).toMatchObject({ code: 1, data: { card_id: 'X12345678' } });

    expect(await auditOf(server.database.db, 'kyc', alice.userId)).toMatchObject([
      { action: 'claim.take', actor: 'operator:carol@ops.test' },
      {
        action: 'kyc.approve',
        actor: 'operator:dave@ops.test',
        before: { review_status: 1 },
        after: { review_status: 2, reason: null },
      },
      { action: 'kyc.reveal_card_id', actor: 'operator:dave@ops.test' },
    ]);
    expect(await auditOf(server.database.db, 'kyc', ben.userId)).toMatchObject([
      { action: 'kyc.reject', after: { review_status: 0, reason: 'The photo is blurred' } },
    ]);
    expect((await mailTo(server.database.db, alice.userId)).map((message) => message.body)).toEqual([
      'Your identity has been verified. Thank you.',
    ]);
    expect((await mailTo(server.database.db, ben.userId)).map((message) => message.body)).toEqual([
      'Your real-name verification was not accepted. Reason: The photo is blurred. You can submit it again in the app.',
    ]);
  });
});
