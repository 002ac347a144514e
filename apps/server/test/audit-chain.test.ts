import { randomBytes } from 'node:crypto';
import type { AuditChainView, AuditRowView, OperatorPageView } from '@pipwise/domain';
import { asc, desc, eq, gte, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database, type Db } from '../src/db/client.js';
import { auditLog, users } from '../src/db/schema.js';
import {
  CHAIN_SEAL_ACTION,
  chainedFields,
  GENESIS_HASH,
  legacyRowHash,
  rowHash,
  type ChainedFields,
} from '../src/modules/audit/chain.js';
import { csvCell } from '../src/modules/audit/routes.js';
import { AuditService } from '../src/modules/audit/service.js';
import { verifyAuditChain } from '../src/modules/audit/verify.js';
import { deriveKey } from '../src/secret.js';
import { databaseName } from '../src/cli/command.js';
import { cliDatabase, runCli, spawnCli, type CliDatabase } from './cli-helpers.js';
import { createTrader, type Trader } from './factories.js';
import { DB_KINDS, openTestDatabase, startTestServer, TEST_APP_SECRET, type TestServer } from './harness.js';

/** The chain's key on every test server (they all run with TEST_APP_SECRET). */
const TEST_AUDIT_KEY = deriveKey(loadConfig({ APP_SECRET: TEST_APP_SECRET }), 'audit-chain');

/** As a database superuser would: the append-only trigger set aside for one statement. */
async function tamper(db: Db, statement: string) {
  await db.execute(sql.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change'));
  try {
    await db.execute(sql.raw(statement));
  } finally {
    await db.execute(sql.raw('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change'));
  }
}

const refusal = async (db: Db, statement: string) => {
  try {
    await db.execute(sql.raw(statement));
  } catch (error) {
    return String((error as { cause?: unknown }).cause ?? error);
  }
  return 'not refused';
};

describe.each(DB_KINDS)('audit log on %s', (kind) => {
  let server: TestServer;
  let admin: Record<string, string>;
  let trader: Trader;
  let uid: number;

  beforeAll(async () => {
    server = await startTestServer(kind);
    admin = await server.operatorHeaders('root', 'superadmin');
    trader = await createTrader(server.database.db);
    uid = (await server.database.db.select({ uid: users.uid }).from(users).where(eq(users.id, trader.userId)))[0]!.uid;
    const support = await server.operatorHeaders('sue', 'support');
    for (const body of [{ trading: true }, { trading: false }, { withdrawals: true }]) {
      expect((await server.call('POST', `/admin/api/users/${uid}/freeze`, { headers: support, body })).code).toBe(1);
    }
    expect((await server.call('POST', `/admin/api/users/${uid}/revoke-sessions`, { headers: support })).code).toBe(1);
  });
  afterAll(() => server.close());

  const list = (query: string, headers = admin) =>
    server.call<OperatorPageView<AuditRowView>>('GET', `/admin/api/audit${query}`, {
      headers,
    });

  it('has a row for every action, newest first, filtered by action, actor, target and time, paged', async () => {
    const mine = await list(`?target_type=user&target_id=${uid}`);
    expect(mine.code, mine.msg).toBe(1);
    expect(mine.data.data.map((row) => [row.action, row.after])).toEqual([
      ['user.revoke_sessions', { sessions_ended: 1 }],
      ['user.freeze', { login: false, trading: false, withdrawals: true, sessions_ended: 0 }],
      ['user.freeze', { login: false, trading: false, withdrawals: false, sessions_ended: 0 }],
      ['user.freeze', { login: false, trading: true, withdrawals: false, sessions_ended: 0 }],
    ]);
    expect(mine.data.data.every((row) => row.actor === 'operator:sue@ops.test' && row.ip === '127.0.0.1')).toBe(true);

    const freezes = await list(`?action=user.freeze&actor=${encodeURIComponent('operator:sue@ops.test')}&page_size=2&page=2`);
    expect(freezes.data).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(freezes.data.data.map((row) => row.after)).toEqual([
      { login: false, trading: true, withdrawals: false, sessions_ended: 0 },
    ]);

    const all = (await list('?page_size=100')).data.data;
    expect(all.map((row) => row.id)).toEqual([...all.map((row) => row.id)].sort((a, b) => b - a));
    const logins = all.filter((row) => row.action === 'operator.login');
    expect(logins.length).toBeGreaterThanOrEqual(2);
    const after = new Date(Date.parse(mine.data.data[0]!.at) + 1).toISOString();
    expect((await list(`?from=${encodeURIComponent(after)}`)).data.total).toBe(0);
    expect((await list(`?to=${encodeURIComponent(after)}&target_id=${uid}`)).data.total).toBe(4);
  });

  it('refuses bad filters with a message and every role but superadmin', async () => {
    expect(await list('?from=yesterday')).toMatchObject({
      code: 1001,
      msg: 'Times must be ISO 8601 dates, e.g. 2026-11-23T00:00:00Z.',
    });
    expect((await list('?from=2026-11-23&to=2026-11-22')).code).toBe(1001);
    expect((await list('?page_size=101')).code).toBe(1001);
    expect((await list(`?action=${'x'.repeat(101)}`)).code).toBe(1001);
    const finance = await server.operatorHeaders('fin', 'finance');
    for (const route of ['/admin/api/audit', '/admin/api/audit.csv', '/admin/api/audit/verify']) {
      expect((await server.call('GET', route, { headers: finance })).code, route).toBe(1003);
      expect((await server.call('GET', route, { token: trader.token })).code, route).toBe(999);
    }
  });

  it('exports CSV with quoting and without formulas a spreadsheet would run', async () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('line\nbreak')).toBe('"line\nbreak"');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ note: 'x' })).toBe('"{""note"":""x""}"');

    await server.ctx.audit.record({
      by: { actor: '=cmd|calc' },
      action: 'test.csv',
      targetType: 'user',
      targetId: '@target',
      after: { note: 'a,"b"' },
      ip: '-1',
    });
    const response = await fetch(`${server.baseUrl}/admin/api/audit.csv?action=test.csv`, { headers: admin });
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, row, end] = (await response.text()).split('\r\n');
    expect(header).toBe('id,at,actor,action,target_type,target_id,before,after,ip,hash');
    const [stored] = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'test.csv'));
    // The ip '-1' is not an address, so it is not kept.
    expect(row).toBe(
      `${stored!.id},${stored!.at.toISOString()},'=cmd|calc,test.csv,user,'@target,,"{""note"":""a,\\""b\\""""}",,${stored!.hash}`,
    );
    expect(end).toBe('');
  });

  it('verifies the chain; the trigger refuses UPDATE, DELETE and TRUNCATE; a row changed behind it is found', async () => {
    const whole = await server.call<AuditChainView>('GET', '/admin/api/audit/verify', { headers: admin });
    const [{ n } = { n: 0 }] = await server.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    const [first] = await server.database.db.select().from(auditLog).orderBy(auditLog.id).limit(1);
    const [newest] = await server.database.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(whole.data).toEqual({
      ok: true,
      rows: n,
      broken_at: null,
      head: newest!.hash,
      legacy_rows: 0,
      keyed_since: { id: first!.id, at: first!.at.toISOString() },
    });

    const db = server.database.db;
    for (const statement of ["UPDATE audit_log SET actor = 'someone else'", 'DELETE FROM audit_log', 'TRUNCATE audit_log']) {
      expect(await refusal(db, statement), statement).toMatch(/audit_log is append-only/);
    }
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n).toBe(n);

    const [victim] = await db.select().from(auditLog).where(eq(auditLog.action, 'user.freeze')).orderBy(auditLog.id).limit(1);
    await tamper(
      db,
      `UPDATE audit_log SET after = '{"login": false, "trading": false, "withdrawals": false}' WHERE id = ${victim!.id}`,
    );
    const broken = await server.call<{ ok: boolean; broken_at: number | null }>('GET', '/admin/api/audit/verify', {
      headers: admin,
    });
    expect(broken.data).toMatchObject({ ok: false, broken_at: victim!.id });
    // Put back as it was, the chain holds again; a deleted row breaks the link of the one after it.
    await tamper(db, `UPDATE audit_log SET after = '${JSON.stringify(victim!.after)}' WHERE id = ${victim!.id}`);
    expect((await server.call<{ ok: boolean }>('GET', '/admin/api/audit/verify', { headers: admin })).data.ok).toBe(true);
    const [next] = await db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(sql`${auditLog.id} > ${victim!.id}`)
      .orderBy(auditLog.id)
      .limit(1);
    await tamper(db, `DELETE FROM audit_log WHERE id = ${victim!.id}`);
    const gap = await server.call<{ ok: boolean; broken_at: number | null }>('GET', '/admin/api/audit/verify', {
      headers: admin,
    });
    expect(gap.data).toMatchObject({ ok: false, broken_at: next!.id });
  });
});

describe.each(DB_KINDS)('npm run audit -- verify on %s', (kind) => {
  let target: CliDatabase;

  beforeAll(async () => {
    target = await cliDatabase(kind, 'audit');
    const database = await target.open();
    const audit = new AuditService({ db: database.db, clock: systemClock, key: TEST_AUDIT_KEY });
    for (let i = 1; i <= 3; i++) {
      await audit.record({ by: { actor: 'cli' }, action: 'test.cli', targetType: 'thing', targetId: i, after: { i } });
    }
    await database.close();
  });
  afterAll(() => target.drop());

  const audit = async (run: typeof runCli, args: string[]) => {
    const { code, stdout, stderr } = await run('audit', args, { APP_SECRET: TEST_APP_SECRET, ...target.env });
    return { code, out: code === 0 ? stdout : stdout + stderr };
  };
  const cli = (...args: string[]) => audit(runCli, args);
  /** As npm runs it: a process of its own, whose exit code is the verdict. */
  const spawned = (...args: string[]) => audit(spawnCli, args);

  it('exits 0 on a whole chain, 1 naming the first broken row, 2 on bad usage', async () => {
    let database = await target.open();
    const [head] = await database.db.select({ hash: auditLog.hash }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    await database.close();
    expect(await cli('verify')).toEqual({ code: 0, out: `OK 3 rows, head ${head!.hash}\n` });

    database = await target.open();
    const [second] = await database.db.select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id).offset(1).limit(1);
    await tamper(database.db, `UPDATE audit_log SET target_id = '99' WHERE id = ${second!.id}`);
    const [newest] = await database.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(newest!.id).toBeGreaterThan(second!.id);
    await database.close();

    const opened = `database: ${databaseName({ dataDir: target.dir, databaseUrl: target.env.DATABASE_URL })}\n`;
    expect(await spawned('verify')).toEqual({ code: 1, out: `BROKEN at id ${second!.id} (row 2 of the chain)\n${opened}` });
    expect((await cli()).code).toBe(2);
    expect((await cli('check')).code).toBe(2);
  }, 60_000);
});

/**
 * What the owner of the table did in the report (issue 17): with the trigger set aside, change a row,
 * then give it and every later row (up to `to`) a fresh hash and link with `hash`, so each row agrees
 * with its fields and the one before. `from` null re-hashes the whole log from the genesis hash.
 */
async function rewrite(
  db: Db,
  from: number | null,
  change: string | null,
  hash: (fields: ChainedFields) => string,
  to = Number.MAX_SAFE_INTEGER,
) {
  await db.execute(sql.raw('ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change'));
  try {
    if (change) await db.execute(sql.raw(change));
    const rows = await db.select().from(auditLog).orderBy(asc(auditLog.id));
    let previous = GENESIS_HASH;
    for (const row of rows) {
      if ((from === null || row.id >= from) && row.id <= to) {
        const fields = { ...chainedFields(row), prevHash: previous };
        const fresh = hash(fields);
        await db.update(auditLog).set({ prevHash: previous, hash: fresh }).where(eq(auditLog.id, row.id));
        previous = fresh;
      } else {
        previous = row.hash;
      }
    }
  } finally {
    await db.execute(sql.raw('ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change'));
  }
}

const audited = (audit: AuditService, i: number) =>
  audit.record({
    by: { actor: 'operator:fin@ops.test', id: 7 },
    action: 'adjustment.approve',
    targetType: 'adjustment',
    targetId: i,
    after: { amount: `${i}00.00` },
  });

describe.each(DB_KINDS)('audit chain keyed by the app secret on %s', (kind) => {
  let database: Database;
  let audit: AuditService;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    audit = new AuditService({ db: database.db, clock: systemClock, key: TEST_AUDIT_KEY });
    for (let i = 1; i <= 63; i++) await audited(audit, i);
  });
  afterAll(() => database.close());

  it("finds the owner's rewrite: a row changed and every row re-hashed, unkeyed or under a guessed key", async () => {
    const db = database.db;
    const whole = await verifyAuditChain(db, TEST_AUDIT_KEY);
    expect(whole).toMatchObject({ ok: true, rows: 63, legacy_rows: 0 });
    const [victim] = await db.select().from(auditLog).where(eq(auditLog.targetId, '40'));

    // Re-hashed from the changed row on with SHA-256, as the unkeyed chain was: verify names that row.
    await rewrite(db, victim!.id, `UPDATE audit_log SET after = '{"amount": "1.00"}' WHERE id = ${victim!.id}`, legacyRowHash);
    expect(await verifyAuditChain(db, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: victim!.id, head: null });

    // The whole log re-hashed from the start with SHA-256: no seal closes those rows, so the first is named.
    await rewrite(db, null, null, legacyRowHash);
    const [first] = await db.select({ id: auditLog.id }).from(auditLog).orderBy(asc(auditLog.id)).limit(1);
    expect(await verifyAuditChain(db, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: first!.id });

    // Under any key but the server's: the same.
    const guessed = randomBytes(32);
    await rewrite(db, null, null, (fields) => rowHash(guessed, fields));
    expect(await verifyAuditChain(db, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: first!.id });

    // Put back under the real key (only the key's holder can), it verifies again.
    await rewrite(db, null, `UPDATE audit_log SET after = '{"amount": "4000.00"}' WHERE id = ${victim!.id}`, (fields) =>
      rowHash(TEST_AUDIT_KEY, fields),
    );
    expect(await verifyAuditChain(db, TEST_AUDIT_KEY)).toMatchObject({ ok: true, rows: 63 });
  });
});

describe.each(DB_KINDS)('an audit log written before the chain was keyed, on %s', (kind) => {
  let database: Database;
  let server: TestServer | null = null;
  const legacyIds: number[] = [];

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    // Three rows as the earlier version wrote them: plain SHA-256 over the same fields.
    let previous = GENESIS_HASH;
    for (let i = 1; i <= 3; i++) {
      const fields: ChainedFields = {
        at: new Date(Date.UTC(2026, 10, 20, 9, i)),
        actor: 'cli',
        operatorId: null,
        action: 'operator.create',
        targetType: 'operator',
        targetId: String(i),
        before: null,
        after: { email: `op${i}@ops.test` },
        ip: null,
        prevHash: previous,
      };
      previous = legacyRowHash(fields);
      const [row] = await database.db
        .insert(auditLog)
        .values({ ...fields, hash: previous })
        .returning({ id: auditLog.id });
      legacyIds.push(row!.id);
    }
  });
  afterAll(async () => {
    await server?.close();
    await database.close();
  });

  it('is sealed at the first start after the upgrade, then verifies with its unkeyed rows counted; a change to them is found', async () => {
    const db = database.db;
    // Before any start of the new version: unkeyed rows that nothing pins are reported, not trusted.
    expect(await verifyAuditChain(db, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: legacyIds[0] });

    server = await startTestServer(kind, { database });
    const [seal] = await db.select().from(auditLog).where(eq(auditLog.action, CHAIN_SEAL_ACTION));
    const [legacyHead] = await db.select().from(auditLog).where(eq(auditLog.id, legacyIds[2]!));
    expect(seal).toMatchObject({
      actor: 'system',
      prevHash: legacyHead!.hash,
      after: { legacy_rows: 3, legacy_head: legacyHead!.hash },
    });
    await audited(server.ctx.audit, 1);
    const report = await verifyAuditChain(db, TEST_AUDIT_KEY);
    const [newest] = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(report).toEqual({
      ok: true,
      rows: 5,
      broken_at: null,
      head: newest!.hash,
      legacy_rows: 3,
      keyed_since: { id: seal!.id, at: seal!.at.toISOString() },
    });

    // A second start does not seal again.
    await server.close();
    server = await startTestServer(kind, { database });
    expect(await db.select().from(auditLog).where(eq(auditLog.action, CHAIN_SEAL_ACTION))).toHaveLength(1);

    // The owner changes an unkeyed row and re-hashes the unkeyed rows: the seal no longer matches.
    await rewrite(
      db,
      legacyIds[1]!,
      `UPDATE audit_log SET after = '{"email": "mallory@ops.test"}' WHERE id = ${legacyIds[1]}`,
      legacyRowHash,
      legacyIds[2],
    );
    expect(await verifyAuditChain(db, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: seal!.id });
  });

  it('refuses an unkeyed row after the seal', async () => {
    const db = await openTestDatabase(kind);
    try {
      const audit = new AuditService({ db: db.db, clock: systemClock, key: TEST_AUDIT_KEY });
      await audited(audit, 1);
      const [last] = await db.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1);
      const fields: ChainedFields = { ...chainedFields(last!), targetId: '2', prevHash: last!.hash };
      const [row] = await db.db
        .insert(auditLog)
        .values({ ...fields, hash: legacyRowHash(fields) })
        .returning({ id: auditLog.id });
      expect(await verifyAuditChain(db.db, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: row!.id });
      // Nor is a log that is already keyed ever sealed over it.
      expect(await audit.sealLegacyRows()).toBeNull();
    } finally {
      await db.close();
    }
  });
});

describe.runIf(DB_KINDS.includes('postgres'))('the least-privilege role on postgres', () => {
  let target: CliDatabase;
  let appDatabase: Database;
  let server: TestServer;
  const role = `pipwise_app_${randomBytes(4).toString('hex')}`;
  const admin = () => new pg.Client({ connectionString: process.env.TEST_DATABASE_URL! });

  beforeAll(async () => {
    target = await cliDatabase('postgres', 'roles');
    const client = admin();
    await client.connect();
    await client.query(`CREATE ROLE ${role} LOGIN`);
    await client.end();
  });
  afterAll(async () => {
    await server?.close();
    await appDatabase?.close();
    await target.drop();
    const client = admin();
    await client.connect();
    await client.query(`DROP ROLE IF EXISTS ${role}`);
    await client.end();
  });

  it("lets the app INSERT and SELECT the audit log only; the owner's rewrite is found by verify", async () => {
    const granted = await spawnCli('db-roles', ['--role', role], target.env);
    expect(granted, granted.stderr).toMatchObject({
      code: 0,
      stdout: `${role}: INSERT and SELECT on audit_log, read and write on the other tables\n`,
    });
    // A superuser or the owner would be refused as the app's role.
    expect((await runCli('db-roles', ['--role', 'postgres'], target.env)).stderr).toContain('superuser or owns the tables');

    const url = new URL(target.env.DATABASE_URL!);
    url.username = role;
    appDatabase = await openDatabase({ databaseUrl: url.toString() });
    await appDatabase.migrate();
    server = await startTestServer('postgres', { database: appDatabase });
    const app = appDatabase.db;

    // The app works as that role: it answers, writes users and audit rows, and verifies the chain.
    await createTrader(app);
    for (let i = 0; i < 3; i++) {
      const answer = await server.call('POST', '/admin/api/login', {
        body: { email: `x${i}@ops.test`, password: 'wrong password', otp: '000000' },
      });
      expect(answer.code).toBe(1002);
    }
    await audited(server.ctx.audit, 1);
    const before = await verifyAuditChain(app, TEST_AUDIT_KEY);
    expect(before).toMatchObject({ ok: true, rows: 4 });

    // Every way to change the log is refused to the app's role by PostgreSQL itself.
    for (const [statement, reason] of [
      ["UPDATE audit_log SET actor = 'someone else'", /permission denied for table audit_log/],
      ['DELETE FROM audit_log', /permission denied for table audit_log/],
      ['TRUNCATE audit_log', /permission denied for table audit_log/],
      ['ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change', /must be owner of table audit_log/],
      ['ALTER TABLE audit_log DISABLE TRIGGER ALL', /must be owner of table audit_log/],
      ['DROP TABLE audit_log', /must be owner of table audit_log/],
    ] as const) {
      expect(await refusal(app, statement), statement).toMatch(reason);
    }
    expect(await verifyAuditChain(app, TEST_AUDIT_KEY)).toEqual(before);

    // The owner can still rewrite rows and re-hash them, but without the key verify names the row.
    const owner = await target.open();
    try {
      const [victim] = await owner.db.select().from(auditLog).where(gte(auditLog.id, 2)).orderBy(asc(auditLog.id)).limit(1);
      await rewrite(owner.db, victim!.id, `UPDATE audit_log SET actor = 'someone else' WHERE id = ${victim!.id}`, legacyRowHash);
      expect(await verifyAuditChain(app, TEST_AUDIT_KEY)).toMatchObject({ ok: false, broken_at: victim!.id });
    } finally {
      await owner.close();
    }
  });
});
