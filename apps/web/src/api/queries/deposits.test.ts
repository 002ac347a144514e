import { ApiPath, CashierType, type DepositView } from '@pipwise/domain';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { configureApi, http } from '../http';
import { nextDepositPage, submitDepositOptions, type DepositPage, type KeyedDeposit } from './deposits';

interface Sent {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

const COIN: KeyedDeposit = {
  deposit: {
    kind: CashierType.coin,
    request: { number: '120.50', proofImg: 'AbCdEfGhIjKlMnOpQrStUv', address: undefined, charge_id: 3 },
  },
  key: 'intent-1',
};
const WIRE: KeyedDeposit = {
  deposit: { kind: CashierType.bank, request: { number: '900', proofImg: 'AbCdEfGhIjKlMnOpQrStUv', wire_id: 2 } },
  key: 'intent-2',
};
const answer = (data: unknown, code = 1, msg = 'ok') => new Response(JSON.stringify({ code, msg, data }));

describe('deposit calls', () => {
  let sent: Sent[];
  let answers: (() => Promise<Response>)[];
  let toasts: string[];

  beforeEach(() => {
    sent = [];
    answers = [];
    toasts = [];
    configureApi({
      baseUrl: () => 'http://app.test',
      token: () => 'token-1',
      language: () => 'de',
      onNotLoggedIn: () => undefined,
      toast: (message) => toasts.push(message),
      networkErrorMessage: (code) => `network ${code}`,
      offlineMessage: () => 'offline',
      pricesNotLive: () => 'not live',
      showLoading: () => () => undefined,
      fetch: (input, init) => {
        sent.push({ url: input as string, headers: init?.headers as Record<string, string>, body: init?.body });
        return (answers.shift() ?? (() => Promise.resolve(answer({ id: 7 }))))();
      },
    });
  });

  it('sends a coin deposit to submit and a wire deposit to wire_submit, each with its intent key', async () => {
    const client = new QueryClient();
    await new MutationObserver(client, submitDepositOptions()).mutate(COIN);
    await new MutationObserver(client, submitDepositOptions()).mutate(WIRE);
    expect(sent.map((request) => request.url)).toEqual([
      `http://app.test${ApiPath.chargeSubmit}`,
      `http://app.test${ApiPath.wireSubmit}`,
    ]);
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual(['intent-1', 'intent-2']);
    expect(JSON.parse(String(sent[0]?.body))).toEqual(COIN.deposit.request);
  });

  it('is sent again with the same key when the answer was lost, and not when the server refused it', async () => {
    const client = new QueryClient();
    answers.push(() => Promise.reject(new TypeError('connection reset')));
    await expect(new MutationObserver(client, submitDepositOptions()).mutate(COIN)).resolves.toEqual({ id: 7 });
    expect(sent.map((request) => request.headers['idempotency-key'])).toEqual(['intent-1', 'intent-1']);

    sent = [];
    answers.push(() => Promise.resolve(answer(null, 400, 'Below the minimum')));
    await expect(new MutationObserver(client, submitDepositOptions()).mutate(COIN)).rejects.toMatchObject({
      message: 'Below the minimum',
    });
    expect(sent).toHaveLength(1);
    expect(toasts).toEqual(['Below the minimum']);
  });

  it('is never refused for prices that are not live: a deposit does not trade', async () => {
    await new MutationObserver(new QueryClient(), submitDepositOptions()).mutate(WIRE);
    expect(sent).toHaveLength(1);
  });

  it('uploads one file as multipart with the language and the token, leaving the boundary to the browser', async () => {
    const file = new Blob(['png bytes'], { type: 'image/png' });
    answers.push(() => Promise.resolve(answer({ id: 'AbCdEfGhIjKlMnOpQrStUv', url: '/api/common/upload/x?sig=1' })));
    await expect(http.upload(ApiPath.imageUpload, file)).resolves.toMatchObject({ id: 'AbCdEfGhIjKlMnOpQrStUv' });
    const [request] = sent;
    expect(request?.url).toBe(`http://app.test${ApiPath.imageUpload}`);
    expect(request?.headers).toMatchObject({ lang: 'de', authorization: 'token-1' });
    expect(request?.headers['content-type']).toBeUndefined();
    expect(request?.body).toBeInstanceOf(FormData);
    expect((request?.body as FormData).get('file')).toBeInstanceOf(Blob);
  });
});

describe('deposit record pages', () => {
  const page = (number: number, rows: number, total: number): DepositPage => ({
    data: Array.from({ length: rows }, (_, index) => ({ id: number * 100 + index }) as DepositView),
    total,
    page: number,
    page_size: 20,
  });

  it('asks for the next page until every record is loaded', () => {
    const first = page(1, 20, 45);
    const second = page(2, 20, 45);
    const third = page(3, 5, 45);
    expect(nextDepositPage(first, [first])).toBe(2);
    expect(nextDepositPage(second, [first, second])).toBe(3);
    expect(nextDepositPage(third, [first, second, third])).toBeUndefined();
  });

  it('stops at an empty page even if the total grew meanwhile', () => {
    const first = page(1, 20, 21);
    const empty = page(2, 0, 25);
    expect(nextDepositPage(empty, [first, empty])).toBeUndefined();
  });
});
