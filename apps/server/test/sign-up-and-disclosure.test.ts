import { ApiPath, ResponseCode, type UserView } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { users } from '../src/db/schema.js';
import { WalletService } from '../src/modules/wallet/service.js';
import {
  outboxCode,
  registerByEmail,
  signUpAnswers,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS } from './harness.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

describe.each(DB_KINDS)('sign-up: country of residence and the risk disclosure on %s', (kind) => {
  let server: AccountsServer;
  let trading: TradingServer;
  let eurusd: number;

  beforeAll(async () => {
    const clock = new ManualClock(MARKET_OPEN_AT);
    server = await startAccountsServer(kind, { clock });
    trading = tradingServer(server, clock);
    eurusd = trading.instrumentId('EURUSD');
    await trading.tick('EURUSD', '1.10000');
  });
  afterAll(() => server.close());

  const codeFor = async (email: string) => {
    const sent = await server.send('POST', ApiPath.sendEmail, { body: { to: email, type: 1, ...(await solveCaptcha(server)) } });
    expect(sent.code, sent.msg).toBe(1);
    return outboxCode(server, email);
  };
  const register = (email: string, sms_code: string, answers: Record<string, string>, lang = 'en') =>
    server.send<{ token: string; user: UserView }>('POST', ApiPath.register, {
      form: { type: '1', account: email, password: strongPassword, re_password: strongPassword, sms_code, ...answers },
      lang,
    });
  const stored = async (userId: number) =>
    (
      await server.database.db
        .select({
          country: users.country,
          version: users.riskDisclosureVersion,
          acceptedAt: users.riskDisclosureAcceptedAt,
        })
        .from(users)
        .where(eq(users.id, userId))
    )[0]!;
  const order = (token: string, lang = 'en') =>
    server.call('POST', ApiPath.submitOrder, {
      token,
      body: { type: 1, cont: '0.01', forex_id: eurusd, status: 1, multiple: 100 },
      lang,
    });
  /** A registered account starts empty: a deposit lets it place an order. */
  const fund = (userId: number) =>
    server.database.db.transaction((tx) =>
      new WalletService(server.database.db).post(tx, { userId, amount: '1000', type: 'deposit' }),
    );
  const setVersion = (version: string) => server.ctx.settings.set({ risk_disclosure_version: version });

  it('refuses a restricted country of residence with the policy notice, creating nothing', async () => {
    const email = 'resident.kp@example.com';
    const code = await codeFor(email);
    const before = await snapshot(server);
    const refused = await register(email, code, { ...signUpAnswers, country: 'kp' });
    expect(refused).toMatchObject({ code: ResponseCode.rejected, data: null });
    expect(refused.msg).toBe('Our service is not provided to North Korea, Israel, China, Vanuatu, and Cuba');
    const german = await register(email, code, { ...signUpAnswers, country: 'CN' }, 'de');
    expect(german.msg).toBe('Unser Dienst wird in folgenden Ländern nicht angeboten: Nordkorea, Israel, China, Vanuatu und Kuba');
    expect(await snapshot(server)).toEqual(before);
    // The same code still signs up a resident of a country served.
    expect((await register(email, code, { ...signUpAnswers, country: 'FR' })).code).toBe(1);
  });

  it('asks for the country and the disclosure in the reader’s language, changing nothing', async () => {
    const email = 'unanswered@example.com';
    const code = await codeFor(email);
    const before = await snapshot(server);
    const withoutCountry = await register(email, code, { risk_disclosure_version: '1' });
    expect(withoutCountry).toMatchObject({ code: ResponseCode.invalidInput, msg: 'Choose your country of residence' });
    expect((await register(email, code, { risk_disclosure_version: '1', country: 'Germany' }, 'fr')).msg).toBe(
      'Ce pays de résidence n’est pas valide',
    );
    expect((await register(email, code, { country: 'DE' })).msg).toBe('Read the risk disclosure and accept it');
    const outdated = await register(email, code, { country: 'DE', risk_disclosure_version: '0' });
    expect(outdated).toMatchObject({ code: ResponseCode.invalidInput, msg: 'Read the risk disclosure and accept it' });
    expect(await snapshot(server)).toEqual(before);
  });

  it('stores the country and the disclosure version accepted, and shows them to the user', async () => {
    const registered = await registerByEmail(server, 'resident.de@example.com', strongPassword, { country: 'de' });
    const row = await stored(registered.user.id);
    expect(row).toMatchObject({ country: 'DE', version: 1 });
    expect(row.acceptedAt).toBeInstanceOf(Date);
    const me = await server.send<UserView>('GET', ApiPath.userInfo, { token: registered.token });
    expect(me.data).toMatchObject({ country: 'DE', risk_disclosure_version: 1, risk_disclosure_due: 0 });
    await fund(registered.user.id);
    expect((await order(registered.token)).code).toBe(1);
  });

  it('a sign-up form showing an older disclosure than the one in force is refused', async () => {
    await setVersion('2');
    try {
      const email = 'stale.form@example.com';
      const code = await codeFor(email);
      const before = await snapshot(server);
      const refused = await register(email, code, signUpAnswers);
      expect(refused).toMatchObject({
        code: ResponseCode.rejected,
        msg: 'The risk disclosure has been updated: read the new version and accept it',
      });
      expect(await snapshot(server)).toEqual(before);
      expect((await register(email, code, { ...signUpAnswers, risk_disclosure_version: '2' })).code).toBe(1);
    } finally {
      await setVersion('1');
    }
  });

  it('a new disclosure version refuses a real account’s orders (1010) until it accepts it; demo accounts trade on', async () => {
    const real = await registerByEmail(server, 'version.bump@example.com');
    await fund(real.user.id);
    const demo = await server.send<{ token: string }>('GET', ApiPath.createDemo);
    expect((await order(real.token)).code).toBe(1);
    await setVersion('2');
    try {
      const refused = await order(real.token);
      expect(refused).toMatchObject({
        code: ResponseCode.disclosureRequired,
        msg: 'Accept the updated risk disclosure before placing an order',
        data: null,
      });
      expect((await order(real.token, 'hk')).msg).toBe('下單前請接受更新後的風險披露');
      expect((await server.send<UserView>('GET', ApiPath.userInfo, { token: real.token })).data).toMatchObject({
        risk_disclosure_version: 1,
        risk_disclosure_due: 1,
      });
      expect((await order(demo.data.token)).code).toBe(1);

      // Accepting the text an open screen showed before the change is not accepting the new one.
      const stale = await server.send('POST', ApiPath.acceptRiskDisclosure, { token: real.token, body: { version: 1 } });
      expect(stale).toMatchObject({ code: ResponseCode.rejected });
      expect((await order(real.token)).code).toBe(ResponseCode.disclosureRequired);
      const demoAccepts = await server.send('POST', ApiPath.acceptRiskDisclosure, {
        token: demo.data.token,
        body: { version: 2 },
      });
      expect(demoAccepts.code).toBe(ResponseCode.forbidden);
      expect((await server.send('POST', ApiPath.acceptRiskDisclosure, { body: { version: 2 } })).code).toBe(
        ResponseCode.notLoggedIn,
      );

      const accepted = await server.send<UserView>('POST', ApiPath.acceptRiskDisclosure, {
        token: real.token,
        body: { version: '2' },
      });
      expect(accepted).toMatchObject({ code: 1, msg: 'Risk disclosure accepted' });
      expect(accepted.data).toMatchObject({ risk_disclosure_version: 2, risk_disclosure_due: 0 });
      expect((await stored(real.user.id)).version).toBe(2);
      expect((await order(real.token)).code).toBe(1);
    } finally {
      await setVersion('1');
    }
  });
});
