import { CashierType } from '@pipwise/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cashierEvents, deposits, ledgerEntries } from '../src/db/schema.js';
import { startDepositServer, type DepositServer } from './deposits-helpers.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';

/** Issue 11 item 4: a deposit is decided and credited once, however many operators click and clients retry. */
describe.each(DB_KINDS)('deposit concurrency on %s', (kind) => {
  let server: DepositServer;

  beforeAll(async () => {
    server = await startDepositServer(kind);
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const db = () => server.database.db;
  const depositsOf = (userId: number) => db().select().from(deposits).where(eq(deposits.userId, userId));
  const eventsOf = (depositId: number) =>
    db()
      .select()
      .from(cashierEvents)
      .where(and(eq(cashierEvents.refType, 'deposit'), eq(cashierEvents.refId, depositId)));
  const creditsOf = (depositId: number) =>
    db()
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refType, 'deposit'), eq(ledgerEntries.refId, depositId)));

  it('20 operators approving, rejecting and voiding one deposit at once: one decision, at most one credit', async () => {
    const trader = await server.trader();
    const submitted = await server.submitCoin(trader, {
      number: '500',
      proofImg: await server.proof(trader.userId),
      charge_id: await server.channel(CashierType.coin, 'USDT', 'TRC20'),
    });
    expect(submitted.code).toBe(1);

    const actions = Array.from({ length: 20 }, (_, index) => {
      const name = `op${index}`;
      if (index % 3 === 0) return server.operator('approve', submitted.data.id, {}, name);
      if (index % 3 === 1) return server.operator('reject', submitted.data.id, { reason: `reason ${index}` }, name);
      return server.operator('void', submitted.data.id, { reason: `void ${index}` }, name);
    });
    const answers = await Promise.all(actions);

    const winners = answers.filter((answer) => answer.code === 1);
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === 1009)).toHaveLength(19);
    for (const answer of answers.filter((candidate) => candidate.code !== 1)) {
      expect(answer.msg).toBe('This deposit has already been decided; nothing was changed');
    }

    const [row] = await depositsOf(trader.userId);
    const winner = winners[0]!.data;
    expect(row).toMatchObject({ status: winner.status, decidedBy: winner.decided_by });
    expect((await eventsOf(submitted.data.id)).map((event) => event.status).sort()).toEqual([0, winner.status].sort());
    const credits = await creditsOf(submitted.data.id);
    expect(credits).toHaveLength(winner.status === 1 ? 1 : 0);
    expect(await server.balanceOf(trader.userId)).toBe(winner.status === 1 ? '500.00' : '0.00');
  });

  it('20 concurrent approvals: exactly one credit of the amount', async () => {
    const trader = await server.trader();
    const submitted = await server.submitWire(trader, {
      number: '1234.56',
      proofImg: await server.proof(trader.userId),
      wire_id: await server.channel(CashierType.bank, 'USD'),
    });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => server.operator('approve', submitted.data.id, {}, `op${index}`)),
    );
    expect(answers.filter((answer) => answer.code === 1)).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === 1009)).toHaveLength(19);
    expect(await creditsOf(submitted.data.id)).toMatchObject([{ amount: '1234.56', type: 'deposit' }]);
    expect(await server.balanceOf(trader.userId)).toBe('1234.56');
  });

  it('an approval racing the expiry sweep: one of them decides, never both', async () => {
    const trader = await server.trader();
    const submitted = await server.submitCoin(trader, {
      number: '90',
      proofImg: await server.proof(trader.userId),
      charge_id: await server.channel(CashierType.coin, 'USDC'),
    });
    const later = new Date(Date.now() + 30 * 86_400_000);
    const [approved, expired] = await Promise.all([
      server.operator('approve', submitted.data.id),
      server.deposits.expireStale(later),
    ]);
    const [row] = await depositsOf(trader.userId);
    if (approved.code === 1) {
      expect(expired).not.toContain(submitted.data.id);
      expect(row?.status).toBe(1);
    } else {
      expect(approved.code).toBe(1009);
      expect(expired).toContain(submitted.data.id);
      expect(row?.status).toBe(3);
    }
    expect(await eventsOf(submitted.data.id)).toHaveLength(2);
  });

  it('the same Idempotency-Key sent twice, then ten times at once, makes one record and answers it each time', async () => {
    const trader = await server.trader();
    const body = {
      number: '120',
      proofImg: await server.proof(trader.userId),
      charge_id: await server.channel(CashierType.coin, 'USDT', 'ERC20'),
    };
    const headers = { 'idempotency-key': 'deposit-intent-1' };
    const first = await server.submitCoin(trader, body, headers);
    const again = await server.submitCoin(trader, body, headers);
    expect(first.code).toBe(1);
    expect(again).toMatchObject({ code: 1, msg: first.msg, data: { id: first.data.id } });
    expect(await depositsOf(trader.userId)).toHaveLength(1);

    const racing = { 'idempotency-key': 'deposit-intent-2' };
    const wire = {
      number: '500',
      proofImg: await server.proof(trader.userId),
      wire_id: await server.channel(CashierType.bank, 'USD'),
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => server.submitWire(trader, wire, racing)));
    expect(new Set(answers.map((answer) => answer.code))).toEqual(new Set([1]));
    expect(new Set(answers.map((answer) => answer.data.id)).size).toBe(1);
    expect(await depositsOf(trader.userId)).toHaveLength(2);
  });

  it('a key sent again with another body, or to the other submit, is refused with 1009 and changes nothing', async () => {
    const trader = await server.trader();
    const proofImg = await server.proof(trader.userId);
    const charge_id = await server.channel(CashierType.coin, 'USDT', 'TRC20');
    const headers = { 'idempotency-key': 'deposit-intent-3' };
    const first = await server.submitCoin(trader, { number: '60', proofImg, charge_id }, headers);
    expect(first.code).toBe(1);
    const before = await server.counts();

    const larger = await server.submitCoin(trader, { number: '61', proofImg, charge_id }, headers);
    expect(larger).toMatchObject({ code: 1009, msg: 'This Idempotency-Key was already used for another request' });
    const wire = await server.submitWire(
      trader,
      { number: '600', proofImg, wire_id: await server.channel(CashierType.bank, 'USD') },
      headers,
    );
    expect(wire.code).toBe(1009);
    expect(await server.counts()).toEqual(before);

    // A refused first call claims nothing: the key stays free for a corrected retry.
    const refusedKey = { 'idempotency-key': 'deposit-intent-4' };
    const freshProof = await server.proof(trader.userId);
    expect((await server.submitCoin(trader, { number: '5', proofImg: freshProof, charge_id }, refusedKey)).code).toBe(1002);
    expect((await server.submitCoin(trader, { number: '50', proofImg: freshProof, charge_id }, refusedKey)).code).toBe(1);
  });
});
