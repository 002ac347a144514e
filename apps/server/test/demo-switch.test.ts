import { ApiPath, ResponseCode, type DemoSessionView, type UserView } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query, registerByEmail, startAccountsServer, type AccountsServer } from './accounts-helpers.js';
import { DB_KINDS } from './harness.js';

describe.each(DB_KINDS)('one-tap demo ↔ real on %s', (kind) => {
  let server: AccountsServer;

  beforeAll(async () => {
    server = await startAccountsServer(kind);
  });
  afterAll(() => server.close());

  const switchToDemo = (token: string | null, body: Record<string, string> = {}) =>
    server.send<DemoSessionView>('POST', ApiPath.switchToDemo, { token, body });
  const me = (token: string) => server.send<UserView>('GET', ApiPath.userInfo, { token });
  const liveSessions = async () =>
    Number((await query<{ n: string }>(server, 'select count(*)::text as n from sessions where revoked_at is null'))[0]!.n);
  const demoOwner = async (uid: number) =>
    (await query<{ owner: string | null }>(server, `select demo_owner_id::text as owner from users where uid = ${uid}`))[0]!
      .owner;

  it('makes a real account’s demo account once and opens it again from any device; both sessions stay live', async () => {
    const real = await registerByEmail(server, 'both.modes@example.com');
    const first = await switchToDemo(real.token);
    expect(first).toMatchObject({ code: 1, data: { user: { is_demo: 1 } } });
    expect(first.data.demo_secret).toMatch(/^[\w-]{43}$/);
    expect(await demoOwner(first.data.user.uid)).toBe(String(real.user.id));

    // Another device, without the secret: the same demo account, reached through the real session.
    const again = await switchToDemo(real.token);
    expect(again.data.user.uid).toBe(first.data.user.uid);
    expect(again.data.demo_secret).toBeUndefined();
    expect(again.data.token).not.toBe(first.data.token);

    // Each session answers for its own account: switching never logged the other out.
    expect((await me(real.token)).data).toMatchObject({ uid: real.user.uid, is_demo: 0 });
    expect((await me(first.data.token)).data).toMatchObject({ uid: first.data.user.uid, is_demo: 1 });
    expect((await me(again.data.token)).data).toMatchObject({ uid: first.data.user.uid, is_demo: 1 });
  });

  it('links the demo account this device kept when its owner first switches while signed in', async () => {
    const visitor = await server.send<DemoSessionView>('GET', ApiPath.createDemo);
    const key = { demo_id: String(visitor.data.user.uid), demo_secret: visitor.data.demo_secret! };
    const real = await registerByEmail(server, 'linked.later@example.com');
    const switched = await switchToDemo(real.token, key);
    expect(switched).toMatchObject({ code: 1, data: { user: { uid: visitor.data.user.uid, is_demo: 1 } } });
    expect(await demoOwner(visitor.data.user.uid)).toBe(String(real.user.id));
    // Linked: the real account finds it without the key from now on.
    expect((await switchToDemo(real.token)).data.user.uid).toBe(visitor.data.user.uid);
  });

  it('refuses another person’s linked demo, a demo session, a wrong secret and a visitor, opening no session', async () => {
    const owner = await registerByEmail(server, 'demo.owner@example.com');
    const owned = await switchToDemo(owner.token);
    const ownedKey = { demo_id: String(owned.data.user.uid), demo_secret: owned.data.demo_secret! };
    const stranger = await registerByEmail(server, 'demo.stranger@example.com');
    const before = await liveSessions();

    const taken = await switchToDemo(stranger.token, ownedKey);
    expect(taken).toMatchObject({ code: ResponseCode.forbidden, msg: 'This demo account belongs to another account' });
    expect(await demoOwner(owned.data.user.uid)).toBe(String(owner.user.id));
    const fromDemo = await switchToDemo(owned.data.token);
    expect(fromDemo).toMatchObject({ code: ResponseCode.forbidden, msg: 'Only a real account can switch to its demo account' });
    const wrongSecret = await switchToDemo(stranger.token, { ...ownedKey, demo_secret: 'x'.repeat(43) });
    expect(wrongSecret.code).toBe(ResponseCode.notFound);
    expect((await switchToDemo(null)).code).toBe(ResponseCode.notLoggedIn);
    expect(await liveSessions()).toBe(before);

    // The stranger gets a demo account of their own, never the owner's.
    const own = await switchToDemo(stranger.token);
    expect(own.code).toBe(1);
    expect(own.data.user.uid).not.toBe(owned.data.user.uid);
    expect(await demoOwner(own.data.user.uid)).toBe(String(stranger.user.id));
  });

  it('two devices switching at once end in one demo account', async () => {
    const real = await registerByEmail(server, 'two.devices@example.com');
    const [a, b] = await Promise.all([switchToDemo(real.token), switchToDemo(real.token)]);
    expect([a.code, b.code]).toEqual([1, 1]);
    expect(a.data.user.uid).toBe(b.data.user.uid);
    const owned = await query<{ n: string }>(
      server,
      `select count(*)::text as n from users where demo_owner_id = ${real.user.id}`,
    );
    expect(owned[0]!.n).toBe('1');
  });
});
