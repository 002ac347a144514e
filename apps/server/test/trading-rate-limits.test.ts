import { ApiPath } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRADING_LIMITS } from '../src/modules/trading/routes.js';
import { DB_KINDS } from './harness.js';
import { startTradingServer, type TradingServer } from './trading-helpers.js';

/** Trading calls are limited per session, not per address: traders behind one address do not share a budget. */
describe.each(DB_KINDS)('trading rate limits on %s', (kind) => {
  let server: TradingServer;
  beforeAll(async () => {
    server = await startTradingServer(kind);
  });
  afterAll(() => server.close());

  it('refuses a session its next trading call once it used the minute, and leaves other sessions alone', async () => {
    const busy = await server.trader();
    const other = await server.trader();
    const max = TRADING_LIMITS.trade.config.rateLimit.max;
    // Cancelling an order that does not exist is counted like any trading call and writes nothing.
    const cancel = (token: string, lang = 'en') =>
      server.call('POST', ApiPath.cancelOrder, { token, lang, body: { id: 987_654_321 } });
    for (let i = 0; i < max; i++) expect((await cancel(busy.token)).msg).toBe('Order not found');
    const limited = await cancel(busy.token, 'de');
    expect(limited).toMatchObject({ status: 429, code: 1429, data: null });
    expect(limited.msg).not.toBe('Too many requests, please try again later');
    // Same address (every test request comes from 127.0.0.1), another session: not limited.
    const elsewhere = await cancel(other.token);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.code).not.toBe(1429);
  });
});
