import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.js';
import { systemClock } from '../apps/server/src/clock.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/db/client.js';
import { seedReferenceData } from '../apps/server/src/db/seed.js';
import { createContext } from '../apps/server/src/modules.js';
import { ManualFeed } from '../apps/server/src/modules/market/feed.js';
import { InMemoryEventBus } from '../apps/server/src/realtime/bus.js';

/**
 * What the database benches share: a database of their own, `name`, dropped and created anew on the
 * PostgreSQL server of BENCH_DATABASE_URL, migrated and seeded; the server's modules built as `npm start`
 * builds them, on the manual price source (the bench sets the prices), not yet started.
 */
export async function manualContext(name: string) {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  if (!serverUrl) throw new Error('BENCH_DATABASE_URL (a PostgreSQL server to create the bench database on) is required');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;

  // A benchmark's own secret: it signs no link anyone keeps.
  const config = loadConfig({ APP_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn', DATABASE_URL: url.toString() });
  const log = pino({ level: 'warn' });
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
    marketFeed: { source: 'manual', backfill: false },
  });
  await buildApp(ctx);
  const feed = ctx.marketSource;
  if (!(feed instanceof ManualFeed)) throw new Error('the bench needs the manual price source');
  // The instruments are the market module's reference data: seeded first.
  for (const module of ctx.modules) await module.seed?.();
  const sql = new pg.Client({ connectionString: url.toString() });
  await sql.connect();
  return { ctx, bus, database, feed, sql, url };
}
