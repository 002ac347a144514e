import { sql } from 'drizzle-orm';
import type { DestinationStream } from 'pino';
import { expect } from 'vitest';
import type { Database } from '../src/db/client.js';
import { svgCaptchaGenerator, type CaptchaGenerator } from '../src/modules/accounts/captcha.js';
import type { EventBus } from '../src/realtime/bus.js';
import { startTestServer, type DbKind, type TestServer } from './harness.js';

/**
 * Shared steps of the accounts suites. Servers trust X-Forwarded-For so each test call can come from
 * its own address and the per-IP limits stay out of the way, except where a test aims at them.
 */
let ipCounter = 0;
export const freshIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/** The real svg-captcha generator, wrapped so the test can read the answer a person would see. */
export function recordingCaptcha(): { generator: CaptchaGenerator; answers: string[] } {
  const answers: string[] = [];
  return {
    answers,
    generator: () => {
      const captcha = svgCaptchaGenerator();
      answers.push(captcha.text);
      return captcha;
    },
  };
}

export interface AccountsServer extends TestServer {
  answers: string[];
  /** A call from a fresh IP unless `ip` is given. */
  send<T = unknown>(
    method: 'GET' | 'POST',
    path: string,
    options?: {
      body?: Record<string, unknown>;
      form?: Record<string, string>;
      token?: string | null;
      lang?: string;
      ip?: string;
    },
  ): Promise<{ status: number; code: number; msg: string; data: T }>;
}

export async function startAccountsServer(
  kind: DbKind,
  options: {
    env?: Record<string, string>;
    clock?: TestServer['clock'];
    logStream?: DestinationStream;
    /** One database and bus shared with other servers (several processes); the caller closes them. */
    database?: Database;
    bus?: EventBus;
  } = {},
): Promise<AccountsServer> {
  const captcha = recordingCaptcha();
  const server = await startTestServer(kind, {
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.database ? { database: options.database } : {}),
    ...(options.bus ? { bus: options.bus } : {}),
    ...(options.logStream ? { logStream: options.logStream } : {}),
    env: { TRUST_PROXY: '1', ...options.env },
    overrides: { accounts: { captchaGenerator: captcha.generator } },
  });
  return Object.assign(server, {
    answers: captcha.answers,
    send: <T>(method: 'GET' | 'POST', path: string, { ip, ...rest }: Parameters<AccountsServer['send']>[2] & object = {}) =>
      server.call<T>(method, path, { ...rest, headers: { 'x-forwarded-for': ip ?? freshIp() } }),
  });
}

/** Solves a fresh captcha the way a person would: reads the image's text. */
export async function solveCaptcha(server: AccountsServer): Promise<{ key: string; captcha: string }> {
  const response = await server.send<{ id: string; b64s: string }>('GET', '/api/captcha');
  expect(response.code).toBe(1);
  const answer = server.answers.at(-1);
  if (!answer) throw new Error('no captcha answer recorded');
  return { key: response.data.id, captcha: answer };
}

/** Rows of a raw SQL query, the way an operator would look (drizzle answers `{rows}` on both drivers). */
export async function query<T>(server: TestServer, text: string): Promise<T[]> {
  const result = await server.database.db.execute(sql.raw(text));
  return (result as { rows: T[] }).rows;
}

/** The code of the newest outbox message to `destination`. */
export async function outboxCode(server: TestServer, destination: string): Promise<string> {
  const [row] = await query<{ body: string }>(
    server,
    `select body from outbox_messages where destination = '${destination.replace(/'/g, "''")}' order by id desc limit 1`,
  );
  const code = row?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code in the outbox for ${destination}`);
  return code;
}

const TABLES = ['users', 'sessions', 'verification_codes', 'captchas', 'outbox_messages', 'wallets', 'ledger_entries'];

/**
 * What a failed request must leave unchanged: row counts of every accounts table, the live sessions,
 * the password hashes and the balances. (Spent captchas and spent code attempts are the intended trace
 * of a failed try; they change no count.)
 */
export async function snapshot(server: TestServer) {
  const counts: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = await query<{ n: string }>(server, `select count(*)::text as n from ${table}`);
    counts[table] = Number(row?.n);
  }
  const [state] = await query<{ live: string; hashes: string | null; balances: string | null }>(
    server,
    `select
      (select count(*)::text from sessions where revoked_at is null) as live,
      (select md5(string_agg(coalesce(password_hash, '-'), ',' order by id)) from users) as hashes,
      (select string_agg(balance::text, ',' order by user_id) from wallets) as balances`,
  );
  return { counts, ...state };
}

export const strongPassword = 'Secret123';

/** What sign-up asks besides the account: the country of residence and the risk disclosure version accepted. */
export const signUpAnswers = { country: 'DE', risk_disclosure_version: '1' } as const;

/** Registers an email account through the real flow (captcha → code from the outbox → register). */
export async function registerByEmail(
  server: AccountsServer,
  email: string,
  password = strongPassword,
  extra: Record<string, string> = {},
) {
  const sent = await server.send('POST', '/api/notify/send_email', {
    body: { to: email, type: 1, ...(await solveCaptcha(server)) },
  });
  expect(sent.code, sent.msg).toBe(1);
  const sms_code = await outboxCode(server, email.toLowerCase());
  const registered = await server.send<{ token: string; user: { id: number; uid: number; invite_code: string } }>(
    'POST',
    '/api/user/register',
    { form: { type: '1', account: email, password, re_password: password, sms_code, ...signUpAnswers, ...extra } },
  );
  expect(registered.code, registered.msg).toBe(1);
  return registered.data;
}
