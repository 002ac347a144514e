import {
  ApiPath,
  CashierType,
  type DepositView,
  type IdentityReviewView,
  type RealNameView,
  type WireChannelView,
  type WithdrawalView,
} from '@pipwise/domain';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { depositChannels, uploads } from '../src/db/schema.js';
import { DEPOSITS_START, startDepositServer, type DepositServer } from './deposits-helpers.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { DB_KINDS, ManualClock } from './harness.js';
import { auditOf, mailTo, uidOf } from './reviews-helpers.js';
import { startWithdrawalServer, type WithdrawalServer } from './withdrawals-helpers.js';

const DAY_MS = 86_400_000;
const INTERNAL = 'Internal: matches chargeback case 4411, do not tell';

/** Everything a user can read about their records: the app's lists and every mail they were sent. */
async function userSees(server: { call: DepositServer['call']; database: DepositServer['database'] }, trader: Trader) {
  const lists = await Promise.all(
    [ApiPath.depositList, ApiPath.drawList, ApiPath.ledger, ApiPath.realNameCenter].map((path) =>
      server.call('GET', path, { token: trader.token }),
    ),
  );
  const mails = await mailTo(server.database.db, trader.userId);
  return JSON.stringify({ lists, mails: mails.map((mail) => [mail.subject, mail.body]) });
}

/**
 * Issue 17 items 10 to 12: a record that ended says how in the user's words ("Cancelled by you",
 * "Expired", "Voided by us", never "Invalid"); an operator's decision carries the reason the user reads
 * and an internal note that only the back office and the audit ever hold; a wire deposit shows the
 * reference the user writes on the transfer.
 */
describe.each(DB_KINDS)('client-facing words in deposits on %s', (kind) => {
  let server: DepositServer;
  const clock = new ManualClock(DEPOSITS_START);

  beforeAll(async () => {
    server = await startDepositServer(kind, { clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const declare = async (trader: Trader, number: string) => {
    const made = await server.submitCoin(trader, {
      number,
      proofImg: await server.proof(trader.userId),
      charge_id: await server.channel(CashierType.coin, 'USDT', 'TRC20'),
    });
    expect(made.code).toBe(1);
    return made.data.id;
  };
  const listed = async (trader: Trader, id: number) =>
    (await server.list(trader)).data.data.find((record) => record.id === id) as DepositView;

  it('a voided deposit says "Voided by us", an expired one "Expired"; neither says "Invalid"', async () => {
    const trader = await server.trader();
    const voidedId = await declare(trader, '120');
    const voided = await server.operator('void', voidedId, { reason: 'We received no payment for this deposit' });
    expect(voided.data).toMatchObject({ status: 3, status_name: 'Voided by us', status_reason: 'voided' });

    const staleId = await declare(trader, '80');
    clock.advance(8 * DAY_MS);
    await server.deposits.expireStale(clock.now());

    const seenVoided = await listed(trader, voidedId);
    expect(seenVoided).toMatchObject({
      status: 3,
      status_name: 'Voided by us',
      status_reason: 'voided',
      remark: 'We received no payment for this deposit',
    });
    expect(seenVoided.timeline.at(-1)).toMatchObject({ status: 3, status_name: 'Voided by us' });
    const seenStale = await listed(trader, staleId);
    expect(seenStale).toMatchObject({ status: 3, status_name: 'Expired', status_reason: 'expired' });
    expect(seenStale.timeline.at(-1)).toMatchObject({ status: 3, status_name: 'Expired' });

    const hk = await server.call<{ data: DepositView[] }>('GET', ApiPath.depositList, { token: trader.token, lang: 'hk' });
    expect(hk.data.data.map((record) => record.status_name)).toEqual(['已過期', '已由我們作廢']);
  });

  it('a rejection shows the user its reason only; the internal note stays with operators and the audit', async () => {
    const trader = await server.trader();
    const rejectedId = await declare(trader, '300');
    const voidedId = await declare(trader, '310');
    const rejected = await server.operator('reject', rejectedId, {
      reason: 'The proof does not show the transfer',
      internal_note: INTERNAL,
    });
    expect(rejected.data).toMatchObject({ status: 2, remark: 'The proof does not show the transfer', internal_note: INTERNAL });
    const voided = await server.operator('void', voidedId, { reason: 'Duplicate of another deposit', internal_note: INTERNAL });
    expect(voided.data).toMatchObject({ status: 3, internal_note: INTERNAL });

    const seen = await userSees(server, trader);
    expect(seen).toContain('The proof does not show the transfer');
    expect(seen).toContain('Duplicate of another deposit');
    expect(seen).not.toContain('chargeback');

    const queue = await server.call<{ data: { id: number; internal_note: string | null }[] }>(
      'GET',
      '/admin/api/deposits?status=2',
      { headers: await server.operatorHeaders('alice', 'finance') },
    );
    expect(queue.data.data.find((item) => item.id === rejectedId)).toMatchObject({ internal_note: INTERNAL });
    const [audit] = await auditOf(server.database.db, 'deposit', rejectedId);
    expect(audit).toMatchObject({
      action: 'deposit.reject',
      after: { reason: 'The proof does not show the transfer', internal_note: INTERNAL },
    });
  });

  it('the wire channels carry the payment reference, the user’s UID, and no English-only instruction', async () => {
    const trader = await server.trader();
    const wires = await server.call<WireChannelView[]>('GET', ApiPath.wireInfo, { token: trader.token, lang: 'hk' });
    const uid = String(await uidOf(server.database.db, trader.userId));
    expect(wires.data.length).toBeGreaterThan(0);
    for (const wire of wires.data) {
      expect(wire.payment_reference).toBe(uid);
      expect(wire.bank_remark).not.toMatch(/UID/);
    }
    const remarks = await server.database.db
      .select({ remark: depositChannels.bankRemark })
      .from(depositChannels)
      .where(eq(depositChannels.type, CashierType.bank));
    expect(remarks.map((row) => row.remark)).toEqual(remarks.map(() => ''));
  });
});

describe.each(DB_KINDS)('client-facing words in withdrawals, adjustments and KYC on %s', (kind) => {
  let server: WithdrawalServer;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const methods = new Map<number, Promise<{ methodId: number; currencyId: number }>>();
  const draw = async (trader: Trader, number: string) => {
    if (!methods.has(trader.userId)) methods.set(trader.userId, server.usableMethod(trader));
    const { methodId, currencyId } = await methods.get(trader.userId)!;
    const made = await server.draw(trader, { draw_currency_id: currencyId, number, draw_method_id: methodId });
    expect(made).toMatchObject({ code: 1 });
    return made.data.id;
  };
  const listed = async (trader: Trader, id: number) =>
    (await server.list(trader)).data.data.find((record) => record.id === id) as WithdrawalView;

  it('a withdrawal the user cancelled says "Cancelled by you"; one an operator voided "Voided by us"', async () => {
    const trader = await server.trader({ balance: '1000' });
    const cancelledId = await draw(trader, '100');
    const voidedId = await draw(trader, '200');

    const cancelled = await server.cancel(trader, cancelledId);
    expect(cancelled.data).toMatchObject({ status: 3, status_name: 'Cancelled by you', status_reason: 'cancelled' });
    await server.operator('void', voidedId, { reason: 'Duplicate request' });

    const seenCancelled = await listed(trader, cancelledId);
    expect(seenCancelled).toMatchObject({ status: 3, status_name: 'Cancelled by you', status_reason: 'cancelled' });
    expect(seenCancelled.timeline.at(-1)).toMatchObject({ status: 3, status_name: 'Cancelled by you' });
    const seenVoided = await listed(trader, voidedId);
    expect(seenVoided).toMatchObject({
      status: 3,
      status_name: 'Voided by us',
      status_reason: 'voided',
      remark: 'Duplicate request',
    });
    expect(seenVoided.timeline.at(-1)).toMatchObject({ status: 3, status_name: 'Voided by us' });

    const ar = await server.call<{ data: WithdrawalView[] }>('GET', ApiPath.drawList, { token: trader.token, lang: 'ar' });
    expect(ar.data.data.map((record) => record.status_name)).toEqual(['ألغيناه نحن', 'ألغيته أنت']);
  });

  it('a withdrawal rejection shows the user its reason only; the internal note stays with operators and the audit', async () => {
    const trader = await server.trader({ balance: '1000' });
    const id = await draw(trader, '150');
    const rejected = await server.operator('reject', id, { reason: 'The payee name does not match', internal_note: INTERNAL });
    expect(rejected.data).toMatchObject({ status: 2, remark: 'The payee name does not match', internal_note: INTERNAL });

    const seen = await userSees(server, trader);
    expect(seen).toContain('The payee name does not match');
    expect(seen).not.toContain('chargeback');
    const queue = await server.call<{ data: { id: number; internal_note: string | null }[] }>(
      'GET',
      '/admin/api/withdrawals?status=2',
      { headers: await server.operatorHeaders('alice', 'finance') },
    );
    expect(queue.data.data.find((item) => item.id === id)).toMatchObject({ internal_note: INTERNAL });
    expect((await auditOf(server.database.db, 'withdrawal', id)).at(-1)).toMatchObject({
      action: 'withdrawal.reject',
      after: { reason: 'The payee name does not match', internal_note: INTERNAL },
    });
  });

  it('an adjustment tells the user its client-facing text only, in the history and the e-mail', async () => {
    const trader = await server.trader({ balance: '100' });
    const made = await server.call<{ id: number; reason: string; internal_note: string | null }>(
      'POST',
      '/admin/api/adjustments',
      {
        body: {
          uid: await uidOf(server.database.db, trader.userId),
          amount: '25',
          reason: 'Goodwill credit for the delayed withdrawal',
          internal_note: INTERNAL,
        },
        headers: await server.operatorHeaders('alice', 'finance'),
      },
    );
    expect(made).toMatchObject({
      code: 1,
      data: { reason: 'Goodwill credit for the delayed withdrawal', internal_note: INTERNAL },
    });
    const approved = await server.call('POST', `/admin/api/adjustments/${made.data.id}/approve`, {
      body: { note: 'Checked: the chargeback case is closed' },
      headers: await server.operatorHeaders('bob', 'finance'),
    });
    expect(approved.code).toBe(1);

    const seen = await userSees(server, trader);
    expect(seen).toContain('Goodwill credit for the delayed withdrawal');
    expect(seen).not.toContain('chargeback');
    const listed = await server.call<{ data: { id: number; internal_note: string | null }[] }>('GET', '/admin/api/adjustments', {
      headers: await server.operatorHeaders('alice', 'finance'),
    });
    expect(listed.data.data.find((item) => item.id === made.data.id)).toMatchObject({ internal_note: INTERNAL });
    expect((await auditOf(server.database.db, 'adjustment', made.data.id))[0]).toMatchObject({
      action: 'adjustment.create',
      after: { reason: 'Goodwill credit for the delayed withdrawal', internal_note: INTERNAL },
    });
  });

  it('a KYC rejection shows the user its reason only; the internal note stays with operators and the audit', async () => {
    const trader = await server.trader();
    const image = async () => {
      const id = randomBytes(16).toString('base64url');
      const data = randomBytes(32);
      await server.database.db
        .insert(uploads)
        .values({ id, userId: trader.userId, mimeType: 'image/png', bytes: data.length, width: 1, height: 1, sha256: 'x', data });
      return id;
    };
    await server.ctx.identity.submit(trader.userId, {
      name: 'Ada Lovelace',
      card_id: 'X1234567',
      front_pic: await image(),
      reverse_pic: await image(),
    });
    const rejected = await server.call<IdentityReviewView>('POST', `/admin/api/kyc/${trader.userId}/reject`, {
      body: { reason: 'The photo of the back is blurred', internal_note: INTERNAL },
      headers: await server.operatorHeaders('carol', 'compliance'),
    });
    expect(rejected.data).toMatchObject({
      review_status: 0,
      reason: 'The photo of the back is blurred',
      internal_note: INTERNAL,
    });

    const center = await server.call<RealNameView>('GET', ApiPath.realNameCenter, { token: trader.token });
    expect(center.data).toMatchObject({ reason: 'The photo of the back is blurred' });
    const seen = await userSees(server, trader);
    expect(seen).toContain('The photo of the back is blurred');
    expect(seen).not.toContain('chargeback');
    const queue = await server.call<{ data: IdentityReviewView[] }>('GET', `/admin/api/kyc?status=0`, {
      headers: await server.operatorHeaders('carol', 'compliance'),
    });
    expect(queue.data.data.find((item) => item.user_id === trader.userId)).toMatchObject({ internal_note: INTERNAL });
    expect((await auditOf(server.database.db, 'kyc', trader.userId)).at(-1)).toMatchObject({
      action: 'kyc.reject',
      after: { reason: 'The photo of the back is blurred', internal_note: INTERNAL },
    });
  });
});
