import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../src/clock.js';
import type { Db } from '../src/db/client.js';
import { auditLog, users } from '../src/db/schema.js';
import type { Page } from '../src/db/paging.js';
import { csvCell, type AuditRowView } from '../src/modules/audit/routes.js';
import { AuditService } from '../src/modules/audit/service.js';
import { cliDatabase, runCli, type CliDatabase } from './cli-helpers.js';
import { createTrader, type Trader } from './factories.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

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
    server.call<Page<AuditRowView>>('GET', `/admin/api/audit${query}`, {
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
    expect(row).toBe(
      `${stored!.id},${stored!.at.toISOString()},'=cmd|calc,test.csv,user,'@target,,"{""note"":""a,\\""b\\""""}",'-1,${stored!.hash}`,
    );
    expect(end).toBe('');
  });

  it('verifies the chain; the trigger refuses UPDATE, DELETE and TRUNCATE; a row changed behind it is found', async () => {
    const whole = await server.call<{ ok: boolean; rows: number; broken_at: number | null }>('GET', '/admin/api/audit/verify', {
      headers: admin,
    });
    const [{ n } = { n: 0 }] = await server.database.db.select({ n: sql<number>`count(*)::int` }).from(auditLog);
    expect(whole.data).toEqual({ ok: true, rows: n, broken_at: null });

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
    await database.migrate();
    const audit = new AuditService({ db: database.db, clock: systemClock });
    for (let i = 1; i <= 3; i++) {
      await audit.record({ by: { actor: 'cli' }, action: 'test.cli', targetType: 'thing', targetId: i, after: { i } });
    }
    await database.close();
  });
  afterAll(() => target.drop());

  const cli = async (...args: string[]) => {
    const { code, stdout, stderr } = await runCli('audit', args, target.env);
    return { code, out: code === 0 ? stdout : stdout + stderr };
  };

  it('exits 0 on a whole chain, 1 naming the first broken row, 2 on bad usage', async () => {
    expect(await cli('verify')).toEqual({ code: 0, out: 'OK 3 rows\n' });

    const database = await target.open();
    const [second] = await database.db.select({ id: auditLog.id }).from(auditLog).orderBy(auditLog.id).offset(1).limit(1);
    await tamper(database.db, `UPDATE audit_log SET target_id = '99' WHERE id = ${second!.id}`);
    const [newest] = await database.db.select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
    expect(newest!.id).toBeGreaterThan(second!.id);
    await database.close();

    expect(await cli('verify')).toEqual({ code: 1, out: `BROKEN at id ${second!.id} (row 2 of the chain)\n` });
    expect((await cli()).code).toBe(2);
    expect((await cli('check')).code).toBe(2);
  }, 60_000);
});
