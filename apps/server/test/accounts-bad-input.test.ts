import { CODE_MAX_ATTEMPTS, CODE_TTL_SECONDS } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  outboxCode,
  query,
  registerByEmail,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS, ManualClock } from './harness.js';

type Response = Awaited<ReturnType<AccountsServer['send']>>;

/**
 * Every failure answers HTTP 200 with the envelope (code ≠ 1), a message in the request's language,
 * and leaves the database as it was.
 */
describe.each(DB_KINDS)('accounts bad input on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  let alice: { token: string; user: { id: number; uid: number } };
  let demoToken: string;
  let hongKongId: number;

  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock });
    await server.ctx.settings.set({ verify_reg_type: '3' });
    alice = await registerByEmail(server, 'alice@example.com');
    const demo = await server.send<{ token: string }>('GET', '/api/user/createAccountDemoForU');
    demoToken = demo.data.token;
    const areas = await server.send<{ id: number; code: string }[]>('GET', '/api/default/area_list');
    hongKongId = areas.data.find((a) => a.code === 'HK')!.id;
    clock.advance(61_000);
  });
  afterAll(() => server.close());

  async function expectRefused(request: () => Promise<Response>, expected: { msg: string; code?: number }) {
    const before = await snapshot(server);
    const response = await request();
    expect(response.status).toBe(200);
    expect(response.code).not.toBe(1);
    if (expected.code !== undefined) expect(response.code).toBe(expected.code);
    expect(response.msg).toBe(expected.msg);
    expect(response.data).toBeNull();
    expect(await snapshot(server)).toEqual(before);
  }

  const post = (path: string, body: Record<string, unknown>, options: { lang?: string; token?: string } = {}) =>
    server.send('POST', path, { body, ...options });

  describe('send_email / send_sms', () => {
    it.each([
      [{ type: 1 }, 'en', 'Please enter the email or phone number to send the code to'],
      [{ type: 1 }, 'jp', 'コードの送信先のメールアドレスまたは電話番号を入力してください'],
      [{ to: 12345, type: 1 }, 'en', 'Please enter the email or phone number to send the code to'],
      [{ to: 'x@example.com', type: 'abc' }, 'en', 'The verification code type is not valid'],
      [{ to: 'x@example.com', type: 3 }, 'kr', '인증 코드 유형이 올바르지 않습니다'],
      [{ to: 'x@example.com' }, 'en', 'The verification code type is not valid'],
      [{ to: `${'a'.repeat(250)}@example.com`, type: 1 }, 'en', 'The value is too long'],
      [{ to: 'not-an-email', type: 1 }, 'en', 'Please enter a valid email address'],
      [{ to: 'new@example.com', type: 1, key: 'k'.repeat(65), captcha: 'abcd' }, 'en', 'The value is too long'],
      [{ to: 'new@example.com', type: 1 }, 'ru', 'Введите символы с картинки'],
    ])('send_email %o (%s)', async (body, lang, msg) => {
      await expectRefused(() => post('/api/notify/send_email', body, { lang }), { msg });
    });

    it.each([
      [{ to: '91234567', type: 1 }, 'Please choose a valid country or region code'],
      [{ to: '91234567', type: 1, area_id: 999999 }, 'Please choose a valid country or region code'],
      [{ to: '91234567', type: 1, area_id: 'HK' }, 'Please choose a valid country or region code'],
      [{ to: '123', type: 1, area_id: 'hk' }, 'Please choose a valid country or region code'],
    ])('send_sms %o', async (body, msg) => {
      await expectRefused(() => post('/api/notify/send_sms', body), { msg });
    });

    it('send_sms refuses a number that is not valid for the area', async () => {
      await expectRefused(() => post('/api/notify/send_sms', { to: '123', type: 1, area_id: hongKongId }, { lang: 'th' }), {
        msg: 'กรุณากรอกหมายเลขโทรศัพท์ที่ถูกต้องสำหรับพื้นที่ที่เลือก',
      });
    });

    it('refuses a register code for a registered address', async () => {
      const captcha = await solveCaptcha(server);
      await expectRefused(() => post('/api/notify/send_email', { to: 'ALICE@example.com', type: 1, ...captcha }), {
        code: 1009,
        msg: 'This account is already registered',
      });
    });

    it('refuses a second send to the same destination within 60 s, naming the wait', async () => {
      const first = await post('/api/notify/send_email', { to: 'waiting@example.com', type: 1, ...(await solveCaptcha(server)) });
      expect(first.code).toBe(1);
      const captcha = await solveCaptcha(server);
      await expectRefused(() => post('/api/notify/send_email', { to: 'waiting@example.com', type: 1, ...captcha }), {
        msg: 'Please wait 60 seconds before requesting another code',
      });
      clock.advance(35_000);
      const again = await solveCaptcha(server);
      await expectRefused(
        () => post('/api/notify/send_email', { to: 'waiting@example.com', type: 1, ...again }, { lang: 'de' }),
        {
          msg: 'Bitte warten Sie 25 Sekunden, bevor Sie einen weiteren Code anfordern',
        },
      );
      clock.advance(26_000);
    });

    it('answers a reset request for an unknown address like a sent one, sending nothing', async () => {
      const captcha = await solveCaptcha(server);
      const before = await snapshot(server);
      const response = await post('/api/notify/send_email', { to: 'ghost@example.com', type: 2, ...captcha });
      expect(response).toMatchObject({ code: 1, msg: 'The verification code has been sent' });
      // A code is stored, as for an account, so the minute and daily rules answer alike (accounts-reset-codes).
      const after = await snapshot(server);
      expect(after).toEqual({
        ...before,
        counts: { ...before.counts, verification_codes: before.counts.verification_codes! + 1 },
      });
    });
  });

  describe('register', () => {
    const valid = {
      type: '1',
      account: 'bob@example.com',
      password: strongPassword,
      re_password: strongPassword,
      sms_code: '123456',
      ...signUpAnswers,
    };
    const register = (body: Record<string, unknown>, lang = 'en') => post('/api/user/register', body, { lang });

    it.each([
      [{ ...valid, sms_code: undefined }, 'en', 'Please enter the verification code'],
      [{ ...valid, sms_code: '12a456' }, 'en', 'The verification code is 6 digits'],
      [{ ...valid, sms_code: '1234567' }, 'en', 'The value is too long'],
      [{ ...valid, account: undefined }, 'en', 'Please enter your email or phone number'],
      [{ ...valid, account: 42 }, 'en', 'Account is not valid'],
      [{ ...valid, type: 'email' }, 'en', 'Please choose email or phone'],
      [{ ...valid, type: undefined }, 'vn', 'Vui lòng chọn email hoặc điện thoại'],
      [{ ...valid, account: `${'b'.repeat(260)}@example.com` }, 'en', 'The value is too long'],
      [{ ...valid, re_password: 'Secret124' }, 'en', 'The two passwords do not match'],
      [{ ...valid, re_password: 'Secret124' }, 'ar', 'كلمتا المرور غير متطابقتين'],
      [
        { ...valid, password: 'onlyletters', re_password: 'onlyletters' },
        'en',
        'The password must be 8–64 characters long with at least one letter and one digit',
      ],
      [
        { ...valid, password: 'Ab1', re_password: 'Ab1' },
        'en',
        'The password must be 8–64 characters long with at least one letter and one digit',
      ],
      [
        { ...valid, password: `A1${'x'.repeat(63)}`, re_password: `A1${'x'.repeat(63)}` },
        'en',
        'The password must be 8–64 characters long with at least one letter and one digit',
      ],
      [{ ...valid, password: undefined }, 'en', 'Please enter your password'],
      [{ ...valid, account: 'bob-at-example' }, 'en', 'Please enter a valid email address'],
      [{ ...valid, account: 'alice@example.com' }, 'en', 'This account is already registered'],
      [{ ...valid, account: 'Alice@Example.com' }, 'pt', 'Esta conta já está cadastrada'],
      [{ ...valid, invite_code: 'NOPE2345' }, 'en', 'The invite code does not exist'],
      [{ ...valid }, 'en', 'Please request a verification code first'],
      [{ ...valid, type: '2', account: '91234567' }, 'en', 'Please choose a valid country or region code'],
    ])('register %o (%s)', async (body, lang, msg) => {
      await expectRefused(() => register(body, lang), { msg });
    });

    it('refuses a wrong code, counting tries; after five the code is dead even when right', async () => {
      const sent = await post('/api/notify/send_email', { to: 'carol@example.com', type: 1, ...(await solveCaptcha(server)) });
      expect(sent.code).toBe(1);
      const code = await outboxCode(server, 'carol@example.com');
      const wrong = code === '000000' ? '111111' : '000000';
      const body = { ...valid, account: 'carol@example.com' };
      for (let attempt = 1; attempt <= CODE_MAX_ATTEMPTS; attempt++) {
        await expectRefused(() => register({ ...body, sms_code: wrong }, attempt === 1 ? 'hi' : 'en'), {
          msg: attempt === 1 ? 'सत्यापन कोड गलत है' : 'The verification code is incorrect',
        });
      }
      await expectRefused(() => register({ ...body, sms_code: code }), {
        msg: 'Too many wrong attempts; please request a new code',
      });
      const [row] = await query<{ attempts: number }>(
        server,
        `select attempts from verification_codes where destination = 'carol@example.com'`,
      );
      expect(row?.attempts).toBe(CODE_MAX_ATTEMPTS);
      clock.advance(61_000);
    });

    it('refuses an expired code', async () => {
      const sent = await post('/api/notify/send_email', { to: 'dave@example.com', type: 1, ...(await solveCaptcha(server)) });
      expect(sent.code).toBe(1);
      const code = await outboxCode(server, 'dave@example.com');
      clock.advance(CODE_TTL_SECONDS * 1000 + 1);
      await expectRefused(() => register({ ...valid, account: 'dave@example.com', sms_code: code }, 'id'), {
        msg: 'Kode verifikasi sudah kedaluwarsa; silakan minta yang baru',
      });
    });

    it('refuses a method the settings have closed', async () => {
      await server.ctx.settings.set({ verify_reg_type: '1' });
      try {
        await expectRefused(
          () => register({ ...valid, type: '2', area_id: hongKongId, mobile: '91234567', account: undefined }),
          { msg: 'Registration by this method is not available' },
        );
        const captcha = await solveCaptcha(server);
        await expectRefused(() => post('/api/notify/send_sms', { to: '91234567', area_id: hongKongId, type: 1, ...captcha }), {
          msg: 'Registration by this method is not available',
        });
      } finally {
        await server.ctx.settings.set({ verify_reg_type: '3' });
      }
    });

    it('refuses a repeated registration with a fresh code and keeps the first account', async () => {
      const first = await registerByEmail(server, 'erin@example.com');
      clock.advance(61_000);
      const captcha = await solveCaptcha(server);
      await expectRefused(() => post('/api/notify/send_email', { to: 'erin@example.com', type: 1, ...captcha }), {
        msg: 'This account is already registered',
      });
      const [row] = await query<{ n: number }>(server, `select count(*)::int as n from users where email = 'erin@example.com'`);
      expect(row?.n).toBe(1);
      expect(first.user.id).toBeGreaterThan(0);
    });
  });

  describe('login', () => {
    it.each([
      [{ password: strongPassword }, 'en', 'Please enter your email or phone number'],
      [{ account: '', password: strongPassword }, 'fr', 'Veuillez saisir votre e-mail ou votre numéro de téléphone'],
      [{ account: 12345, password: strongPassword }, 'en', 'Please enter your email or phone number'],
      [{ account: 'alice@example.com' }, 'en', 'Please enter your password'],
      [{ account: 'alice@example.com', password: 'x'.repeat(65) }, 'en', 'The value is too long'],
      [{ account: `${'a'.repeat(255)}@example.com`, password: strongPassword }, 'en', 'The value is too long'],
      [{ account: 'nobody@example.com', password: strongPassword }, 'en', 'Incorrect account or password'],
      [{ account: 'alice@example.com', password: 'Wrong1234' }, 'en', 'Incorrect account or password'],
      [{ account: 'alice@example.com', password: 'Wrong1234' }, 'hk', '帳戶或密碼錯誤'],
      [{ account: '+852 0000', password: strongPassword }, 'en', 'Incorrect account or password'],
    ])('login %o (%s)', async (body, lang, msg) => {
      await expectRefused(() => post('/api/user/loginForU', body, { lang }), { msg });
    });
  });

  describe('demo', () => {
    it.each([
      ['abc', 'The demo account does not exist'],
      ['99999999', 'The demo account does not exist'],
      ['1'.repeat(40), 'The value is too long'],
    ])('demo_id=%s', async (demoId, msg) => {
      await expectRefused(() => server.send('GET', `/api/user/createAccountDemoForU?demo_id=${demoId}`), { msg });
    });

    it('never logs into a real account by its uid', async () => {
      const secret = 'a'.repeat(43);
      await expectRefused(
        () =>
          server.send('GET', `/api/user/createAccountDemoForU?demo_id=${alice.user.uid}&demo_secret=${secret}`, { lang: 'tr' }),
        { code: 1004, msg: 'Demo hesabı mevcut değil' },
      );
    });
  });

  describe('info, logout', () => {
    it.each([
      ['GET', '/api/user/info', null],
      ['GET', '/api/user/info', 'not-a-real-token'],
      ['POST', '/api/user/logout', null],
      ['POST', '/api/user/logout', 'Bearer not-a-real-token'],
    ] as const)('%s %s with token %s', async (method, path, token) => {
      await expectRefused(() => server.send(method, path, { token }), { code: 999, msg: 'Please log in first' });
    });
  });

  describe('amend_password', () => {
    const amend = (body: Record<string, unknown>, token: string | undefined = alice.token, lang = 'en') =>
      post('/api/user/amend_password', body, { token, lang });

    it.each([
      [{ new_password: 'Newer1234', auth_code: '123456' }, 'Please request a verification code first'],
      [{ auth_code: '123456' }, 'Please complete the form'],
      [{ new_password: 'Newer1234' }, 'Please enter the verification code'],
      [
        { new_password: 'short1', auth_code: '123456' },
        'The password must be 8–64 characters long with at least one letter and one digit',
      ],
      [
        { new_password: 'Newer1234', auth_code: '123456', type: 2 },
        'Your account has no email address or phone number of this kind',
      ],
      [{ new_password: 'Newer1234', auth_code: '123456', type: 'sms' }, 'Please choose email or phone'],
    ])('amend %o', async (body, msg) => {
      await expectRefused(() => amend(body), { msg });
    });

    it('needs a login, and a real account', async () => {
      await expectRefused(() => post('/api/user/amend_password', { new_password: 'Newer1234', auth_code: '123456' }), {
        code: 999,
        msg: 'Please log in first',
      });
      await expectRefused(() => amend({ new_password: 'Newer1234', auth_code: '123456' }, demoToken), {
        code: 1003,
        msg: 'Please register or log in to a real account',
      });
      await expectRefused(() => amend({ new_password: 'Newer1234', auth_code: '123456' }, demoToken, 'kr'), {
        msg: '실제 계정으로 가입하거나 로그인하세요',
      });
    });

    it('refuses a wrong code and a register-purpose code', async () => {
      const sent = await post('/api/notify/send_email', { to: 'alice@example.com', type: 2, ...(await solveCaptcha(server)) });
      expect(sent.code).toBe(1);
      const code = await outboxCode(server, 'alice@example.com');
      await expectRefused(() => amend({ new_password: 'Newer1234', auth_code: code === '000000' ? '111111' : '000000' }), {
        msg: 'The verification code is incorrect',
      });
      clock.advance(61_000);
    });
  });

  describe('forget_password', () => {
    const valid = {
      type: 1,
      account: 'alice@example.com',
      new_password: 'Newer1234',
      secondary_password: 'Newer1234',
      auth_code: '123456',
    };

    it.each([
      [{ ...valid, account: 'nobody@example.com' }, 'en', 'Please request a verification code first'],
      [{ ...valid, secondary_password: 'Newer1235' }, 'en', 'The two passwords do not match'],
      [{ ...valid, secondary_password: undefined }, 'en', 'Please complete the form'],
      [{ ...valid, auth_code: undefined }, 'en', 'Please enter the verification code'],
      [{ ...valid, type: 9 }, 'en', 'Please choose email or phone'],
      [{ ...valid, account: 'alice' }, 'en', 'Please enter a valid email address'],
      [{ ...valid, type: 2, account: '91234567' }, 'en', 'Please choose a valid country or region code'],
      [{ ...valid, account: `${'a'.repeat(255)}@x.io` }, 'en', 'The value is too long'],
      [{ ...valid, account: 'nobody2@example.com' }, 'my', 'အတည်ပြုကုဒ်ကို အရင် တောင်းပါ'],
    ])('forget %o (%s)', async (body, lang, msg) => {
      await expectRefused(() => post('/api/user/forget_password', body, { lang }), { msg });
    });

    it('refuses a wrong code', async () => {
      const sent = await post('/api/notify/send_email', { to: 'alice@example.com', type: 2, ...(await solveCaptcha(server)) });
      expect(sent.code).toBe(1);
      const code = await outboxCode(server, 'alice@example.com');
      await expectRefused(
        () => post('/api/user/forget_password', { ...valid, auth_code: code === '999999' ? '888888' : '999999' }),
        {
          msg: 'The verification code is incorrect',
        },
      );
      clock.advance(61_000);
    });
  });

  describe('reference data', () => {
    it.each([
      ['/api/default/setting?key=secret_code_pepper', 'en', 'There is no public setting named secret_code_pepper'],
      ['/api/default/setting?key=demo_start_balance', 'spa', 'No existe ningún ajuste público llamado demo_start_balance'],
      ['/api/default/setting', 'en', 'Please name a setting'],
      [`/api/default/setting?key=${'k'.repeat(65)}`, 'en', 'The value is too long'],
    ])('GET %s (%s)', async (path, lang, msg) => {
      await expectRefused(() => server.send('GET', path, { lang }), { msg });
    });
  });
});
