import { readFile } from 'node:fs/promises';
import { ApiPath, OPERATOR_ROLES, OPERATOR_ROUTE_ROLES, operatorRouteKey, type OperatorRole } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const ALL = OPERATOR_ROLES;

/** Probe details of a route beyond its roles, which are the domain's table (OPERATOR_ROUTE_ROLES). */
interface Probe {
  /** Path values for this route's probe, over the defaults below. */
  params?: Record<string, string>;
  /** Who may call it with these path values, when the handler narrows the table's roles (a claim's queue). */
  allowed?: readonly OperatorRole[];
}

const PROBES = new Map<string, Probe>([
  ['GET /admin/api/uploads/:id', { params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } }],
  // The route admits both queue roles; each queue is its own role's (a deposit is finance's).
  ['POST /admin/api/claims/:queue/:id', { params: { queue: 'deposits' }, allowed: ['finance'] }],
  ['DELETE /admin/api/claims/:queue/:id', { params: { queue: 'kyc' }, allowed: ['compliance'] }],
]);

/** Plausible values that name nothing: every allowed call ends in "not found" or "bad input", changing nothing. */
const DEFAULT_PARAMS: Record<string, string> = {
  id: '987654',
  userId: '987654',
  uid: '98765432',
  key: 'withdraw_four_eyes_above',
  queue: 'deposits',
};

describe.each(DB_KINDS)('back-office role matrix on %s', (kind) => {
  let server: TestServer;
  let userToken: string;
  const operatorIds = new Map<OperatorRole, number>();

  beforeAll(async () => {
    // Each probe comes from an address of its own: together they are more calls than one address may make in a minute.
    server = await startTestServer(kind, { env: { TRUST_PROXY: '1' } });
    for (const role of ALL) {
      await server.ctx.operators.create({ email: `matrix-${role}@ops.test`, role, createdBy: 'test' });
      operatorIds.set(role, (await server.ctx.operators.find(`matrix-${role}@ops.test`))!.id);
    }
    userToken = (await createTrader(server.database.db)).token;
  });
  afterAll(() => server.close());

  /** A session of its own for every call: a logout or password change probed before cannot end the next one's. */
  const tokenOf = (role: OperatorRole) =>
    server.ctx.operators.openSession(operatorIds.get(role)!, { ip: '127.0.0.1', userAgent: 'role-matrix' });

  let probes = 0;
  /** The envelope's code, or 'bytes' for an answer that is not JSON (a CSV, an image). */
  async function probe(method: string, url: string, token: string | null) {
    probes += 1;
    const headers: Record<string, string> = { lang: 'en', 'x-forwarded-for': `10.77.${probes >> 8}.${probes & 255}` };
    if (token) headers.authorization = token;
    const init: RequestInit = { method, headers };
    if (method === 'POST' || method === 'PUT') {
      headers['content-type'] = 'application/json';
      init.body = '{}';
    }
    const response = await fetch(server.baseUrl + url, init);
    const type = response.headers.get('content-type') ?? '';
    const code = type.includes('json') ? ((await response.json()) as { code: number }).code : 'bytes';
    return { status: response.status, code };
  }

  const pathOf = (url: string, params: Record<string, string> = {}) =>
    url.replace(/:(\w+)/g, (_, name: string) => {
      const value = params[name] ?? DEFAULT_PARAMS[name];
      if (value === undefined) throw new Error(`no plausible value for :${name} in ${url}; add one to DEFAULT_PARAMS`);
      return value;
    });

  it('knows every registered back-office route, and the roles table names no route the server lacks', () => {
    const registered = server.app.operatorRoutes.map((route) => operatorRouteKey(route.method, route.url));
    expect(registered.sort()).toEqual([...OPERATOR_ROUTE_ROLES.keys()].sort());
  });

  it.each([...OPERATOR_ROUTE_ROLES])(
    '%s: the allowed roles pass the guard, the others get 1003, users and strangers 999',
    async (route, roles) => {
      const [method, url] = route.split(' ') as [string, string];
      const details = PROBES.get(route) ?? {};
      const path = pathOf(url, details.params);
      const allowed = roles === 'public' ? ALL : ['superadmin', ...(details.allowed ?? roles)];
      for (const role of ALL) {
        const answer = await probe(method, path, await tokenOf(role));
        if (allowed.includes(role)) {
          expect([999, 1003], `${role} ${answer.code}`).not.toContain(answer.code);
          expect(answer.status, `${role} ${answer.code}`).toBeLessThan(500);
        } else {
          expect(answer.code, role).toBe(1003);
        }
      }
      for (const [who, token] of [
        ['a user', userToken],
        ['no token', null],
        ['a made-up operator token', 'pwo_madeUpTokenThatNamesNoSession0000000000000'],
      ] as const) {
        const answer = await probe(method, path, token);
        if (roles === 'public') expect([999, 1003], who).not.toContain(answer.code);
        else expect(answer.code, who).toBe(999);
      }
    },
  );

  it('refuses operator tokens on the users’ API', async () => {
    const token = await tokenOf('superadmin');
    for (const [method, path] of [
      ['GET', ApiPath.userInfo],
      ['GET', ApiPath.inviteInfo],
      ['GET', ApiPath.getBalance],
      ['GET', ApiPath.forexDetail],
      ['GET', ApiPath.ledger],
      ['POST', ApiPath.myDeal],
      ['POST', ApiPath.submitOrder],
      ['POST', ApiPath.logout],
    ] as const) {
      expect((await probe(method, path, token)).code, path).toBe(999);
      // The same call with a user's token is let in: the refusal is about the token's kind.
      expect((await probe(method, path, userToken)).code, path).not.toBe(999);
    }
  });
});

/** docs/admin-api.md's roles table as the domain's table reads: one row per route, in the table's order. */
function rolesTable(): string[] {
  const rows = [...OPERATOR_ROUTE_ROLES].map(([route, roles]) => {
    const [method, url] = route.split(' ') as [string, string];
    const who = roles === 'public' ? 'public' : roles.length === ALL.length ? 'all' : roles.join(', ');
    return `| ${method} ${url.slice('/admin/api'.length)} | ${who} |`;
  });
  return ['| route | roles |', '|---|---|', ...rows];
}

describe('docs/admin-api.md', () => {
  it('shows who may call each route exactly as the roles table the server enforces', async () => {
    const lines = (await readFile(new URL('../../../docs/admin-api.md', import.meta.url), 'utf8')).split('\n');
    const start = lines.indexOf('| route | roles |');
    const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
    expect(lines.slice(start, end === -1 ? undefined : end), 'rewrite the table from OPERATOR_ROUTE_ROLES').toEqual(rolesTable());
  });
});
