import { ResponseCode } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, withdrawals } from '../src/db/schema.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { ADDRESSES, startWithdrawalServer, walletOf, type WithdrawalServer } from './withdrawals-helpers.js';

describe.each(DB_KINDS)('withdrawals under concurrency on %s', (kind) => {
  let server: WithdrawalServer;

  beforeAll(async () => {
    server = await startWithdrawalServer(kind);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await expectLedgerInvariants(server.database.db);
  });

  it('50 requests at once that together exceed the balance: only those that fit are accepted', async () => {
    const trader = await server.trader({ balance: '1000' });
    const { methodId, currencyId } = await server.usableMethod(await server.session(trader));
    const sessionList = await Promise.all(Array.from({ length: 5 }, () => server.session(trader)));
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        server.draw(sessionList[index % 5]!, { draw_currency_id: currencyId, number: '30', draw_method_id: methodId }),
      ),
    );
    const accepted = answers.filter((answer) => answer.code === ResponseCode.ok);
    const refused = answers.filter((answer) => answer.code !== ResponseCode.ok);
    expect(accepted).toHaveLength(33);
    // Requests are decided one at a time under the wallet lock: a refusal comes only once 33 × 30 are locked.
    for (const answer of refused) {
      expect(answer.msg).toBe('You can withdraw at most 10.00 USD (margin in use and locked funds stay in the account)');
    }
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '1000.00', lock: '990.00' });
    const rows = await server.database.db.select().from(withdrawals).where(eq(withdrawals.userId, trader.userId));
    expect(rows).toHaveLength(33);

    // Approving them all at once never takes the balance below zero, and debits each exactly once.
    // One sign-in before the burst: parallel first sign-ins of one operator would race each other.
    await server.operatorHeaders('alice', 'finance');
    const approvals = await Promise.all(accepted.map((answer) => server.operator('approve', answer.data.id)));
    expect(approvals.every((answer) => answer.code === ResponseCode.ok)).toBe(true);
    expect(await walletOf(server, trader.userId)).toEqual({ balance: '10.00', lock: '0.00' });
    const ledger = await server.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, trader.userId));
    expect(ledger.filter((row) => row.refType === 'withdrawal')).toHaveLength(66);
  });

  it('approve, reject, void and the user’s cancel racing on one request: exactly one transition wins', async () => {
    const trader = await server.trader({ balance: '5000' });
    const { methodId, currencyId } = await server.usableMethod(await server.session(trader));
    for (let round = 0; round < 4; round += 1) {
      const made = await server.draw(await server.session(trader), {
        draw_currency_id: currencyId,
        number: '100',
        draw_method_id: methodId,
      });
      expect(made.code).toBe(ResponseCode.ok);
      const id = made.data.id;
      const canceller = await server.session(trader);
      await server.operatorHeaders('alice', 'finance');
      const answers = await Promise.all([
        ...Array.from({ length: 4 }, () => server.operator('approve', id)),
        ...Array.from({ length: 4 }, () => server.operator('reject', id, { reason: 'race' })),
        ...Array.from({ length: 4 }, () => server.operator('void', id, { reason: 'race' })),
        ...Array.from({ length: 4 }, () => server.cancel(canceller, id)),
      ]);
      const winners = answers.filter((answer) => answer.code === ResponseCode.ok);
      expect(winners).toHaveLength(1);
      for (const answer of answers.filter((candidate) => candidate.code !== ResponseCode.ok)) {
        expect(answer).toMatchObject({
          code: ResponseCode.conflict,
          msg: 'This withdrawal has already been decided and cannot change',
        });
      }
      const [row] = await server.database.db.select().from(withdrawals).where(eq(withdrawals.id, id));
      expect(row!.status).toBe(winners[0]!.data.status);
      expect(winners[0]!.data.timeline.map((step) => step.status)).toEqual([0, row!.status]);
    }
    expect((await walletOf(server, trader.userId)).lock).toBe('0.00');
  });

  it('the same address bound from several sessions at once is kept once', async () => {
    const trader = await server.trader({ balance: '0' });
    const currency = await server.currency('USDC');
    const answers = await Promise.all(
      Array.from({ length: 8 }, async () =>
        server.bind(await server.session(trader), { type: 1, draw_id: currency.id, dc_address: ADDRESSES.USDC }),
      ),
    );
    expect(answers.filter((answer) => answer.code === ResponseCode.ok)).toHaveLength(1);
    for (const answer of answers.filter((candidate) => candidate.code !== ResponseCode.ok)) {
      expect(answer.msg).toBe('This payout method is already added');
    }
  });
});
