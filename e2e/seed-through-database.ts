import { inject } from 'vitest';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { news } from '../apps/server/src/db/schema.js';
import { startServer, stopServer } from './server-process.js';

/*
 * The only place where browser tests reach past the product into the server's code and database.
 * Everything else seeds and acts through the API and the screens, as a user does. These helpers exist
 * for what no API does yet: writing news (the back office comes later). When that API exists, this
 * helper goes and the tests call it. Accounts are funded through the cashier (cashier.ts).
 */

/**
 * Runs `change` on the server's own database with the server stopped (PGlite has one writer), then
 * starts the server again on the same data.
 */
export async function whileServerStopped(change: (db: Database['db']) => Promise<void>) {
  const place = inject('server');
  await stopServer(place);
  const database = await openDatabase({ dataDir: place.dataDir });
  try {
    await change(database.db);
  } finally {
    await database.close();
  }
  await startServer(place);
}

/** Publishes an article as the back office will, in whatever markup the test needs to see handled. */
export function publishNewsWhileServerStopped(article: { lang: string; title: string; description: string; content: string }) {
  return whileServerStopped(async (db) => {
    await db.insert(news).values({ ...article, published: true });
  });
}
