import { ResponseCode } from '@pipwise/domain';

/** Paged lists of the operator API. */
export type { OperatorPageView as Page } from '@pipwise/domain';
import { i18n } from './i18n';

/** A refused call: the envelope's code and its message, already in the operator's language. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const TOKEN_KEY = 'pipwise.operator-token';

/** Per tab and gone with it: an operator session should not outlive the browser window. */
export const operatorToken = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

/** Called when the server says the session is over (expired, revoked, operator disabled). */
let onSignedOut: () => void = () => undefined;
export const setSignedOutHandler = (handler: () => void) => {
  onSignedOut = handler;
};

type Query = Record<string, string | number | boolean | undefined | null>;

const withQuery = (path: string, query?: Query) => {
  const entries = Object.entries(query ?? {}).filter(([, value]) => value !== undefined && value !== null && value !== '');
  return entries.length ? `${path}?${new URLSearchParams(entries.map(([k, v]) => [k, String(v)]))}` : path;
};

/** One call of the operator API (`/admin/api/...`): the envelope's data, or an ApiError. */
export async function adminApi<T>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: { body?: unknown; query?: Query; headers?: Record<string, string> } = {},
): Promise<T> {
  const headers: Record<string, string> = { lang: i18n.language, ...options.headers };
  const token = operatorToken.get();
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(`/admin/api${withQuery(path, options.query)}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch {
    throw new ApiError(0, i18n.t('common:offline'));
  }
  const envelope = (await response.json().catch(() => null)) as { code: number; msg: string; data: T } | null;
  if (!envelope) throw new ApiError(response.status, i18n.t('common:server_error'));
  if (envelope.code === ResponseCode.notLoggedIn) {
    operatorToken.clear();
    onSignedOut();
  }
  if (envelope.code !== ResponseCode.ok) throw new ApiError(envelope.code, envelope.msg);
  return envelope.data;
}

/** The raw response of an authenticated GET (CSV exports, images). */
export async function adminFetch(path: string, query?: Query): Promise<Response> {
  const token = operatorToken.get();
  return fetch(`/admin/api${withQuery(path, query)}`, {
    headers: { lang: i18n.language, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });
}
