import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { rowsOf } from '../src/db/rows.js';
import { LeadershipLost, SoleLeadership, type LeaderRole } from '../src/leadership/leadership.js';
import { PostgresLeadership } from '../src/leadership/postgres.js';
import { createLogger } from '../src/log.js';
import { eventually, freshPostgres } from './processes.js';

const adminUrl = process.env.TEST_DATABASE_URL;
const log = createLogger('silent');

/** A role that writes down when it leads and resigns. */
const recorder = (name: string, events: string[]): LeaderRole => ({
  name,
  lead: async () => void events.push(`${name} leads`),
  resign: async () => void events.push(`${name} resigns`),
});

describe('SoleLeadership (one process on PGlite)', () => {
  it('leads from the start: a role leads when served and resigns at stop, in reverse', async () => {
    const events: string[] = [];
    const leadership = new SoleLeadership();
    await leadership.serve(recorder('feed', events));
    await leadership.serve(recorder('engine', events));
    expect(leadership.leader()).toEqual({ id: 'self', self: true });
    await leadership.stop();
    expect(events).toEqual(['feed leads', 'engine leads', 'engine resigns', 'feed resigns']);
  });
});

/**
 * Two processes' leaderships on one PostgreSQL database, each with its own pool as processes have.
 * test/engine-failover.test.ts shows the same with real processes and `kill -9`.
 */
describe.runIf(adminUrl)('PostgresLeadership', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp() {
    const postgres = await freshPostgres(adminUrl!);
    cleanups.push(() => postgres.drop());
    const candidate = async (name: string, events: string[]) => {
      const database: Database = await openDatabase({ databaseUrl: postgres.url });
      const leadership = new PostgresLeadership({
        databaseUrl: postgres.url,
        db: database.db,
        log,
        campaign: true,
        holder: name,
      });
      await leadership.serve(recorder(`${name} feed`, events));
      await leadership.serve(recorder(`${name} engine`, events));
      cleanups.push(async () => {
        await leadership.stop();
        await database.close();
      });
      return { leadership, database };
    };
    const epoch = async () =>
      Number(rowsOf(await postgres.database.db.execute(sql`SELECT epoch FROM engine_leadership WHERE id = 1`))[0]!.epoch);
    return { postgres, candidate, epoch };
  }

  it('one of two leads; stopping it hands the lead to the other, roles leading in order and resigning in reverse', async () => {
    const { candidate, epoch } = await setUp();
    const events: string[] = [];
    const a = await candidate('a', events);
    await a.leadership.start();
    await eventually(() => events.length === 2, 'a to lead');
    const b = await candidate('b', events);
    await b.leadership.start();
    await eventually(() => b.leadership.leader()?.id === 'a', 'b to know the leader');
    expect(a.leadership.leading).toBe(true);
    expect(b.leadership.leading).toBe(false);
    expect(b.leadership.leader()?.self).toBe(false);
    expect(await epoch()).toBe(1);

    await a.leadership.stop();
    await eventually(() => events.length === 6, 'b to lead');
    expect(events).toEqual([
      'a feed leads',
      'a engine leads',
      'a engine resigns',
      'a feed resigns',
      'b feed leads',
      'b engine leads',
    ]);
    expect(b.leadership.leader()).toEqual({ id: 'b', self: true });
    expect(await epoch()).toBe(2);
  });

  it('fencing: a leader whose epoch moved on while it was paused writes nothing and steps down', async () => {
    const { candidate } = await setUp();
    const events: string[] = [];
    const a = await candidate('a', events);
    await a.leadership.start();
    await eventually(() => events.length === 2, 'a to lead');
    await a.database.db.transaction((tx) => a.leadership.fence(tx));

    // Another process took over while this one did not notice (paused): it raised the epoch.
    await a.database.db.execute(sql`UPDATE engine_leadership SET epoch = epoch + 1 WHERE id = 1`);
    await expect(
      a.database.db.transaction(async (tx) => {
        await a.leadership.fence(tx);
        await tx.execute(sql`UPDATE engine_leadership SET holder = 'written by a lost leader' WHERE id = 1`);
      }),
    ).rejects.toBeInstanceOf(LeadershipLost);
    await eventually(() => events.length === 4, 'a to resign');
    expect(events.slice(2)).toEqual(['a engine resigns', 'a feed resigns']);
    expect(a.leadership.leading).toBe(false);
    const [row] = rowsOf(await a.database.db.execute(sql`SELECT holder FROM engine_leadership WHERE id = 1`));
    expect(row!.holder).not.toBe('written by a lost leader');
  });

  it('a take-over ends a lost leader’s transaction still holding the epoch, so it cannot commit after', async () => {
    const { postgres, candidate, epoch } = await setUp();
    const events: string[] = [];
    const a = await candidate('a', events);
    await a.leadership.start();
    await eventually(() => events.length === 2, 'a to lead');
    const b = await candidate('b', events);
    await b.leadership.start();

    // A's engine is in the middle of a batch (the fence passed, money not yet written) when it loses its lock.
    let finish: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let fenced: () => void = () => undefined;
    const inFence = new Promise<void>((resolve) => (fenced = resolve));
    const batch = a.database.db.transaction(async (tx) => {
      await a.leadership.fence(tx);
      fenced();
      await held;
      await tx.execute(sql`UPDATE engine_leadership SET holder = 'written by a lost leader' WHERE id = 1`);
    });
    batch.catch(() => undefined);
    await inFence;
    await postgres.database.db.execute(sql`
      SELECT pg_terminate_backend(pid) FROM pg_locks
      WHERE locktype = 'advisory' AND objid = 1 AND objsubid = 2 AND granted
        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`);

    await eventually(() => events.includes('b engine leads'), 'b to lead', { timeoutMs: 15_000 });
    expect(await epoch()).toBe(2);
    finish();
    await expect(batch).rejects.toThrow();
    const [row] = rowsOf(await postgres.database.db.execute(sql`SELECT holder FROM engine_leadership WHERE id = 1`));
    expect(row!.holder).toBe('b');
  });
});
