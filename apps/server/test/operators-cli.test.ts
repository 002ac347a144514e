import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/client.js';
import { databaseName } from '../src/cli/command.js';
import { auditLog } from '../src/db/schema.js';
import { cliDatabase, runCli, spawnCli, type CliDatabase } from './cli-helpers.js';
import { DB_KINDS, ManualClock, startTestServer, TEST_APP_SECRET, totpCode, type TestServer } from './harness.js';

/** Every run opens the database, and on PGlite the server stops for it and starts again after: seconds each. */
const SLOW = { timeout: 300_000 };

/** What `add` and `reset` print: the one-time enrolment link, never a password or a secret. */
interface Printed {
  email: string;
  role: string;
  link: string;
  expires_at: string;
}

/** An operator after they opened their link: the password they chose and their authenticator's secret. */
interface Enrolment {
  email: string;
  password: string;
  otpauth: string;
}

describe('npm run operator refuses a malformed command line before it opens any database', () => {
  it('exits 2 with the usage or the reason', SLOW, async () => {
    const refusals = await Promise.all(
      [
        ['add', '--email', 'x@ops.test', '--role', 'owner'],
        ['add', '--email', 'not-an-address', '--role', 'support'],
        ['add', '--email', 'x@ops.test'],
        ['promote', '--email', 'x@ops.test'],
        ['list', '--email', 'x@ops.test'],
      ].map((args) => runCli('operator', args, { APP_SECRET: TEST_APP_SECRET })),
    );
    expect(refusals.map((refusal) => refusal.code)).toEqual([2, 2, 2, 2, 2]);
    expect(refusals[0]!.stderr).toContain('unknown role "owner"');
    expect(refusals[1]!.stderr).toContain('"not-an-address" is not an e-mail address');
    expect(refusals[2]!.stderr).toContain('usage: npm run operator');
  });
});

describe.each(DB_KINDS)('npm run operator on %s', (kind) => {
  let target: CliDatabase;
  let database: Database | null = null;
  let server: TestServer | null = null;
  const clock = new ManualClock(new Date());

  /** Runs the real CLI on the test's database. */
  const cli = (...args: string[]) => runCli('operator', args, { APP_SECRET: TEST_APP_SECRET, ...target.env });

  /** The one JSON line `add` and `reset` print. */
  const enrolmentOf = (stdout: string): Printed => {
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!) as Printed;
    expect(Object.keys(parsed)).toEqual(['email', 'role', 'link', 'expires_at']);
    expect(parsed.link).toMatch(/^\/admin\/#\/enrol\/[\w-]{43}$/);
    return parsed;
  };
  /** Opens the printed link as its operator would, choosing `password`. */
  async function enrol(api: TestServer, printed: Printed, password: string): Promise<Enrolment> {
    const token = printed.link.slice(printed.link.lastIndexOf('/') + 1);
    const begun = await api.call<{ otpauth: string }>('POST', '/admin/api/enrolment/begin', { body: { token } });
    expect(begun.data.otpauth).toMatch(/^otpauth:\/\/totp\//);
    const finished = await api.call('POST', '/admin/api/enrolment/finish', {
      body: { token, password, otp: totpCode(begun.data.otpauth, clock.now().getTime()) },
    });
    expect(finished.code).toBe(1);
    return { email: printed.email, password, otpauth: begun.data.otpauth };
  }

  async function startServer() {
    database = await target.open();
    server = await startTestServer(kind, { database, clock });
    return server;
  }
  async function stopServer() {
    await server?.close();
    await database?.close();
    server = null;
    database = null;
  }
  /** The embedded database allows one process: the server stops for the command line, as in production. */
  const pauseForCli = async () => (kind === 'pglite' ? stopServer() : undefined);
  const resumeAfterCli = async () => server ?? (await startServer());

  async function login(api: TestServer, enrolment: Enrolment) {
    clock.advance(30_000);
    return api.call<{ token: string }>('POST', '/admin/api/login', {
      body: { email: enrolment.email, password: enrolment.password, otp: totpCode(enrolment.otpauth, clock.now().getTime()) },
    });
  }

  beforeAll(async () => {
    target = await cliDatabase(kind, 'opcli');
  });
  afterAll(async () => {
    await stopServer();
    await target.drop();
  }, SLOW.timeout);

  it('adds operators whose printed link enrols them; refuses a second with the same address', SLOW, async () => {
    const added = await cli('add', '--email', 'cli-root@ops.test', '--role', 'superadmin');
    // stderr says which database it opened, and nothing else.
    expect(added).toMatchObject({
      code: 0,
      stderr: `database: ${databaseName({ dataDir: target.dir, databaseUrl: target.env.DATABASE_URL })}\n`,
    });
    const printedRoot = enrolmentOf(added.stdout);
    expect(printedRoot).toMatchObject({ email: 'cli-root@ops.test', role: 'superadmin' });

    expect(await cli('add', '--email', 'CLI-root@ops.test', '--role', 'support')).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('already exists'),
    });
    expect((await cli('disable', '--email', 'nobody@ops.test')).stderr).toContain('no operator with e-mail nobody@ops.test');

    const api = await resumeAfterCli();
    const root = await enrol(api, printedRoot, 'the-roots-password');
    const session = await login(api, root);
    expect(session.code).toBe(1);
    const me = await api.call('GET', '/admin/api/me', { headers: { authorization: session.data.token } });
    expect(me.data).toMatchObject({ email: 'cli-root@ops.test', role: 'superadmin' });
    const [audited] = await api.database.db.select().from(auditLog).where(eq(auditLog.action, 'operator.create'));
    expect(audited).toMatchObject({ actor: 'cli', after: { email: 'cli-root@ops.test', role: 'superadmin' } });
    expect(JSON.stringify(audited)).not.toContain(root.password);
  });

  it.runIf(kind === 'pglite')('refuses to open the embedded database while a server holds it', SLOW, async () => {
    await resumeAfterCli();
    // A process of its own: the server's pid file names this one, which a command run here would take over.
    const refused = await spawnCli('operator', ['list'], { APP_SECRET: TEST_APP_SECRET, ...target.env });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('stop the server first');
    expect(refused.stderr).toContain(`in use by process ${process.pid}`);
  });

  it('lists, disables, enables and resets; each change ends sessions at once and is audited as cli', SLOW, async () => {
    await pauseForCli();
    const printedSupport = enrolmentOf((await cli('add', '--email', 'cli-support@ops.test', '--role', 'support')).stdout);
    const listed = await cli('list');
    expect(listed.code).toBe(0);
    const rows = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(rows.map((row) => [row.email, row.role, row.disabled, row.created_by])).toEqual([
      ['cli-root@ops.test', 'superadmin', false, 'cli'],
      ['cli-support@ops.test', 'support', false, 'cli'],
    ]);
    expect(listed.stdout).not.toContain(printedSupport.link);

    let api = await resumeAfterCli();
    const support = await enrol(api, printedSupport, 'supports-password');
    const before = await login(api, support);
    expect(before.code).toBe(1);
    const headers = { authorization: before.data.token };

    await pauseForCli();
    expect(await cli('disable', '--email', 'cli-support@ops.test')).toMatchObject({ code: 0 });
    expect((await cli('disable', '--email', 'cli-support@ops.test')).stderr).toContain('already disabled');
    // The last superadmin stays.
    expect((await cli('disable', '--email', 'cli-root@ops.test')).stderr).toContain('last enabled superadmin');
    api = await resumeAfterCli();
    expect((await api.call('GET', '/admin/api/me', { headers })).code).toBe(999);
    expect((await login(api, support)).code).toBe(1002);

    await pauseForCli();
    expect((await cli('enable', '--email', 'cli-support@ops.test')).code).toBe(0);
    api = await resumeAfterCli();
    const again = await login(api, support);
    expect(again.code).toBe(1);

    await pauseForCli();
    const reset = await cli('reset', '--email', 'cli-support@ops.test');
    expect(reset.code).toBe(0);
    const printedRenewal = enrolmentOf(reset.stdout);
    expect(printedRenewal).toMatchObject({ email: 'cli-support@ops.test', role: 'support' });
    api = await resumeAfterCli();
    expect((await api.call('GET', '/admin/api/me', { headers: { authorization: again.data.token } })).code).toBe(999);
    expect((await login(api, support)).code).toBe(1002);
    const renewed = await enrol(api, printedRenewal, 'supports-new-password');
    expect(renewed.otpauth).not.toBe(support.otpauth);
    expect((await login(api, renewed)).code).toBe(1);

    const audited = await api.database.db.select().from(auditLog).where(eq(auditLog.actor, 'cli')).orderBy(auditLog.id);
    expect(audited.map((row) => row.action)).toEqual([
      'operator.create',
      'operator.create',
      'operator.disable',
      'operator.enable',
      'operator.reset',
    ]);
    expect(JSON.stringify(audited)).not.toContain(printedRenewal.link);
    expect(JSON.stringify(audited)).not.toContain(renewed.password);
  });
});
