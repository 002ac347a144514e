import { buildApp } from './app.js';
import { systemClock } from './clock.js';
import { ConfigError, loadProcessConfig, type Config } from './config.js';
import { DataDirInUseError, openDatabase } from './db/client.js';
import { entryOptions } from './entry-options.js';
import { seedReferenceData } from './db/seed.js';
import { PostgresLeadership } from './leadership/postgres.js';
import { createLogger } from './log.js';
import { createContext } from './modules.js';
import { enrolFirstOperator } from './modules/operators/module.js';
import { guardProcess } from './process-guard.js';
import { ensureAppSecret } from './secret.js';
import { InMemoryEventBus, RedisEventBus } from './realtime/bus.js';

let config: Config;
try {
  config = ensureAppSecret(loadProcessConfig({ servesBuiltApps: true }));
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`pipwise: ${error.message}`);
    process.exit(1);
  }
  throw error;
}

const log = createLogger(config.logLevel);
guardProcess(process, log);
let database: Awaited<ReturnType<typeof openDatabase>>;
try {
  database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
} catch (error) {
  // Another server (or the command line) has the embedded database open.
  if (error instanceof DataDirInUseError) {
    console.error(`pipwise: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
await database.migrate();
await seedReferenceData(database.db);

const onBusError = (error: unknown, topic: string) => log.error({ err: error, topic }, 'event handler failed');
const bus = config.redisUrl ? new RedisEventBus(config.redisUrl, onBusError, log) : new InMemoryEventBus(onBusError);
// On PostgreSQL the engine processes elect one leader (a gateway only watches); PGlite has one process.
const leadership = config.databaseUrl
  ? new PostgresLeadership({ databaseUrl: config.databaseUrl, db: database.db, log, campaign: config.role !== 'gateway' })
  : undefined;
const ctx = await createContext({ config, database, bus, clock: systemClock, log, leadership, ...entryOptions });
let started = false;
const app = await buildApp(ctx, { started: () => started });
// Alive on /healthz while the modules start; the rest waits for them (app.ts).
await app.listen({ port: config.port, host: config.host, backlog: config.listenBacklog });

for (const module of ctx.modules) await module.seed?.();
for (const module of ctx.modules) await module.start?.();
await ctx.leadership.start();
await enrolFirstOperator(ctx.operators, (line) => console.log(line), `http://localhost:${config.port}`);
started = true;
log.info(
  { database: database.kind, role: config.role, dataDir: config.dataDir },
  `Pipwise listening on http://localhost:${config.port}`,
);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    log.error('shutdown grace period over, exiting');
    process.exit(1);
  }, config.shutdownGraceMs);
  force.unref();
  await app.close();
  // Hands the engine over at once: the feed and the engine stop, the lock goes, a standby takes it.
  await ctx.leadership.stop();
  for (const module of [...ctx.modules].reverse()) await module.stop?.();
  await bus.close();
  await database.close();
  log.info('stopped');
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
