import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from './harness.js';
import {
  outboxCode,
  signUpAnswers,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';

describe.each(DB_KINDS)('policy notice (restricted countries) on %s', (kind) => {
  let server: AccountsServer;
  let areaOf: (code: string) => number;

  beforeAll(async () => {
    server = await startAccountsServer(kind);
    // Phone registration open (verify_reg_type 2: phone only).
    await server.ctx.settings.set({ verify_reg_type: '2' });
    const areas = await server.send<{ id: number; code: string }[]>('GET', '/api/default/area_list');
    areaOf = (code) => areas.data.find((area) => area.code === code)!.id;
  });
  afterAll(() => server.close());

  const sendSms = async (to: string, area: string, lang = 'en') =>
    server.send('POST', '/api/notify/send_sms', {
      body: { to, area_id: areaOf(area), type: 1, ...(await solveCaptcha(server)) },
      lang,
    });
  const register = (mobile: string, area: string, sms_code: string, lang = 'en') =>
    server.send<{ token: string }>('POST', '/api/user/register', {
      form: {
        type: '2',
        area_id: String(areaOf(area)),
        mobile,
        password: strongPassword,
        re_password: strongPassword,
        sms_code,
        ...signUpAnswers,
      },
      lang,
    });

  it('refuses a code and registration for a number of a restricted country, naming the countries, changing nothing', async () => {
    // The captcha the code request shows is the one trace a refused request leaves.
    const unchanged = async () => {
      const { counts, ...rest } = await snapshot(server);
      return { ...rest, counts: { ...counts, captchas: 0 } };
    };
    const before = await unchanged();
    const sent = await sendSms('13800138000', 'CN');
    expect(sent).toMatchObject({ code: 1002 });
    expect(sent.msg).toBe('Our service is not provided to North Korea, Israel, China, Vanuatu, and Cuba');
    const registered = await register('13800138000', 'CN', '123456');
    expect(registered).toMatchObject({ code: 1002, msg: sent.msg });
    expect((await register('502345678', 'IL', '123456')).code).toBe(1002);
    expect(await unchanged()).toEqual(before);
  });

  it('says so in the request’s language', async () => {
    const chinese = (await register('13800138000', 'CN', '123456', 'hk')).msg;
    expect(chinese).toMatch(/^本服務不向以下國家或地區提供：北韓、以色列、中國、.+古巴$/);
    expect((await register('13800138000', 'CN', '123456', 'de')).msg).toBe(
      'Unser Dienst wird in folgenden Ländern nicht angeboten: Nordkorea, Israel, China, Vanuatu und Kuba',
    );
  });

  it('follows the setting: a country taken off the list registers, one put on it is refused', async () => {
    const answer = await server.call('POST', '/admin/api/settings', {
      body: { restricted_countries: 'KP,IL,VU,CU,HK' },
      headers: await server.operatorHeaders('desk', 'content'),
    });
    expect(answer.code, answer.msg).toBe(1);
    expect((await sendSms('13800138001', 'CN')).code).toBe(1);
    const registered = await register('13800138001', 'CN', await outboxCode(server, '+8613800138001'));
    expect(registered.code, registered.msg).toBe(1);
    const hongKong = await sendSms('91234567', 'HK');
    expect(hongKong.code).toBe(1002);
    expect(hongKong.msg).toBe('Our service is not provided to North Korea, Israel, Vanuatu, Cuba, and Hong Kong SAR China');
    await server.call('POST', '/admin/api/settings', {
      body: { restricted_countries: 'KP,IL,CN,VU,CU' },
      headers: await server.operatorHeaders('desk', 'content'),
    });
  });

  it('leaves e-mail registration and other countries alone', async () => {
    await server.ctx.settings.set({ verify_reg_type: '3', is_show_mobile: '1' });
    expect((await sendSms('91234568', 'HK')).code).toBe(1);
    const mail = await server.send('POST', '/api/notify/send_email', {
      body: { to: 'someone@example.com', type: 1, ...(await solveCaptcha(server)) },
    });
    expect(mail.code, mail.msg).toBe(1);
  });
});
