import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../src/db/client.js';
import { auditLog, ledgerEntries, outboxMessages, reviewClaims, users } from '../src/db/schema.js';

/** The audit rows about one target, oldest first. */
export const auditOf = (db: Db, targetType: string, targetId: number | string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, String(targetId))))
    .orderBy(asc(auditLog.id));

/** What was mailed (or texted) to the user, oldest first. */
export async function mailTo(db: Db, userId: number) {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return db.select().from(outboxMessages).where(eq(outboxMessages.destination, user!.email!)).orderBy(asc(outboxMessages.id));
}

export const setLanguage = (db: Db, userId: number, lang: string) => db.update(users).set({ lang }).where(eq(users.id, userId));

export const uidOf = async (db: Db, userId: number) =>
  (await db.select({ uid: users.uid }).from(users).where(eq(users.id, userId)))[0]!.uid;

/** The review claims held on one item (any queue). */
export const claimsOn = (db: Db, itemId: number | string) =>
  db
    .select()
    .from(reviewClaims)
    .where(eq(reviewClaims.itemId, String(itemId)));

/** The ledger rows a deposit, withdrawal or adjustment posted. */
export const ledgerOf = (db: Db, refType: string, refId: number) =>
  db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.refType, refType), eq(ledgerEntries.refId, refId)));
