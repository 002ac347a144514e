import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTrader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

/** The operator API of settings: only for a signed-in operator of the right role, only known settings, only values their readers parse. */
describe.each(DB_KINDS)('settings through the operator API on %s', (kind) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server.close());

  const operator = () => server.operatorHeaders('alice', 'content');

  it("refuses without a token, with a guessed one, with a user's, and to an operator of another role", async () => {
    const user = await createTrader(server.database.db);
    const signIn = { code: 999, msg: 'Please sign in to the back office.' };
    const attempts: [Record<string, string>, string | null, object][] = [
      [{}, null, signIn],
      [{ authorization: 'Bearer pwo_guessed' }, null, signIn],
      [{}, user.token, signIn],
      [await server.operatorHeaders('desk', 'support'), null, { code: 1003, msg: 'Your role may not do this.' }],
    ];
    for (const [headers, token, refusal] of attempts) {
      const answer = await server.call('POST', '/admin/api/settings', { body: { withdraw_requires_kyc: '0' }, headers, token });
      expect(answer).toMatchObject(refusal);
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
        headers: await operator(),
      });
      expect(answer, JSON.stringify(body)).toMatchObject({ code: 1001 });
    }
    const { data } = await server.call<Record<string, string>>('GET', '/admin/api/settings', { headers: await operator() });
    expect(data).toMatchObject({ withdraw_requires_kyc: '1', payout_method_cooldown_hours: '24', deposit_expiry_days: '7' });
  });

  it('writes valid values, which every reader then sees; money keys only through a superadmin', async () => {
    const body = { payout_method_cooldown_hours: '48', withdraw_requires_kyc: '1' };
    expect(await server.call('POST', '/admin/api/settings', { body, headers: await operator() })).toMatchObject({
      code: 1003,
      msg: 'Your role may not change the setting payout_method_cooldown_hours.',
    });
    expect(
      await server.call('POST', '/admin/api/settings', { body, headers: await server.operatorHeaders('fiona', 'finance') }),
    ).toMatchObject({
      code: 1003,
      msg: 'Your role may not do this.',
    });
    expect(await server.ctx.settings.get('payout_method_cooldown_hours')).toBe('24');
    // A change that only tightens the controls applies at once.
    const answer = await server.call<Record<string, string>>('POST', '/admin/api/settings', {
      body,
      headers: await server.operatorHeaders('root', 'superadmin'),
    });
    expect(answer).toMatchObject({ code: 1, data: { payout_method_cooldown_hours: '48', withdraw_requires_kyc: '1' } });
    expect(await server.ctx.settings.get('payout_method_cooldown_hours')).toBe('48');
  });

  it('holds a change that weakens a control, all keys of it, until a second superadmin approves; a rejection changes nothing', async () => {
    const root = await server.operatorHeaders('root', 'superadmin');
    const other = await server.operatorHeaders('other-root', 'superadmin');
    const cases: [Record<string, string>, string][] = [
      [{ withdraw_four_eyes_above: '20000', is_show_mobile: '0' }, 'withdraw_four_eyes_above'],
      [{ withdraw_requires_kyc: '0' }, 'withdraw_requires_kyc'],
      [{ payout_method_cooldown_hours: '1' }, 'payout_method_cooldown_hours'],
      [{ stop_out_level: '10' }, 'stop_out_level'],
      [{ demo_start_balance: '1000000' }, 'demo_start_balance'],
    ];
    for (const [body, key] of cases) {
      const before = await server.ctx.settings.values();
      const held = await server.call<{ pending_change: { id: number; payload: { weakened: string[] } } }>(
        'POST',
        '/admin/api/settings',
        {
          body,
          headers: root,
        },
      );
      expect(held, key).toMatchObject({
        code: 1,
        msg: 'This change weakens a control: it takes effect once a second superadmin approves it.',
      });
      expect(held.data.pending_change.payload.weakened).toEqual([key]);
      expect(await server.ctx.settings.values()).toEqual(before);
      const listed = await server.call<{ id: number }[]>('GET', '/admin/api/changes', { headers: other });
      expect(listed.data.map((change) => change.id)).toContain(held.data.pending_change.id);
      const approved = await server.call('POST', `/admin/api/changes/${held.data.pending_change.id}/approve`, { headers: other });
      expect(approved.code, key).toBe(1);
      for (const [name, value] of Object.entries(body))
        expect(await server.ctx.settings.get(name as 'stop_out_level')).toBe(value);
      const again = await server.call('POST', `/admin/api/changes/${held.data.pending_change.id}/approve`, { headers: other });
      expect(again).toMatchObject({ code: 1009, msg: 'This change has already been approved or rejected.' });
    }
    const held = await server.call<{ pending_change: { id: number } }>('PUT', '/admin/api/settings/withdraw_four_eyes_above', {
      body: { value: '99999' },
      headers: root,
    });
    const turnedDown = await server.call('POST', `/admin/api/changes/${held.data.pending_change.id}/reject`, { headers: root });
    expect(turnedDown.code).toBe(1);
    expect(await server.ctx.settings.get('withdraw_four_eyes_above')).toBe('20000');
  });
});
