import { ApiPath } from '@pipwise/domain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  outboxCode,
  registerByEmail,
  solveCaptcha,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { expectLedgerInvariants } from './factories.js';
import { DB_KINDS, ManualClock } from './harness.js';

/**
 * An HTML form posts every field, the ones left blank as ''. Each route is called with its optional
 * fields sent empty, in JSON and form-urlencoded (queries always carry text), and must answer as if
 * they were left out.
 */
type Encoding = 'json' | 'form';
const ENCODINGS: Encoding[] = ['json', 'form'];

describe.each(DB_KINDS)('optional fields sent empty on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-04-06T09:00:00Z');
  let counter = 0;
  const freshEmail = () => `blank.${++counter}@example.com`;

  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock });
  });
  afterAll(() => server.close());
  afterEach(() => expectLedgerInvariants(server.database.db));

  const post = (encoding: Encoding, path: string, fields: Record<string, string | number>, token?: string) =>
    server.send('POST', path, {
      ...(encoding === 'json'
        ? { body: fields }
        : { form: Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, String(value)])) }),
      ...(token ? { token } : {}),
    });

  /** A code to `email` through send_email, its area_id sent empty. */
  const sendCode = async (encoding: Encoding, email: string, type: 1 | 2) => {
    clock.advance(61_000);
    const sent = await post(encoding, ApiPath.sendEmail, { to: email, type, area_id: '', ...(await solveCaptcha(server)) });
    expect(sent.code, sent.msg).toBe(1);
    return outboxCode(server, email);
  };

  it.each(ENCODINGS)('registers by e-mail with area_id, invite_code, key and mobile empty (%s)', async (encoding) => {
    const email = freshEmail();
    const sms_code = await sendCode(encoding, email, 1);
    const registered = await post(encoding, ApiPath.register, {
      type: 1,
      account: email,
      password: strongPassword,
      re_password: strongPassword,
      sms_code,
      ...signUpAnswers,
      area_id: '',
      invite_code: '',
      key: '',
      mobile: '',
    });
    expect(registered.msg).toBe('Registration successful');
    expect(registered.code).toBe(1);
  });

  it.each(ENCODINGS)('logs in with login_type, key and captcha empty (%s)', async (encoding) => {
    const email = freshEmail();
    await registerByEmail(server, email);
    const login = await post(encoding, ApiPath.login, {
      account: email,
      password: strongPassword,
      login_type: '',
      key: '',
      captcha: '',
    });
    expect(login.code, login.msg).toBe(1);
  });

  it('ignores login_type sent as a JSON number, as the docs say', async () => {
    const email = freshEmail();
    await registerByEmail(server, email);
    const login = await post('json', ApiPath.login, { account: email, password: strongPassword, login_type: 1 });
    expect(login.code, login.msg).toBe(1);
  });

  it.each(ENCODINGS)('resets a forgotten password with area_id empty (%s)', async (encoding) => {
    const email = freshEmail();
    await registerByEmail(server, email);
    const auth_code = await sendCode(encoding, email, 2);
    const reset = await post(encoding, ApiPath.forgetPassword, {
      type: 1,
      account: email,
      area_id: '',
      new_password: 'Another789',
      secondary_password: 'Another789',
      auth_code,
    });
    expect(reset.code, reset.msg).toBe(1);
  });

  it.each(ENCODINGS)('sends a password code and changes the password with type and re_password empty (%s)', async (encoding) => {
    const email = freshEmail();
    const { token } = await registerByEmail(server, email);
    clock.advance(61_000);
    const sent = await post(encoding, ApiPath.passwordCode, { type: '', ...(await solveCaptcha(server)) }, token);
    expect(sent.code, sent.msg).toBe(1);
    const auth_code = await outboxCode(server, email);
    const changed = await post(
      encoding,
      ApiPath.amendPassword,
      { new_password: 'Another789', re_password: '', auth_code, type: '' },
      token,
    );
    expect(changed.code, changed.msg).toBe(1);
  });

  it('answers lists and lookups whose optional query parameters are empty', async () => {
    const { token } = await registerByEmail(server, freshEmail());
    const queries = [
      `${ApiPath.newsList}?page=&category_id=`,
      `${ApiPath.depositList}?page=&type=`,
      `${ApiPath.drawList}?page=&type=`,
      `${ApiPath.getDrawMethod}?draw_type=1&draw_id=`,
      `${ApiPath.myDeal}?page=&cursor=&status=`,
      `${ApiPath.wireInfo}?bank_coin=`,
      `${ApiPath.createDemo}?demo_id=&demo_secret=`,
    ];
    for (const path of queries) {
      const answer = await server.send('GET', path, { token });
      expect({ path, code: answer.code, msg: answer.msg }).toMatchObject({ path, code: 1 });
    }
  });

  it.each(ENCODINGS)('takes feedback with contact and upload_id empty (%s)', async (encoding) => {
    const { token } = await registerByEmail(server, freshEmail());
    const sent = await post(
      encoding,
      ApiPath.feedbackSubmit,
      { category: 'general', text: 'The chart is great', contact: '', upload_id: '' },
      token,
    );
    expect(sent.code, sent.msg).toBe(1);
  });

  it('still refuses a required field sent empty, with its own message', async () => {
    const sent = await post('form', ApiPath.sendEmail, { to: '', type: 1, ...(await solveCaptcha(server)) });
    expect(sent).toMatchObject({ code: 1001, msg: 'Please enter the email or phone number to send the code to' });
  });
});
