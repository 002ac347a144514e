import { ApiPath, OPERATOR_ROLES, type OperatorRole } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorAccess } from '../src/http/operator.js';
import { createTrader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

const ALL = OPERATOR_ROLES;
const USERS_READERS = ['support', 'finance', 'compliance'] as const;

interface Expectation {
  /** The roles the route must declare (superadmin implied), or 'public'. */
  roles: readonly OperatorRole[] | 'public';
  /** Path values for this route's probe, over the defaults below. */
  params?: Record<string, string>;
  /** Who may call it with these path values, when the handler narrows the declared roles (a claim's queue). */
  allowed?: readonly OperatorRole[];
}

/**
 * Every back-office route and who may call it. A route missing here, or declaring other roles than
 * written here, fails the test: widening a route's roles takes a change to this table, in review.
 */
const EXPECTED: Record<string, Expectation> = {
  'POST /admin/api/login': { roles: 'public' },
  'GET /admin/api/captcha': { roles: 'public' },
  'POST /admin/api/enrolment/begin': { roles: 'public' },
  'POST /admin/api/enrolment/finish': { roles: 'public' },
  'GET /admin/api/changes': { roles: ['superadmin'] },
  'POST /admin/api/changes/:id/approve': { roles: ['superadmin'] },
  'POST /admin/api/changes/:id/reject': { roles: ['superadmin'] },
  'GET /admin/api/me': { roles: ALL },
  'POST /admin/api/logout': { roles: ALL },
  'POST /admin/api/me/password': { roles: ALL },
  'GET /admin/api/me/sessions': { roles: ALL },
  'DELETE /admin/api/me/sessions/:id': { roles: ALL },
  'GET /admin/api/operators': { roles: ['superadmin'] },
  'POST /admin/api/operators': { roles: ['superadmin'] },
  'POST /admin/api/operators/:id/disable': { roles: ['superadmin'] },
  'POST /admin/api/operators/:id/enable': { roles: ['superadmin'] },
  'POST /admin/api/operators/:id/reset': { roles: ['superadmin'] },
  'PUT /admin/api/operators/:id/role': { roles: ['superadmin'] },
  'GET /admin/api/audit': { roles: ['superadmin'] },
  'GET /admin/api/audit.csv': { roles: ['superadmin'] },
  'GET /admin/api/audit/verify': { roles: ['superadmin'] },
  'GET /admin/api/settings': { roles: ['content', 'finance'] },
  'POST /admin/api/settings': { roles: ['content'] },
  'PUT /admin/api/settings/:key': { roles: ['content'] },
  'GET /admin/api/instruments': { roles: ['content'] },
  'PUT /admin/api/instruments/:id': { roles: ['content'] },
  'GET /admin/api/categories': { roles: ['content'] },
  'POST /admin/api/categories': { roles: ['content'] },
  'PUT /admin/api/categories/:id': { roles: ['content'] },
  'GET /admin/api/news': { roles: ['content'] },
  'POST /admin/api/news': { roles: ['content'] },
  'PUT /admin/api/news/:id': { roles: ['content'] },
  'DELETE /admin/api/news/:id': { roles: ['content'] },
  'GET /admin/api/announcements': { roles: ['content'] },
  'POST /admin/api/announcements': { roles: ['content'] },
  'PUT /admin/api/announcements/:id': { roles: ['content'] },
  'DELETE /admin/api/announcements/:id': { roles: ['content'] },
  'GET /admin/api/companies': { roles: ['content'] },
  'POST /admin/api/companies': { roles: ['content'] },
  'PUT /admin/api/companies/:id': { roles: ['content'] },
  'GET /admin/api/uploads/:id': { roles: USERS_READERS, params: { id: 'AAAAAAAAAAAAAAAAAAAAAA' } },
  'GET /admin/api/kyc': { roles: ['compliance'] },
  'POST /admin/api/kyc/:userId/approve': { roles: ['compliance'] },
  'POST /admin/api/kyc/:userId/reject': { roles: ['compliance'] },
  'GET /admin/api/kyc/:userId/card_id': { roles: ['compliance'] },
  'GET /admin/api/deposits': { roles: ['finance'] },
  'POST /admin/api/deposits/:id/approve': { roles: ['finance'] },
  'POST /admin/api/deposits/:id/reject': { roles: ['finance'] },
  'POST /admin/api/deposits/:id/void': { roles: ['finance'] },
  'GET /admin/api/deposit-channels': { roles: ['finance'] },
  'POST /admin/api/deposit-channels': { roles: ['finance'] },
  'PUT /admin/api/deposit-channels/:id': { roles: ['finance'] },
  'GET /admin/api/withdrawals': { roles: ['finance'] },
  'POST /admin/api/withdrawals/:id/approve': { roles: ['finance'] },
  'POST /admin/api/withdrawals/:id/reject': { roles: ['finance'] },
  'POST /admin/api/withdrawals/:id/void': { roles: ['finance'] },
  'GET /admin/api/withdraw-currencies': { roles: ['finance'] },
  'POST /admin/api/withdraw-currencies': { roles: ['finance'] },
  'PUT /admin/api/withdraw-currencies/:id': { roles: ['finance'] },
  // The route admits both queue roles; each queue is its own role's (a deposit is finance's).
  'POST /admin/api/claims/:queue/:id': { roles: ['finance', 'compliance'], params: { queue: 'deposits' }, allowed: ['finance'] },
  'DELETE /admin/api/claims/:queue/:id': { roles: ['finance', 'compliance'], params: { queue: 'kyc' }, allowed: ['compliance'] },
  'GET /admin/api/adjustments': { roles: ['finance'] },
  'POST /admin/api/adjustments': { roles: ['finance'] },
  'POST /admin/api/adjustments/:id/approve': { roles: ['finance'] },
  'POST /admin/api/adjustments/:id/reject': { roles: ['finance'] },
  'GET /admin/api/feedback': { roles: ['support'] },
  'POST /admin/api/feedback/:id/handled': { roles: ['support'] },
  'GET /admin/api/outbox': { roles: ['support'] },
  'GET /admin/api/users': { roles: USERS_READERS },
  'GET /admin/api/users/:uid': { roles: USERS_READERS },
  'GET /admin/api/users/:uid/orders': { roles: USERS_READERS },
  'GET /admin/api/users/:uid/ledger': { roles: USERS_READERS },
  'GET /admin/api/users/:uid/deposits': { roles: USERS_READERS },
  'GET /admin/api/users/:uid/withdrawals': { roles: USERS_READERS },
  'GET /admin/api/users/:uid/sessions': { roles: USERS_READERS },
  'POST /admin/api/users/:uid/freeze': { roles: USERS_READERS },
  'POST /admin/api/users/:uid/revoke-sessions': { roles: ['support'] },
  'GET /admin/api/risk': { roles: ['finance', 'support'] },
};

/** Plausible values that name nothing: every allowed call ends in "not found" or "bad input", changing nothing. */
const DEFAULT_PARAMS: Record<string, string> = {
  id: '987654',
  userId: '987654',
  uid: '98765432',
  key: 'withdraw_four_eyes_above',
  queue: 'deposits',
};

const sorted = (access: OperatorAccess) => (access === 'public' ? 'public' : [...access].sort());

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

  it('knows every registered back-office route, and each declares the roles written here', () => {
    const registered = Object.fromEntries(
      server.app.operatorRoutes.map((route) => [`${route.method} ${route.url}`, route.access]),
    );
    expect(Object.keys(registered).sort()).toEqual(Object.keys(EXPECTED).sort());
    for (const [route, access] of Object.entries(registered)) {
      expect(sorted(access), route).toEqual(sorted(EXPECTED[route]!.roles));
    }
  });

  it.each(Object.entries(EXPECTED))(
    '%s: the allowed roles pass the guard, the others get 1003, users and strangers 999',
    async (route, expected) => {
      const [method, url] = route.split(' ') as [string, string];
      const path = pathOf(url, expected.params);
      const allowed = expected.roles === 'public' ? ALL : ['superadmin', ...(expected.allowed ?? expected.roles)];
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
        if (expected.roles === 'public') expect([999, 1003], who).not.toContain(answer.code);
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
