import { ApiPath, MONEY_SETTING_KEYS, type BasicInfoView } from '@pipwise/domain';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, settings } from '../src/db/schema.js';
import { DEFAULT_SETTINGS } from '../src/db/seed.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

/**
 * Settings through the back office: content and finance read them all; a money or risk key is changed
 * only by a superadmin (one that weakens a control only with a second one's approval), any other key by
 * content too; every change has its audit row.
 */
describe.each(DB_KINDS)('settings in the back office on %s', (kind) => {
  let server: TestServer;
  let content: Record<string, string>;
  let finance: Record<string, string>;
  let root: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    content = await server.operatorHeaders('carla', 'content');
    finance = await server.operatorHeaders('fred', 'finance');
    root = await server.operatorHeaders('root', 'superadmin');
  });
  afterAll(() => server.close());

  const put = (key: string, value: unknown, headers: Record<string, string>, lang = 'en') =>
    server.call<Record<string, string>>('PUT', `/admin/api/settings/${key}`, { body: { value }, headers, lang });
  const storedRows = () => server.database.db.select().from(settings).orderBy(settings.key);
  const audits = () =>
    server.database.db.select().from(auditLog).where(eq(auditLog.action, 'setting.update')).orderBy(desc(auditLog.id));

  it('lists every key with its value to content and finance, to no one else', async () => {
    for (const headers of [content, finance]) {
      const answer = await server.call<Record<string, string>>('GET', '/admin/api/settings', { headers });
      expect(answer.code).toBe(1);
      expect(Object.keys(answer.data).sort()).toEqual(Object.keys(DEFAULT_SETTINGS).sort());
      expect(answer.data).toMatchObject({ stop_out_level: '50', service_link_type: '1' });
    }
    const support = await server.operatorHeaders('sam', 'support');
    expect(await server.call('GET', '/admin/api/settings', { headers: support })).toMatchObject({ code: 1003 });
    expect(await put('service_link', 'https://chat.example', support)).toMatchObject({ code: 1003 });
  });

  it('lets content change only its keys, finance none, a superadmin both', async () => {
    const before = await storedRows();
    const auditCount = (await audits()).length;
    expect(await put('stop_out_level', '30', content)).toMatchObject({
      code: 1003,
      msg: 'Your role may not change the setting stop_out_level.',
    });
    expect(await put('withdraw_four_eyes_above', '5000', content, 'hk')).toMatchObject({
      code: 1003,
      msg: '你的角色無權更改設定 withdraw_four_eyes_above。',
    });
    expect(await put('service_link', 'https://chat.example', finance)).toMatchObject({
      code: 1003,
      msg: 'Your role may not do this.',
    });
    expect(await put('withdraw_four_eyes_above', '5000', finance)).toMatchObject({
      code: 1003,
      msg: 'Your role may not do this.',
    });
    expect(await storedRows()).toEqual(before);
    expect((await audits()).length).toBe(auditCount);

    for (const key of MONEY_SETTING_KEYS) expect(Object.hasOwn(DEFAULT_SETTINGS, key), key).toBe(true);
    // The stop-out level either way weakens a control: it waits for a second superadmin.
    const held = await put('stop_out_level', 30, root);
    expect(held).toMatchObject({
      code: 1,
      data: { pending_change: { kind: 'settings', payload: { changes: { stop_out_level: '30' } } } },
    });
    expect(await server.ctx.settings.get('stop_out_level')).toBe('50');
    const id = (held.data as unknown as { pending_change: { id: number } }).pending_change.id;
    const second = await server.operatorHeaders('second-root', 'superadmin');
    expect(await server.call('POST', `/admin/api/changes/${id}/approve`, { headers: second })).toMatchObject({ code: 1 });
    expect(await server.ctx.settings.get('stop_out_level')).toBe('30');
    const [approved] = await audits();
    expect(approved).toMatchObject({
      actor: 'operator:second-root@ops.test',
      targetId: 'stop_out_level',
      before: { value: '50' },
      after: { value: '30', maker: 'root@ops.test' },
    });
    expect(await put('service_link_type', '3', content)).toMatchObject({ code: 1, data: { service_link_type: '3' } });
    expect(await put('trade_fee_type', '1', root)).toMatchObject({ code: 1 });
    expect(await put('restricted_countries', 'KP,CU', root)).toMatchObject({ code: 1 });
  });

  it('refuses unknown keys and values their readers could not parse, changing nothing', async () => {
    const before = await storedRows();
    const auditCount = (await audits()).length;
    const cases: [string, Record<string, unknown>, Record<string, string>, string][] = [
      ['nonsense', { value: '1' }, content, 'There is no setting named nonsense'],
      ['__proto__', { value: '1' }, content, 'There is no setting named __proto__'],
      ['deposit_expiry_days', { value: '0' }, root, 'This value is not valid'],
      ['stop_out_level', { value: '-5' }, root, 'This value is not valid'],
      ['withdraw_requires_kyc', { value: 2 }, root, 'This value is not valid'],
      ['withdraw_requires_kyc', { value: true }, root, 'This value is not valid'],
      ['service_link', { value: 'https://chat.example/\u0000' }, content, 'This value is not valid'],
      ['restricted_countries', { value: 'kp' }, content, 'This value is not valid'],
      ['verify_reg_type', {}, content, 'A required value is missing'],
    ];
    for (const [key, body, headers, msg] of cases) {
      const answer = await server.call('PUT', `/admin/api/settings/${encodeURIComponent(key)}`, { body, headers });
      expect({ key, code: answer.code, msg: answer.msg }).toEqual({ key, code: 1001, msg });
    }
    expect(await storedRows()).toEqual(before);
    expect((await audits()).length).toBe(auditCount);
  });

  it('records each change with its old and new value, and the app sees it at once', async () => {
    expect(await put('service_link', 'https://help.example.com', content)).toMatchObject({ code: 1 });
    const [row] = await audits();
    expect(row).toMatchObject({
      actor: 'operator:carla@ops.test',
      action: 'setting.update',
      targetType: 'setting',
      targetId: 'service_link',
      before: { value: '' },
      after: { value: 'https://help.example.com' },
    });
    expect((await server.call<BasicInfoView>('GET', ApiPath.basicInfo)).data.service_link).toBe('https://help.example.com');
    expect(await server.ctx.settings.get('stop_out_level')).toBe('30');
  });
});
