import { ApiPath, type OrderView } from '@pipwise/domain';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Trader } from './factories.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS } from './harness.js';
import { MARKET_OPEN_AT, startTradingServer, type TradingServer } from './trading-helpers.js';

type Call = { method: 'GET' | 'POST'; path: string; body?: Record<string, unknown> };

/**
 * Bad input on every trading endpoint: each answer is the envelope with a clear message in the
 * request's language, HTTP 200 (never 500), and nothing in the database changes.
 */
describe.each(DB_KINDS)('trading input checks on %s', (kind) => {
  let server: TradingServer;
  let eurusd: number;
  let owner: Trader;
  let stranger: Trader;
  let holdingId: number;
  let pendingId: number;

  beforeAll(async () => {
    server = await startTradingServer(kind);
    eurusd = server.instrumentId('EURUSD');
    await server.tick('EURUSD', '1.10000');
    owner = await server.trader({ balance: '1000' });
    stranger = await server.trader({ balance: '1000' });
    holdingId = (
      (await server.submit(owner, { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100 })).data as OrderView
    ).Id;
    pendingId = (
      (await server.submit(owner, { type: 1, cont: '0.1', forex_id: eurusd, status: 0, target_price: '1.05', multiple: 100 }))
        .data as OrderView
    ).Id;
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.engine.settled();
    await expectLedgerInvariants(server.database.db);
  });

  const snapshot = async () => {
    const result: unknown = await server.database.db.execute(sql`
      SELECT (SELECT json_agg(o ORDER BY id) FROM orders o) AS orders,
             (SELECT json_agg(w ORDER BY user_id) FROM wallets w) AS wallets,
             (SELECT COUNT(*) FROM ledger_entries) AS ledger`);
    return JSON.stringify((result as { rows: unknown[] }).rows);
  };

  /** Sends each call, expects the message, and checks the database did not move. */
  async function expectRefused(token: string | null, cases: [Call, string][], code?: number) {
    const before = await snapshot();
    for (const [call, message] of cases) {
      const answer = await server.call(call.method, call.path, { token, ...(call.body ? { body: call.body } : {}) });
      expect({ call, status: answer.status, msg: answer.msg }).toEqual({ call, status: 200, msg: message });
      if (code !== undefined) expect(answer.code).toBe(code);
      expect(answer.code).not.toBe(1);
      expect(answer.data).toBeNull();
    }
    expect(await snapshot()).toBe(before);
  }

  const submit = (patch: Record<string, unknown>): Call => ({
    method: 'POST',
    path: ApiPath.submitOrder,
    body: { type: 1, cont: '0.1', forex_id: eurusd, status: 1, multiple: 100, ...patch },
  });

  it('every endpoint needs a login (999)', async () => {
    const anonymous: Call[] = [
      submit({}),
      { method: 'GET', path: `${ApiPath.myDeal}?status=1` },
      { method: 'GET', path: `${ApiPath.closeOrder}?id=${holdingId}` },
      { method: 'GET', path: `${ApiPath.cancelOrder}?id=${pendingId}` },
      { method: 'GET', path: `${ApiPath.setStopPrice}?id=${holdingId}&stop_loss_price=1` },
      { method: 'GET', path: ApiPath.getBalance },
      { method: 'GET', path: ApiPath.forexDetail },
      { method: 'GET', path: ApiPath.ledger },
      { method: 'GET', path: ApiPath.resetDemo },
    ];
    await expectRefused(
      null,
      anonymous.map((call) => [call, 'Please log in first']),
      999,
    );
    await expectRefused('not-a-real-token', [[anonymous[0]!, 'Please log in first']], 999);
  });

  it('submit: wrong types, negative, zero, huge and non-numeric lots, bad prices, unknown product', async () => {
    await expectRefused(owner.token, [
      [submit({ cont: 'abc' }), 'Please enter a valid lot size'],
      [submit({ cont: '-0.1' }), 'Please enter a valid lot size'],
      [submit({ cont: 0 }), 'Please enter a valid lot size'],
      [submit({ cont: '1e9' }), 'Please enter a valid lot size'],
      [submit({ cont: 99999999999 }), 'Please enter a valid lot size'],
      [submit({ cont: { lots: 1 } }), 'Please enter a valid lot size'],
      [submit({ cont: undefined }), 'Please enter a valid lot size'],
      [submit({ cont: '0.001' }), 'The lot size must be at least 0.01'],
      [submit({ cont: '0.015' }), 'The lot size must change in steps of 0.01'],
      [submit({ cont: '51' }), 'The lot size must not exceed 50'],
      [submit({ type: 0 }), 'Please choose buy or sell'],
      [submit({ type: 'sell' }), 'Please choose buy or sell'],
      [submit({ status: 5 }), 'Please choose a market or a pending order'],
      [submit({ forex_id: 999999 }), 'This product does not exist'],
      [submit({ forex_id: 'EURUSD' }), 'Please choose a valid product'],
      [submit({ multiple: 7 }), 'This leverage is not offered for this product'],
      [submit({ multiple: -100 }), 'Please choose a valid leverage'],
      [submit({ status: 0 }), 'Please enter a price for the pending order'],
      [submit({ status: 0, target_price: 'cheap' }), 'Please enter a valid pending price'],
      [
        submit({ target_profit_price: '1.0' }),
        'Take profit is on the wrong side: above the price for a buy, below it for a sell',
      ],
      [submit({ stop_loss_price: '1.2' }), 'Stop loss is on the wrong side: below the price for a buy, above it for a sell'],
      [
        submit({ type: 2, target_profit_price: '1.2' }),
        'Take profit is on the wrong side: above the price for a buy, below it for a sell',
      ],
      [submit({ stop_loss_price: '-1' }), 'Please enter a valid stop-loss price'],
      [submit({ cont: '50', multiple: 10 }), 'Insufficient free margin for this order'],
    ]);
  });

  it('the messages follow the request language', async () => {
    const hk = await server.call('POST', ApiPath.submitOrder, { token: owner.token, lang: 'hk', body: { type: 1, cont: 'x' } });
    expect(hk.msg).toBe('請輸入有效的手數');
    const ar = await server.call('POST', ApiPath.submitOrder, { token: owner.token, lang: 'ar', body: { type: 9 } });
    expect(ar.msg).toBe('يرجى اختيار شراء أو بيع');
  });

  it('close, cancel, set_stop_price: unknown ids, another user’s order, wrong state, bad prices', async () => {
    const stop = (query: string): Call => ({ method: 'GET', path: `${ApiPath.setStopPrice}?${query}` });
    await expectRefused(owner.token, [
      [{ method: 'GET', path: `${ApiPath.closeOrder}?id=abc` }, 'Invalid order number'],
      [{ method: 'GET', path: `${ApiPath.closeOrder}?id=-4` }, 'Invalid order number'],
      [{ method: 'GET', path: ApiPath.closeOrder }, 'Invalid order number'],
      [{ method: 'GET', path: `${ApiPath.closeOrder}?id=987654321` }, 'Order not found'],
      [{ method: 'GET', path: `${ApiPath.closeOrder}?id=${pendingId}` }, 'This position is already closed'],
      [{ method: 'GET', path: `${ApiPath.cancelOrder}?id=${holdingId}` }, 'This order is no longer pending'],
      [{ method: 'GET', path: `${ApiPath.cancelOrder}?id=1.5` }, 'Invalid order number'],
      [
        stop(`id=${holdingId}&stop_loss_price=1.2`),
        'Stop loss is on the wrong side: below the price for a buy, above it for a sell',
      ],
      [
        stop(`id=${holdingId}&target_profit_price=1.0`),
        'Take profit is on the wrong side: above the price for a buy, below it for a sell',
      ],
      [
        stop(`id=${pendingId}&stop_loss_price=1.06`),
        'Stop loss is on the wrong side: below the price for a buy, above it for a sell',
      ],
      [stop(`id=${holdingId}&stop_loss_price=abc`), 'Please enter a valid stop-loss price'],
      [stop('id=0'), 'Invalid order number'],
      [{ method: 'GET', path: `${ApiPath.myDeal}?status=2` }, 'Invalid order status'],
      [{ method: 'GET', path: `${ApiPath.myDeal}?page=-1` }, 'The page number is not valid'],
      [{ method: 'GET', path: `${ApiPath.ledger}?page=abc` }, 'The page number is not valid'],
    ]);
    await expectRefused(stranger.token, [
      [{ method: 'GET', path: `${ApiPath.closeOrder}?id=${holdingId}` }, 'Order not found'],
      [{ method: 'POST', path: ApiPath.cancelOrder, body: { id: pendingId } }, 'Order not found'],
      [stop(`id=${holdingId}&stop_loss_price=1.05`), 'Order not found'],
    ]);
    const strangersList = await server.call<{ total: number }>('GET', `${ApiPath.myDeal}?status=1`, { token: stranger.token });
    expect(strangersList.data.total).toBe(0);
  });

  it('refuses to trade a closed market and a product without leverage options', async () => {
    server.manualClock.set('2026-11-21T12:00:00Z'); // a Saturday: forex is shut
    try {
      await expectRefused(owner.token, [
        [submit({}), 'The market is closed'],
        [{ method: 'GET', path: `${ApiPath.closeOrder}?id=${holdingId}` }, 'The market is closed'],
      ]);
    } finally {
      server.manualClock.set(MARKET_OPEN_AT);
    }
    // The back office can leave a product without leverage options (docs/api.md); the service reads the live list.
    const instrument = server.market.getInstrument(eurusd)!;
    const offered = [...instrument.leverages];
    instrument.leverages.splice(0);
    try {
      await expectRefused(owner.token, [[submit({}), 'Leverage is not configured, orders cannot be placed']]);
    } finally {
      instrument.leverages.push(...offered);
    }
  });
});
