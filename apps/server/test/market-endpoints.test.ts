import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { ApiPath, dec, type CategoryView, type KlinePointView, type SparklineView, type TradePairView } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTRUMENT_SEEDS } from '../src/modules/market/catalog.js';
import { USER_DOCUMENT } from '../src/http/openapi.js';
import { DB_KINDS, ManualClock, startTestServer, type TestServer } from './harness.js';
import { rawGet } from './raw-http.js';

/** Tuesday 2026-11-17 10:00:30 UTC: every session is open. */
const TUESDAY = Date.UTC(2026, 10, 17, 10, 0, 30);

describe.each(DB_KINDS)('market endpoints on %s', (kind) => {
  let server: TestServer;
  let clock: ManualClock;
  let pairs: TradePairView[];
  const idOf = (code: string) => pairs.find((pair) => pair.Code === code)!.Id;

  beforeAll(async () => {
    clock = new ManualClock(TUESDAY);
    server = await startTestServer(kind, { clock });
    pairs = (await server.call<TradePairView[]>('GET', ApiPath.tradeList)).data;
  });
  afterAll(() => server.close());

  it('lists every instrument with the fields of a trade pair, quoted at its base price before any tick', async () => {
    expect(pairs).toHaveLength(INSTRUMENT_SEEDS.length);
    expect(pairs.length).toBeGreaterThanOrEqual(25);
    const eurusd = pairs.find((pair) => pair.Code === 'EURUSD')!;
    expect(eurusd).toMatchObject({
      ShowCode: 'EURUSD',
      Logo: '/logos/eur.svg',
      MarketStatus: 1,
      Session: 'forex',
      PricePrecision: 5,
      Pip: 0.01,
      ForexMinCont: 0.01,
      ForexMaxCont: 50,
      ForexContNum: 100000,
      ForexFeeRate: 0.005,
      MarginMode: 2,
      HasForexMultiple: [{ Value: 10 }, { Value: 20 }, { Value: 50 }, { Value: 100 }, { Value: 200 }, { Value: 500 }],
      ForexQuotations: { Close: 1.162, Bid: 1.162, Ask: 1.16208, Change: 0 },
    });
    expect(pairs.filter((pair) => pair.MarginMode === 1).map((pair) => pair.Code)).toEqual(['USOIL', 'UKOIL']);
    // Each names the hours it trades by, so a closed one can say when it opens.
    expect(
      Object.fromEntries(
        ['EURUSD', 'XAUUSD', 'GER40', 'BTCUSD'].map((code) => [code, pairs.find((pair) => pair.Code === code)!.Session]),
      ),
    ).toEqual({
      EURUSD: 'forex',
      XAUUSD: 'cfd',
      GER40: 'europe',
      BTCUSD: 'crypto',
    });
  });

  it('filters by code or name, case-insensitively', async () => {
    const byCode = await server.call<TradePairView[]>('GET', `${ApiPath.tradeList}?searchCurrency=jpy`);
    expect(byCode.data.map((pair) => pair.Code)).toEqual(['USDJPY', 'EURJPY', 'GBPJPY', 'AUDJPY', 'CADJPY']);
    const byName = await server.call<TradePairView[]>('GET', `${ApiPath.tradeList}?searchCurrency=${encodeURIComponent('gold')}`);
    expect(byName.data.map((pair) => pair.Code)).toEqual(['XAUUSD']);
    const none = await server.call<TradePairView[]>('GET', `${ApiPath.tradeList}?searchCurrency=zzz`);
    expect(none).toMatchObject({ code: 1, data: [] });
  });

  it('names categories in the request language', async () => {
    const en = await server.call<CategoryView[]>('GET', ApiPath.categories, { lang: 'en' });
    expect(en.data.map((c) => c.NameShowTrans)).toEqual(['Forex', 'Metals', 'Energy', 'Indices', 'Crypto']);
    const hk = await server.call<CategoryView[]>('GET', ApiPath.categories, { lang: 'tw' });
    expect(hk.data.map((c) => c.NameShowTrans)).toEqual(['外匯', '貴金屬', '能源', '指數', '加密貨幣']);
    expect(new Set(pairs.map((pair) => pair.CategoryId))).toEqual(new Set(en.data.map((c) => c.Id)));
  });

  it('reflects a tick in the quote, the 24-hour change and the live current bar', async () => {
    const quote = server.feed.tick('EURUSD', '1.17362');
    expect(quote).toMatchObject({ bid: '1.17362', ask: '1.17370', marketOpen: true, changePct: '1.00' });
    const listed = await server.call<TradePairView[]>('GET', `${ApiPath.tradeList}?searchCurrency=EURUSD`);
    expect(listed.data[0]!.ForexQuotations).toMatchObject({ Close: 1.17362, Bid: 1.17362, Ask: 1.1737, Change: 1 });
    const bars = await server.call<KlinePointView[]>('GET', `${ApiPath.kline}?forex_id=${idOf('EURUSD')}&period=1min`);
    const minute = Math.floor(TUESDAY / 60_000) * 60;
    expect(bars.data.at(-1)).toMatchObject({ Time: minute, Close: 1.17362, High: 1.17362 });
  });

  it('names each quote currency and its USD rate, the rate orders are charged at', async () => {
    server.feed.tick('USDJPY', '154.512');
    const listed = (await server.call<TradePairView[]>('GET', ApiPath.tradeList)).data;
    const rateOf = (code: string) => listed.find((pair) => pair.Code === code)!;
    // 1 ÷ 154.512 to 12 significant digits: the rate a yen-quoted order is charged at.
    expect(rateOf('JPN225')).toMatchObject({ QuoteCurrency: 'JPY', UsdRate: '0.00647198923061' });
    expect(rateOf('USDJPY')).toMatchObject({ QuoteCurrency: 'JPY', UsdRate: '0.00647198923061' });
    expect(rateOf('GER40')).toMatchObject({ QuoteCurrency: 'EUR', UsdRate: String(rateOf('EURUSD').ForexQuotations.Bid) });
    expect(rateOf('XAUUSD')).toMatchObject({ QuoteCurrency: 'USD', UsdRate: '1' });
    for (const pair of listed) expect(dec(pair.UsdRate).gt(0)).toBe(true);
  });

  it('builds aligned bars from ticks and persists them, ascending, with limit and end', async () => {
    const id = idOf('GBPUSD');
    const start = Math.floor(TUESDAY / 300_000) * 300_000;
    const prices = ['1.31500', '1.31600', '1.31400', '1.31550', '1.31700', '1.31650'];
    for (const [i, price] of prices.entries()) server.feed.tick('GBPUSD', price, { time: start + i * 60_000 + 5_000, volume: 2 });
    await server.ctx.modules.find((m) => m.name === 'market')!.stop?.();
    const fives = await server.call<KlinePointView[]>('GET', `${ApiPath.kline}?forex_id=${id}&period=5min`);
    expect(fives.data).toEqual([
      { Time: start / 1000, Open: 1.315, High: 1.317, Low: 1.314, Close: 1.317, Volume: 10 },
      { Time: start / 1000 + 300, Open: 1.3165, High: 1.3165, Low: 1.3165, Close: 1.3165, Volume: 2 },
    ]);
    const minutes = await server.call<KlinePointView[]>('GET', `${ApiPath.kline}?forex_id=${id}&period=1min&limit=2`);
    expect(minutes.data.map((bar) => bar.Close)).toEqual([1.317, 1.3165]);
    const before = await server.call<KlinePointView[]>(
      'GET',
      `${ApiPath.kline}?forex_id=${id}&period=1min&limit=2&end=${start / 1000 + 120}`,
    );
    expect(before.data.map((bar) => bar.Time)).toEqual([start / 1000, start / 1000 + 60]);
  });

  it('serves sparklines for one instrument or all of them', async () => {
    const one = await server.call<SparklineView[]>('GET', `${ApiPath.abbreviatedKline}?forex_id=${idOf('EURUSD')}`);
    expect(one.data).toHaveLength(1);
    expect(one.data[0]).toMatchObject({ Code: 'EURUSD', Period: '15min' });
    expect(one.data[0]!.Points.at(-1)).toEqual([Math.floor(TUESDAY / 900_000) * 900, 1.17362]);
    const all = await server.call<SparklineView[]>('GET', `${ApiPath.abbreviatedKline}?period=60min`);
    expect(all.data).toHaveLength(INSTRUMENT_SEEDS.length);
  });

  it('rejects bad input with a message and never a 500', async () => {
    const unknown = await server.call('GET', `${ApiPath.kline}?forex_id=99999&period=1min`);
    expect(unknown).toMatchObject({ status: 200, code: 1004, msg: 'The trading instrument does not exist', data: null });
    const badPeriod = await server.call('GET', `${ApiPath.kline}?forex_id=1&period=2min`);
    expect(badPeriod).toMatchObject({ status: 200, code: 1001, msg: 'The chart period is not valid' });
    const badPeriodHk = await server.call('GET', `${ApiPath.kline}?forex_id=1&period=2min`, { lang: 'hk' });
    expect(badPeriodHk.msg).toBe('K線週期無效');
    const noId = await server.call('GET', `${ApiPath.kline}?period=1min`);
    expect(noId).toMatchObject({ code: 1001, msg: 'The instrument id is not valid' });
    const textId = await server.call('GET', `${ApiPath.kline}?forex_id=abc&period=1min`);
    expect(textId.code).toBe(1001);
    const badLimit = await server.call('GET', `${ApiPath.kline}?forex_id=1&period=1min&limit=100000`);
    expect(badLimit).toMatchObject({ code: 1001, msg: 'The number of bars must be between 1 and 1500' });
    const badEnd = await server.call('GET', `${ApiPath.kline}?forex_id=1&period=1min&end=-5`);
    expect(badEnd.code).toBe(1001);
    const sparkUnknown = await server.call('GET', `${ApiPath.abbreviatedKline}?forex_id=424242`);
    expect(sparkUnknown.code).toBe(1004);
    const longSearch = await server.call('GET', `${ApiPath.tradeList}?searchCurrency=${'x'.repeat(100)}`);
    expect(longSearch.code).toBe(1001);
  });

  it('sends the quotes, the sparklines and the logos compressed to a client that accepts it, byte for byte the same', async () => {
    for (const path of [ApiPath.tradeList, ApiPath.abbreviatedKline, pairs[0]!.Logo]) {
      const plain = await rawGet(server.baseUrl, path);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      const brotli = await rawGet(server.baseUrl, path, { 'accept-encoding': 'gzip, deflate, br' });
      expect(brotli.headers['content-encoding'], path).toBe('br');
      expect(brotli.headers.vary, path).toContain('accept-encoding');
      expect(brotli.bytes.length, path).toBeLessThan(plain.bytes.length / 2);
      expect(brotliDecompressSync(brotli.bytes).equals(plain.bytes), path).toBe(true);
      const gzip = await rawGet(server.baseUrl, path, { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding'], path).toBe('gzip');
      expect(gunzipSync(gzip.bytes).equals(plain.bytes), path).toBe(true);
      for (const unknown of ['__proto__', 'constructor', 'gzip;q=0, br;q=0']) {
        const asIs = await rawGet(server.baseUrl, path, { 'accept-encoding': unknown });
        expect(asIs.headers['content-encoding'], `${path} ${unknown}`).toBeUndefined();
        expect(asIs.bytes.equals(plain.bytes), `${path} ${unknown}`).toBe(true);
      }
    }
  });

  it('sends an answer under 1 KB, and a route that does not ask for compression, as they are', async () => {
    const categories = await rawGet(server.baseUrl, ApiPath.categories, { 'accept-encoding': 'gzip, deflate, br' });
    expect(categories.bytes.length).toBeLessThan(1024);
    expect(categories.headers['content-encoding']).toBeUndefined();
    const document = await rawGet(server.baseUrl, USER_DOCUMENT, { 'accept-encoding': 'gzip, deflate, br' });
    expect(document.bytes.length).toBeGreaterThan(10_000);
    expect(document.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(document.body)).toHaveProperty('openapi');
  });

  it('serves the shipped logos as SVG and nothing else under /logos', async () => {
    for (const pair of pairs) {
      const response = await fetch(server.baseUrl + pair.Logo);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('image/svg+xml');
      expect(await response.text()).toContain('<svg');
    }
    expect((await fetch(`${server.baseUrl}/logos/..%2Fservice.ts`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/logos/nope.svg`)).status).toBe(404);
  });
});

describe.each(DB_KINDS)('market service on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind, { clock: new ManualClock('2026-11-21T12:00:00Z') });
  });
  afterAll(() => server.close());

  it('reports forex closed on a Saturday and crypto open', () => {
    const { market } = server;
    expect(market.isOpen(market.getInstrumentByCode('EURUSD')!.id)).toBe(false);
    expect(market.isOpen(market.getInstrumentByCode('BTCUSD')!.id)).toBe(true);
    expect(market.isOpen(market.getInstrumentByCode('EURUSD')!.id, new Date('2026-11-17T12:00:00Z'))).toBe(true);
    expect(market.getQuote(market.getInstrumentByCode('EURUSD')!.id)!.marketOpen).toBe(false);
  });

  it('converts currencies into USD from the current quotes', () => {
    const { market, feed } = server;
    expect(market.usdRate('USD').toString()).toBe('1');
    feed.tick('EURUSD', '1.25000');
    feed.tick('USDJPY', '160.000');
    expect(market.usdRate('EUR').toString()).toBe('1.25');
    expect(market.usdRate('JPY').toFixed(8)).toBe('0.00625000');
    expect(market.usdRate('CHF').toFixed(6)).toBe((1 / 0.798).toFixed(6));
    expect(() => market.usdRate('XYZ')).toThrow();
  });

  it('publishes market.quote after the quote table is updated', () => {
    const { market, feed } = server;
    const seen: string[] = [];
    const unsubscribe = server.ctx.bus.subscribe('market.quote', (quote) => {
      seen.push(`${quote.code} ${quote.bid} ${market.getQuote(quote.instrumentId)!.bid}`);
    });
    feed.tick('XAUUSD', '4100.55');
    unsubscribe();
    expect(seen).toEqual(['XAUUSD 4100.55 4100.55']);
  });
});
