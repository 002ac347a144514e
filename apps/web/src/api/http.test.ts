import { beforeEach, describe, expect, it } from 'vitest';
import { ApiError, configureApi, http, outcomeUnknown } from './http';

interface Call {
  url: URL;
  init: RequestInit;
}

describe('API client', () => {
  let calls: Call[];
  let toasts: string[];
  let signedOut: number;
  let spinner: string[];
  let answer: () => Promise<Response>;
  let notLive: string | null;

  const reply =
    (body: unknown, status = 200) =>
    () =>
      Promise.resolve(new Response(JSON.stringify(body), { status }));

  beforeEach(() => {
    calls = [];
    toasts = [];
    signedOut = 0;
    spinner = [];
    answer = reply({ code: 1, msg: 'ok', data: { value: 42 } });
    notLive = null;
    configureApi({
      baseUrl: () => 'http://app.test',
      token: () => 'secret-token',
      language: () => 'ar',
      onNotLoggedIn: () => {
        signedOut += 1;
      },
      toast: (message) => {
        toasts.push(message);
        spinner.push(`toast ${message}`);
      },
      networkErrorMessage: (code) => `network ${code}`,
      offlineMessage: () => 'offline',
      pricesNotLive: () => notLive,
      showLoading: () => {
        spinner.push('open');
        return () => spinner.push('close');
      },
      fetch: (input, init) => {
        calls.push({
          url: new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url),
          init: init ?? {},
        });
        return answer();
      },
    });
  });

  it('sends lang, authorization and a timestamp on GET, and unwraps data', async () => {
    await expect(http.get('/v1/api/forex/kline', { forex_id: 3, period: '5min' })).resolves.toEqual({ value: 42 });
    const [call] = calls;
    expect(call!.url.pathname).toBe('/v1/api/forex/kline');
    expect(call!.url.searchParams.get('forex_id')).toBe('3');
    expect(Number(call!.url.searchParams.get('timestamp'))).toBeGreaterThan(0);
    expect(call!.init.headers).toMatchObject({ lang: 'ar', authorization: 'secret-token' });
  });

  it('puts a POST payload in the body, as a form when asked', async () => {
    await http.post('/api/user/loginForU', { account: 'a@b.c', password: 'pw' }, { form: true });
    expect(calls[0]!.url.search).toBe('');
    expect(calls[0]!.init.body).toBe('account=a%40b.c&password=pw');
    expect(calls[0]!.init.headers).toMatchObject({ 'content-type': 'application/x-www-form-urlencoded' });
  });

  it('shows a non-1 message as a toast and rejects with its code', async () => {
    answer = reply({ code: 1002, msg: 'Market closed', data: null });
    await expect(http.post('/v1/api/forex/submit', {})).rejects.toMatchObject({ code: 1002, message: 'Market closed' });
    expect(toasts).toEqual(['Market closed']);
  });

  it('signs out on 999 except for initial calls, and stays quiet when silent', async () => {
    answer = reply({ code: 999, msg: 'Please log in', data: null });
    await expect(http.get('/v1/api/main/wallet/getBalance')).rejects.toBeInstanceOf(ApiError);
    expect(signedOut).toBe(1);
    await expect(http.get('/api/user/info', undefined, { silent: true, initial: true })).rejects.toBeInstanceOf(ApiError);
    expect(signedOut).toBe(1);
    expect(toasts).toEqual(['Please log in']);
  });

  it('toasts network failures with their code', async () => {
    answer = () => Promise.reject(new TypeError('fetch failed'));
    await expect(http.get('/v1/api/forex/trade_list')).rejects.toMatchObject({ code: 'ERR_NETWORK', status: 0 });
    answer = () => Promise.resolve(new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(http.get('/v1/api/forex/trade_list')).rejects.toMatchObject({ code: 'HTTP_502' });
    expect(toasts).toEqual(['network ERR_NETWORK', 'network HTTP_502']);
  });

  it('closes the spinner before it shows the error', async () => {
    answer = reply({ code: 1002, msg: 'Rejected', data: null });
    await expect(http.post('/v1/api/forex/close', { id: 1 }, { loading: true })).rejects.toBeInstanceOf(ApiError);
    expect(spinner).toEqual(['open', 'close', 'toast Rejected']);
  });

  it("sends the intent's Idempotency-Key as given, the same on every send", async () => {
    await http.post('/v1/api/forex/submit', { forex_id: 1 }, { idempotencyKey: 'intent-1' });
    await http.post('/v1/api/forex/submit', { forex_id: 1 }, { idempotencyKey: 'intent-1' });
    expect(calls.map((call) => (call.init.headers as Record<string, string>)['idempotency-key'])).toEqual([
      'intent-1',
      'intent-1',
    ]);
  });

  it('refuses a call that needs live prices while they are not, sending nothing and saying why', async () => {
    notLive = 'You are offline';
    const refused = http.post('/v1/api/forex/submit', { forex_id: 1 }, { loading: true, needsLivePrices: true });
    await expect(refused).rejects.toMatchObject({ code: 'PRICES_NOT_LIVE', message: 'You are offline' });
    await expect(http.get('/v1/api/forex/trade_list')).resolves.toEqual({ value: 42 });
    expect(calls.map((call) => call.url.pathname)).toEqual(['/v1/api/forex/trade_list']);
    expect(toasts).toEqual(['You are offline']);
    expect(spinner).toEqual(['toast You are offline']);
  });

  it('tells a lost answer (the server may have acted) from an answer and from a call never sent', async () => {
    answer = () => Promise.reject(new TypeError('fetch failed'));
    const lost = await http.post('/v1/api/forex/submit', {}).catch((error: unknown) => error);
    answer = () => Promise.resolve(new Response('<html>bad gateway</html>', { status: 502 }));
    const proxy = await http.post('/v1/api/forex/submit', {}).catch((error: unknown) => error);
    answer = reply({ code: 1002, msg: 'Rejected', data: null });
    const refused = await http.post('/v1/api/forex/submit', {}).catch((error: unknown) => error);
    notLive = 'offline';
    const unsent = await http.post('/v1/api/forex/submit', {}, { needsLivePrices: true }).catch((error: unknown) => error);
    expect([lost, proxy, refused, unsent].map(outcomeUnknown)).toEqual([true, true, false, false]);
  });
});
