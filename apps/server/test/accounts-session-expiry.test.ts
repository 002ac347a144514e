import { ApiPath } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerByEmail, startAccountsServer, type AccountsServer } from './accounts-helpers.js';
import { DB_KINDS, ManualClock } from './harness.js';

const DAY_MS = 86_400_000;

describe.each(DB_KINDS)('session expiry on %s', (kind) => {
  let server: AccountsServer;
  const clock = new ManualClock('2026-03-02T09:00:00Z');
  beforeAll(async () => {
    server = await startAccountsServer(kind, { clock, env: { CAPTCHA_REQUIRED: 'false', SESSION_TTL_DAYS: '2' } });
  });
  afterAll(() => server.close());

  it('keeps a token working until its expiry to the second, then answers 999', async () => {
    const { token } = await registerByEmail(server, 'expiring@example.com');
    const info = () => server.send('GET', ApiPath.userInfo, { token });
    expect((await info()).code).toBe(1);
    // Past the process's cache of the session, so the database decides.
    clock.advance(2 * DAY_MS - 1_000);
    expect((await info()).code).toBe(1);
    clock.advance(2_000);
    expect(await info()).toMatchObject({ code: 999, data: null });
  });
});
