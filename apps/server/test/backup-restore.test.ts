import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { auditLog, orders } from '../src/db/schema.js';
import { verifyAuditChain } from '../src/modules/audit/verify.js';
import { deriveKey, ensureAppSecret } from '../src/secret.js';
import { runCli } from './cli-helpers.js';
import { expectLedgerInvariants, type Trader } from './factories.js';
import { openTestDatabase, startTestServer, TEST_APP_SECRET } from './harness.js';
import { MARKET_OPEN_AT, tradingServer, type TradingServer } from './trading-helpers.js';

/** The audit chain of the database in `dataDir`, under the app secret kept in that folder. */
async function chainOf(database: Database, dataDir: string) {
  const config = ensureAppSecret(loadConfig({ DATA_DIR: dataDir }));
  return verifyAuditChain(database.db, deriveKey(config, 'audit-chain'));
}

describe('backup and restore of the embedded database', () => {
  let source: string;
  const env = () => ({ DATA_DIR: source });
  let database: Database;
  let server: TradingServer;
  let trader: Trader;
  let running = true;
  const scratch = mkdtempSync(path.join(tmpdir(), 'pipwise-backups-'));
  const order = () => ({ type: 1, cont: '0.1', forex_id: server.instrumentId('EURUSD'), status: 1, multiple: 100 });

  beforeAll(async () => {
    // A migrated database folder from the suites' shared migrated dump: initdb and migrations on disk take far longer.
    const migrated = await openTestDatabase('pglite');
    const tar = await migrated.dump!();
    await migrated.close();
    source = mkdtempSync(path.join(tmpdir(), 'pipwise-backup-source-'));
    // The secret the server made on its first start (ensureAppSecret keeps it there as hex).
    writeFileSync(path.join(source, 'app-secret'), TEST_APP_SECRET, { mode: 0o600 });
    database = await openDatabase({ dataDir: source, snapshot: tar });
    const clock = new ManualClock(MARKET_OPEN_AT);
    server = tradingServer(await startTestServer('pglite', { clock, database }), clock);
    await server.operatorHeaders('backup-admin');
    trader = await server.trader({ balance: '5000' });
    await server.tick('EURUSD', '1.10000');
    expect((await server.submit(trader, order())).code).toBe(1);
  });

  afterAll(async () => {
    if (running) {
      await server?.close();
      await database?.close();
    }
    if (source) rmSync(source, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  });

  it('copies the database through the running server while orders are written, and restores it whole elsewhere', async () => {
    const out = path.join(scratch, 'live');
    const [backup, ...placed] = await Promise.all([
      runCli('backup', ['--out', out], env()),
      ...Array.from({ length: 4 }, () => server.submit(trader, order())),
    ]);
    expect(backup).toMatchObject({ code: 0, stderr: expect.stringContaining(`PGlite in ${source}`) });
    expect(backup.stdout).toMatch(/^OK backup in .*live: \d+ bytes of database, taken through the running server\n$/);
    expect(placed.map((answer) => answer.code)).toEqual([1, 1, 1, 1]);
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ format: 1, kind: 'pglite', taken: 'server', app_secret: true });

    const target = path.join(scratch, 'restored-live');
    const restored = await runCli('restore', ['--from', out], { DATA_DIR: target });
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('ledger: every wallet balance equals the sum of its rows');
    expect(restored.stdout).toMatch(/audit chain: OK \d+ rows, head [0-9a-f]{64}/);

    const copy = await openDatabase({ dataDir: target });
    try {
      await expectLedgerInvariants(copy.db);
      const chain = await chainOf(copy, target);
      expect(chain.ok).toBe(true);
      const [audit] = await copy.db.select({ rows: count() }).from(auditLog);
      expect(chain.rows).toBe(audit!.rows);
      expect(audit!.rows).toBeGreaterThan(0);
      // The order placed before the backup is there; those written meanwhile are there whole or not at all.
      const [held] = await copy.db.select({ rows: count() }).from(orders);
      expect(held!.rows).toBeGreaterThanOrEqual(1);
      expect(held!.rows).toBeLessThanOrEqual(5);
    } finally {
      await copy.close();
    }
  });

  it('never restores over a database, nor from a folder that is not a backup', async () => {
    const live = path.join(scratch, 'live');
    const twice = await runCli('restore', ['--from', live], { DATA_DIR: path.join(scratch, 'restored-live') });
    expect(twice).toMatchObject({ code: 1, stderr: expect.stringContaining('holds a database already') });
    expect((await runCli('backup', ['--out', live], env())).stderr).toContain('exists and is not empty');
    const cluttered = path.join(scratch, 'cluttered');
    mkdirSync(path.join(cluttered, 'pgdata'), { recursive: true });
    writeFileSync(path.join(cluttered, 'pgdata', 'left-over'), 'x');
    const intoClutter = await runCli('restore', ['--from', live], { DATA_DIR: cluttered });
    expect(intoClutter).toMatchObject({ code: 1, stderr: expect.stringContaining('is not empty') });
    expect(readFileSync(path.join(cluttered, 'pgdata', 'left-over'), 'utf8')).toBe('x');

    const forged = path.join(scratch, 'forged');
    mkdirSync(forged);
    writeFileSync(path.join(forged, 'manifest.json'), '{"__proto__":{"format":1,"kind":"pglite"},"app_secret":false}');
    const refused = await runCli('restore', ['--from', forged], { DATA_DIR: path.join(scratch, 'from-forged') });
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('cannot restore') });
    const notBackup = await runCli('restore', ['--from', scratch], { DATA_DIR: path.join(scratch, 'from-nothing') });
    expect(notBackup).toMatchObject({ code: 1, stderr: expect.stringContaining('is not a Pipwise backup') });

    const withNul = await runCli('backup', ['--out', `${scratch}/x\u0000y`], env());
    expect(withNul.code).toBe(2);
    const postgres = await runCli('backup', ['--out', live], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(postgres).toMatchObject({ code: 2, stderr: expect.stringContaining('pg_dump') });
  });

  it('copies the folder itself when no server runs on it', async () => {
    running = false;
    await server.close();
    await database.close();
    const out = path.join(scratch, 'offline');
    const backup = await runCli('backup', ['--out', out], env());
    expect(backup.code).toBe(0);
    expect(backup.stdout).toContain('taken with no server running');
    const manifest = JSON.parse(readFileSync(path.join(out, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ taken: 'offline', app_secret: true });
  });
});
