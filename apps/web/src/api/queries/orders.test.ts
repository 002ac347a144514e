import { MutationObserver, onlineManager, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configureApi } from '../http';
import { submitOrderOptions, type KeyedOrder } from './orders';

const ORDER: KeyedOrder = { order: { type: 2, cont: '0.01', forex_id: 1, status: 1, multiple: 10 }, key: 'intent-1' };
const placed = () => new Response(JSON.stringify({ code: 1, msg: 'ok', data: { id: 7 } }));

describe('submitting an order', () => {
  let sent: Record<string, string>[];
  let answers: (() => Promise<Response>)[];
  let notLive: string | null;
  let toasts: string[];

  beforeEach(() => {
    sent = [];
    answers = [];
    notLive = null;
    toasts = [];
    configureApi({
      baseUrl: () => 'http://app.test',
      token: () => 'token',
      language: () => 'en',
      onNotLoggedIn: () => undefined,
      toast: (message) => toasts.push(message),
      networkErrorMessage: (code) => `network ${code}`,
      offlineMessage: () => 'offline',
      pricesNotLive: () => notLive,
      showLoading: () => () => undefined,
      fetch: (_input, init) => {
        sent.push(init?.headers as Record<string, string>);
        return (answers.shift() ?? (() => Promise.resolve(placed())))();
      },
    });
  });

  afterEach(() => onlineManager.setOnline(true));

  it('offline, fails at once with its message and is never sent, not even once back online', async () => {
    const client = new QueryClient();
    onlineManager.setOnline(false);
    notLive = 'You are offline';
    const observer = new MutationObserver(client, submitOrderOptions());
    const outcome = observer.mutate(ORDER).catch((error: unknown) => error);
    // react-query's default would park it here ("paused") and send it on reconnect.
    expect(client.getMutationCache().getAll()[0]?.state.isPaused).toBe(false);
    await expect(outcome).resolves.toMatchObject({ code: 'PRICES_NOT_LIVE', message: 'You are offline' });
    onlineManager.setOnline(true);
    notLive = null;
    await client.getMutationCache().resumePausedMutations();
    expect(sent).toEqual([]);
    expect(toasts).toEqual(['You are offline']);
  });

  it('sends again with the same Idempotency-Key when the answer was lost', async () => {
    const client = new QueryClient();
    answers.push(() => Promise.reject(new TypeError('connection reset')));
    const observer = new MutationObserver(client, submitOrderOptions());
    await expect(observer.mutate(ORDER)).resolves.toEqual({ id: 7 });
    expect(sent.map((headers) => headers['idempotency-key'])).toEqual(['intent-1', 'intent-1']);
  });

  it('shows no network error while the lost answer is resent, only the outcome', async () => {
    const client = new QueryClient();
    answers.push(() => Promise.reject(new TypeError('connection reset')));
    const observer = new MutationObserver(client, submitOrderOptions());
    await expect(observer.mutate(ORDER)).resolves.toEqual({ id: 7 });
    expect(toasts).toEqual([]);
  });

  it('tells the network error once, when no resend got an answer either', async () => {
    const client = new QueryClient();
    const lost = () => Promise.reject(new TypeError('connection reset'));
    answers.push(lost, lost, lost);
    const observer = new MutationObserver(client, submitOrderOptions());
    await expect(observer.mutate(ORDER)).rejects.toMatchObject({ code: 'ERR_NETWORK' });
    expect(sent).toHaveLength(3);
    expect(toasts).toEqual(['network ERR_NETWORK']);
  });

  it('does not send again once the server has answered', async () => {
    const client = new QueryClient();
    answers.push(() => Promise.resolve(new Response(JSON.stringify({ code: 1002, msg: 'Margin short', data: null }))));
    const observer = new MutationObserver(client, submitOrderOptions());
    await expect(observer.mutate(ORDER)).rejects.toMatchObject({ code: 1002 });
    expect(sent).toHaveLength(1);
    expect(toasts).toEqual(['Margin short']);
  });
});
