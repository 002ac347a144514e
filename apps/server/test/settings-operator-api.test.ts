import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS, startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from './harness.js';

const operator = { 'x-operator-token': TEST_OPERATOR_TOKEN, 'x-operator-name': 'alice' };

/** The operator API of settings: only with the operator token, only known settings, only values their readers parse. */
describe.each(DB_KINDS)('settings through the operator API on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  it('refuses without the token, with a wrong one, and without an operator name', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { ...operator, 'x-operator-token': `${TEST_OPERATOR_TOKEN}x` },
      { 'x-operator-token': TEST_OPERATOR_TOKEN },
    ];
    for (const headers of attempts) {
      const answer = await server.call('POST', '/admin/api/settings', { body: { withdraw_requires_kyc: '0' }, headers });
      expect(answer.code).not.toBe(1);
      expect(answer.msg).toMatch(/operator/i);
    }
    expect(await server.ctx.settings.get('withdraw_requires_kyc')).toBe('1');
  });

  it('refuses an unknown key, a value its reader could not parse, control characters and a prototype key', async () => {
    const refusals = [
      { nonsense: '1' },
      JSON.parse('{"__proto__": {"withdraw_requires_kyc": "0"}}') as object,
      { payout_method_cooldown_hours: '-1' },
      { payout_method_cooldown_hours: 'abc' },
      { deposit_expiry_days: '0' },
      { withdraw_requires_kyc: 2 },
      { service_link: 'https://chat.example/\u0000' },
    ];
    for (const body of refusals) {
      const answer = await server.call('POST', '/admin/api/settings', {
        body: JSON.parse(JSON.stringify(body)),
        headers: operator,
      });
      expect(answer, JSON.stringify(body)).toMatchObject({ code: 1001 });
    }
    const { data } = await server.call<Record<string, string>>('GET', '/admin/api/settings', { headers: operator });
    expect(data).toMatchObject({ withdraw_requires_kyc: '1', payout_method_cooldown_hours: '24', deposit_expiry_days: '7' });
  });

  it('writes valid values, which every reader then sees', async () => {
    const answer = await server.call<Record<string, string>>('POST', '/admin/api/settings', {
      body: { payout_method_cooldown_hours: '0.5', withdraw_requires_kyc: '0' },
      headers: operator,
    });
    expect(answer).toMatchObject({ code: 1, data: { payout_method_cooldown_hours: '0.5', withdraw_requires_kyc: '0' } });
    expect(await server.ctx.settings.get('payout_method_cooldown_hours')).toBe('0.5');
  });
});
