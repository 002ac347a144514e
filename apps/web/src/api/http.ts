import { ResponseCode } from '@pipwise/domain';
import type { Envelope } from './types';

/** A non-1 envelope or a failed request; `code` is the envelope code, or a network code such as ERR_NETWORK. */
export class ApiError extends Error {
  constructor(
    readonly code: number | string,
    message: string,
    readonly status = 200,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The request failed on the way: whether the server acted is unknown. */
export const NETWORK_ERROR = 'ERR_NETWORK';
/** The request was not sent: it needs the live prices the user sees, and they are not live. */
export const PRICES_NOT_LIVE = 'PRICES_NOT_LIVE';

/**
 * Whether the server may have acted on a request that failed: no answer, or one that is not our envelope
 * (a proxy's 502). An envelope error is the server's answer, and a request refused here was never sent.
 */
export function outcomeUnknown(error: unknown) {
  return error instanceof ApiError && (error.code === NETWORK_ERROR || String(error.code).startsWith('HTTP_'));
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  query?: Query;
  body?: Record<string, unknown> | FormData;
  /** Send the body as application/x-www-form-urlencoded (docs/api.md marks some calls as form). */
  form?: boolean;
  /**
   * No toast on failure (docs/api.md: the user info call), or not yet: an order call is resent after a lost
   * answer, and the user is told only how it ended (toastFailure).
   */
  silent?: boolean;
  /** A call made while the app starts: a 999 does not redirect to /login (docs/api.md). */
  initial?: boolean;
  /** Show the blocking spinner until the answer arrives (docs/api.md: no timeout). */
  loading?: boolean;
  signal?: AbortSignal;
  /**
   * Money-moving calls send one per intent of the user (intent.ts): every retry of that intent carries
   * the same key, so the server acts at most once.
   */
  idempotencyKey?: string;
  /** The session to act as, when not the one in use (switching first asks the kept session who it is). */
  token?: string;
  /** The call acts at the price on screen (an order, a close): refused, never queued, while prices are not live. */
  needsLivePrices?: boolean;
}

/** What the client needs from the app; injected so the client runs (and is tested) without the UI. */
export interface ApiEnvironment {
  baseUrl: () => string;
  token: () => string | null;
  language: () => string;
  onNotLoggedIn: () => void;
  toast: (message: string) => void;
  networkErrorMessage: (code: string) => string;
  /** Said when a money request is tapped while the browser is offline. */
  offlineMessage: () => string;
  /** Why the prices on screen are not live (offline, live feed down), or null while they are. */
  pricesNotLive: () => string | null;
  showLoading: () => () => void;
  fetch: typeof fetch;
}

let env: ApiEnvironment | null = null;

export function configureApi(environment: ApiEnvironment) {
  env = environment;
}

function environment(): ApiEnvironment {
  if (!env) throw new Error('configureApi() was not called');
  return env;
}

/**
 * A money request is not sent while the browser is offline: the user hears so at once, instead of after
 * resends that all fail, and nothing is queued to leave later without them. True when refused.
 */
export function refusedOffline(): boolean {
  if (typeof navigator === 'undefined' || navigator.onLine) return false;
  const api = environment();
  api.toast(api.offlineMessage());
  return true;
}

function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  return params.toString();
}

function encodeBody(body: RequestOptions['body'], form: boolean | undefined): { body?: BodyInit; type?: string } {
  if (body === undefined) return {};
  if (body instanceof FormData) return { body };
  if (form) return { body: queryString(body as Query), type: 'application/x-www-form-urlencoded' };
  return { body: JSON.stringify(body), type: 'application/json' };
}

/**
 * One request through the envelope (docs/api.md): `lang` and `authorization` on every call, `timestamp`
 * on GET and DELETE, payload in the query for GET/DELETE and in the body otherwise; `data` unwrapped.
 */
export async function request<T>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  options: RequestOptions = {},
) {
  const api = environment();
  const notLive = options.needsLivePrices ? api.pricesNotLive() : null;
  if (notLive) {
    if (!options.silent) api.toast(notLive);
    throw new ApiError(PRICES_NOT_LIVE, notLive, 0);
  }
  const readsOnly = method === 'GET' || method === 'DELETE';
  const query: Query = { ...(readsOnly ? options.query : {}), ...(readsOnly ? { timestamp: Date.now() } : {}) };
  const search = queryString(query);
  const url = `${api.baseUrl()}${path}${search ? `?${search}` : ''}`;
  const payload = readsOnly ? {} : encodeBody(options.body ?? options.query ?? {}, options.form);
  const headers: Record<string, string> = { lang: api.language(), authorization: options.token ?? api.token() ?? '' };
  if (payload.type) headers['content-type'] = payload.type;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;

  const stopLoading = options.loading ? api.showLoading() : null;
  let outcome: { data: T } | { error: ApiError; toast: string };
  try {
    outcome = await send<T>(api, url, { method, headers, body: payload.body ?? null, signal: options.signal ?? null }, path);
  } finally {
    // The spinner goes first: closing it later would also close the error toast.
    stopLoading?.();
  }
  if ('data' in outcome) return outcome.data;
  if (outcome.error.code === ResponseCode.notLoggedIn && !options.initial) api.onNotLoggedIn();
  if (!options.silent) api.toast(outcome.toast);
  throw outcome.error;
}

async function send<T>(api: ApiEnvironment, url: string, init: RequestInit, path: string) {
  let response: Response;
  try {
    response = await api.fetch(url, init);
  } catch (error) {
    // A cancelled request is nobody's error (docs/api.md).
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    console.error('request failed', path, error);
    const message = api.networkErrorMessage(NETWORK_ERROR);
    return { error: new ApiError(NETWORK_ERROR, message, 0), toast: message };
  }
  try {
    const envelope = (await response.json()) as Envelope<T>;
    if (envelope.code === ResponseCode.ok) return { data: envelope.data };
    return { error: new ApiError(envelope.code, envelope.msg, response.status), toast: envelope.msg };
  } catch {
    const code = `HTTP_${response.status}`;
    console.error('unreadable answer', path, response.status);
    const message = api.networkErrorMessage(code);
    return { error: new ApiError(code, message, response.status), toast: message };
  }
}

/** A link the server answered (a signed image URL) on the API's origin; an absolute one is kept. */
export function apiUrl(path: string) {
  return /^[a-z][a-z\d+.-]*:/i.test(path) ? path : `${environment().baseUrl()}${path}`;
}

/** A short message in the app's toast, whose code loads with the first one shown. */
export function notify(message: string) {
  environment().toast(message);
}

/** Tells the user why a call sent `silent` failed, once its caller knows it will not be sent again. */
export function toastFailure(error: unknown) {
  if (error instanceof ApiError) notify(error.message);
}

/** A fresh Idempotency-Key; crypto.randomUUID needs a secure context, getRandomValues does not. */
export function newIdempotencyKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

export const http = {
  get: <T>(path: string, query?: Query, options?: Omit<RequestOptions, 'query' | 'body'>) =>
    request<T>('GET', path, { ...options, ...(query ? { query } : {}) }),
  post: <T>(path: string, body?: RequestOptions['body'], options?: Omit<RequestOptions, 'query' | 'body'>) =>
    request<T>('POST', path, { ...options, ...(body ? { body } : {}) }),
  /** One file as multipart/form-data; the browser sets the boundary, so no content-type is set here. */
  upload: <T>(path: string, file: Blob, field = 'file', options?: Omit<RequestOptions, 'query' | 'body' | 'form'>) => {
    const body = new FormData();
    body.append(field, file);
    return request<T>('POST', path, { ...options, body });
  },
};
