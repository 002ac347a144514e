/**
 * The server as `npm start` builds it (every module, the simulated feed, the risk engine), on the
 * PostgreSQL of DATABASE_URL, without the first-start chart back-fill (irrelevant to order throughput
 * and minutes long). Started by bench/orders.ts as a separate process; prints "ready" when listening.
 */
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.js';
import { systemClock } from '../apps/server/src/clock.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { seedReferenceData } from '../apps/server/src/db/seed.js';
import { createContext } from '../apps/server/src/modules.js';
import { InMemoryEventBus } from '../apps/server/src/realtime/bus.js';

// A benchmark's own secret: it signs no link anyone keeps.
const config = loadConfig({ APP_SECRET: randomBytes(32).toString('hex'), ...process.env });
const log = pino({ level: config.logLevel });
const database = await openDatabase({ databaseUrl: config.databaseUrl });
await database.migrate();
await seedReferenceData(database.db);
const bus = new InMemoryEventBus((error) => log.error({ err: error }, 'event handler failed'));
const ctx = await createContext({
  config,
  database,
  bus,
  clock: systemClock,
  log,
  marketFeed: { source: 'simulated', backfill: false },
});
const app = await buildApp(ctx);
for (const module of ctx.modules) await module.seed?.();
for (const module of ctx.modules) await module.start?.();
await app.listen({ port: config.port, host: config.host });
console.log('ready');

process.on('SIGTERM', () => {
  void (async () => {
    await app.close();
    for (const module of [...ctx.modules].reverse()) await module.stop?.();
    await bus.close();
    await database.close();
    process.exit(0);
  })();
});
