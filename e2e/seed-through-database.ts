import { eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../apps/server/src/db/client.js';
import { news, users } from '../apps/server/src/db/schema.js';
import { WalletService } from '../apps/server/src/modules/wallet/service.js';
import { startServer, stopServer } from './server-process.js';

/*
 * The only place where browser tests reach past the product into the server's code and database.
 * Everything else seeds and acts through the API and the screens, as a user does. These helpers exist
 * for what no API does yet: crediting a real account (the cashier comes later) and writing news (the
 * back office comes later). When those APIs exist, these helpers go and the tests call the APIs.
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

/**
 * Credits a real account as an approved deposit would: the money is posted through the server's own
 * WalletService, so the ledger row and the balance change are written in one transaction, as the
 * cashier will write them.
 */
export function depositWhileServerStopped(email: string, amount: string) {
  return whileServerStopped(async (db) => {
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
    if (!user) throw new Error(`no user ${email}`);
    const wallet = new WalletService(db);
    await db.transaction((tx) => wallet.post(tx, { userId: user.id, amount, type: 'deposit' }));
  });
}

/** Publishes an article as the back office will, in whatever markup the test needs to see handled. */
export function publishNewsWhileServerStopped(article: { lang: string; title: string; description: string; content: string }) {
  return whileServerStopped(async (db) => {
    await db.insert(news).values({ ...article, published: true });
  });
}
