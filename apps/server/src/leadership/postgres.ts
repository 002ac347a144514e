import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Db, Executor } from '../db/client.js';
import { rowsOf } from '../db/rows.js';
import type { EngineLeader } from '../observability/health.js';
import { engineLeaderChangesTotal } from '../observability/metrics.js';
import { LeadershipLost, type LeaderRole, type Leadership } from './leadership.js';

/** The advisory lock's two keys: 'pipw' and the engine. Advisory locks are per database. */
const LOCK_CLASS = 0x70697077;
const LOCK_ID = 1;
/** A standby (or a gateway) looks for the lock, and at its holder, this often. */
export const LEADER_POLL_MS = 500;
/** The leader shows its lock connection is alive this often... */
export const LEADER_HEARTBEAT_MS = 1_000;
/**
 * ...and PostgreSQL ends that connection, releasing the lock, when it stays idle this long: a paused
 * or stranded leader loses the lead after at most this, and a standby takes it within LEADER_POLL_MS.
 * A killed leader's connection closes at once.
 */
export const LEADER_SESSION_TIMEOUT_MS = 3_500;
/** Waiting this long for the epoch row means a transaction of a lost leader holds it: it is ended. */
const EPOCH_LOCK_WAIT_MS = 1_000;

/**
 * Engine leadership on PostgreSQL. The leader holds `pg_try_advisory_lock` on a connection of its own
 * (not the pool's), kept alive by a heartbeat; the lock lasts exactly as long as that session, which
 * PostgreSQL ends when the process dies (its socket closes), when it falls silent for
 * LEADER_SESSION_TIMEOUT_MS (paused, or cut off: idle_session_timeout and TCP keepalives), and the
 * process itself drops it on any error of that connection. Standbys try the lock every LEADER_POLL_MS.
 *
 * Fencing: the lock alone cannot stop a leader that was paused while it worked and wakes up after a
 * standby took over. So each take-over raises `engine_leadership.epoch` (after getting the lock) and
 * every engine transaction that moves money first reads that row FOR SHARE and goes on only if it
 * still holds this process's epoch. The new leader's UPDATE waits for such transactions to end (a
 * lost leader's one still open after EPOCH_LOCK_WAIT_MS is ended), and once it commits no transaction
 * of the old leader can pass the check; the new leader reads the open orders after that, so it sees
 * everything the old one committed.
 *
 * With `campaign` false (a gateway) it only watches who leads, for /readyz and the metrics.
 */
export class PostgresLeadership implements Leadership {
  private readonly roles: LeaderRole[] = [];
  private client: pg.Client | undefined;
  /** The epoch this process raised the row to while it leads. */
  private epoch: number | undefined;
  private known: { holder: string; epoch: number } | undefined;
  /** The last epoch seen, to count leader changes. */
  private seenEpoch: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> = Promise.resolve();
  /** Leading and resigning, one at a time. */
  private transitions: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly holder: string;

  constructor(
    private readonly deps: {
      databaseUrl: string;
      db: Db;
      log: FastifyBaseLogger;
      campaign: boolean;
      /** How this process is named to the others (default `host:pid`). */
      holder?: string;
    },
  ) {
    this.holder = deps.holder ?? `${hostname()}:${process.pid}`;
  }

  get leading() {
    return this.epoch !== undefined;
  }

  leader(): EngineLeader | undefined {
    if (this.leading) return { id: this.holder, self: true };
    return this.known ? { id: this.known.holder, self: false } : undefined;
  }

  async serve(role: LeaderRole) {
    this.roles.push(role);
    if (this.leading) await this.transition(() => role.lead());
  }

  async fence(tx: Executor) {
    const epoch = this.epoch;
    if (epoch === undefined) throw new LeadershipLost('this process does not lead the engine');
    const [row] = rowsOf(await tx.execute(sql`SELECT epoch FROM engine_leadership WHERE id = 1 FOR SHARE`));
    if (Number(row?.epoch) !== epoch) {
      void this.lose('another process took the lead');
      throw new LeadershipLost('another process leads the engine');
    }
  }

  async start() {
    this.schedule(0);
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.round;
    await this.lose('stopping');
    this.dropClient();
  }

  private schedule(delay: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.round = this.step().finally(() => this.schedule(this.leading ? LEADER_HEARTBEAT_MS : LEADER_POLL_MS));
    }, delay);
  }

  private async step() {
    try {
      if (this.leading) await this.lockClient().then((client) => client.query('SELECT 1'));
      else if (this.deps.campaign) await this.tryLead();
      else await this.observe();
    } catch (error) {
      if (this.leading) await this.lose('its lock connection failed', error);
      else this.dropClient();
      this.deps.log.warn({ err: error }, 'engine leadership: database unreachable');
    }
  }

  /** The dedicated connection, opened with the timeouts that make PostgreSQL release a silent holder's lock. */
  private async lockClient(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({
      connectionString: this.deps.databaseUrl,
      keepAlive: true,
      query_timeout: LEADER_SESSION_TIMEOUT_MS,
      connectionTimeoutMillis: LEADER_SESSION_TIMEOUT_MS,
    });
    client.on('error', (error) => {
      if (this.client !== client) return;
      if (this.leading) void this.lose('its lock connection failed', error);
      else this.dropClient();
    });
    client.on('end', () => {
      if (this.client === client && this.leading) void this.lose('its lock connection closed');
    });
    await client.connect();
    await client.query(
      `SET idle_session_timeout = ${LEADER_SESSION_TIMEOUT_MS};
       SET tcp_keepalives_idle = 1; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 2`,
    );
    this.client = client;
    return client;
  }

  private dropClient() {
    const client = this.client;
    this.client = undefined;
    client?.end().catch(() => undefined);
  }

  private async tryLead() {
    const client = await this.lockClient();
    const { rows } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS got', [LOCK_CLASS, LOCK_ID]);
    if (!rows[0]?.got) {
      await this.observe();
      return;
    }
    const epoch = await this.raiseEpoch(client);
    this.epoch = epoch;
    this.noteEpoch(epoch);
    this.known = { holder: this.holder, epoch };
    this.deps.log.info({ epoch, holder: this.holder }, 'engine leadership: this process leads');
    // Not awaited: the heartbeat must go on while the roles start (the engine's load can take long).
    void this.transition(async () => {
      for (const role of this.roles) {
        if (this.epoch !== epoch) return;
        await role.lead();
      }
    }).catch((error: unknown) => this.lose('a role failed to lead', error));
  }

  /** Raises the epoch: waits for engine transactions still checking the old one, ending a lost leader's. */
  private async raiseEpoch(client: pg.Client): Promise<number> {
    await client.query(`SET lock_timeout = ${EPOCH_LOCK_WAIT_MS}`);
    const raise = () =>
      client.query<{ epoch: string }>(
        'UPDATE engine_leadership SET epoch = epoch + 1, holder = $1, since = now() WHERE id = 1 RETURNING epoch',
        [this.holder],
      );
    try {
      return Number((await raise()).rows[0]!.epoch);
    } catch (error) {
      // 55P03: lock_not_available. Only the fence locks this row (FOR SHARE takes RowShareLock on the
      // table), and holding the advisory lock proves that those transactions are a lost leader's.
      if ((error as { code?: string }).code !== '55P03') throw error;
      await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_locks
         WHERE relation = 'engine_leadership'::regclass AND mode = 'RowShareLock' AND pid <> pg_backend_pid()`,
      );
      return Number((await raise()).rows[0]!.epoch);
    } finally {
      await client.query('SET lock_timeout = 0');
    }
  }

  /** Who holds the lock now, from the epoch row and PostgreSQL's lock table. */
  private async observe() {
    const [row] = rowsOf(
      await this.deps.db.execute(sql`
        SELECT e.epoch, e.holder, EXISTS (
          SELECT 1 FROM pg_locks l
          WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
            AND l.classid = ${LOCK_CLASS}::oid AND l.objid = ${LOCK_ID}::oid
            AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
        ) AS held
        FROM engine_leadership e WHERE e.id = 1`),
    );
    if (!row) return;
    const epoch = Number(row.epoch);
    this.noteEpoch(epoch);
    this.known = row.held === true && typeof row.holder === 'string' ? { holder: row.holder, epoch } : undefined;
  }

  private noteEpoch(epoch: number) {
    if (this.seenEpoch !== undefined && epoch !== this.seenEpoch) engineLeaderChangesTotal.inc();
    this.seenEpoch = epoch;
  }

  /** Stops leading: the roles resign (in reverse) and the lock goes with its connection. */
  private lose(why: string, error?: unknown): Promise<void> {
    if (!this.leading) return this.transitions;
    this.epoch = undefined;
    this.known = undefined;
    this.dropClient();
    this.deps.log.warn({ err: error, holder: this.holder }, `engine leadership: this process no longer leads (${why})`);
    return this.transition(async () => {
      for (const role of [...this.roles].reverse()) {
        await role
          .resign()
          .catch((failure: unknown) => this.deps.log.error({ err: failure, role: role.name }, 'resigning failed'));
      }
    });
  }

  private transition(work: () => Promise<void>): Promise<void> {
    this.transitions = this.transitions.then(work, work);
    return this.transitions;
  }
}
