import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.js';
import { leastPrivilegeGrants } from '../db/roles.js';
import { rowsOf } from '../db/rows.js';
import { databaseName, fail, loadCliConfig, readArgs, runAsScript, type CliIo } from './command.js';

/**
 * DATABASE_URL=<the owner's URL> npm run db:roles -- --role <app role>
 * As the tables' owner: applies the migrations, then grants the role the server connects as what it
 * needs, with only INSERT and SELECT on the audit log (`db/roles.ts`). Run it after every upgrade.
 */
const USAGE = `usage: DATABASE_URL=<owner's url> npm run db:roles -- --role <name>
  Applies the migrations as the tables' owner, then grants <name> (an existing role that owns nothing)
  read and write on every table but the audit log, where it may only INSERT and SELECT.
  Servers then connect as <name>. Run again after every upgrade.`;

export async function dbRolesMain(io: CliIo) {
  const args = readArgs(io, USAGE, { role: { type: 'string' } });
  const role = args.values.role;
  if (!role || args.positionals.length > 0) fail(USAGE, 2);
  let grants: string[];
  try {
    grants = leastPrivilegeGrants(role);
  } catch (error) {
    fail((error as Error).message, 2);
  }
  const config = loadCliConfig(io, { exitCode: 2 });
  if (!config.databaseUrl) fail('db:roles is for PostgreSQL: set DATABASE_URL to the URL of the tables’ owner', 2);
  const database = await openDatabase({ databaseUrl: config.databaseUrl });
  try {
    io.err(`database: ${databaseName(config)}`);
    await database.migrate();
    const [found] = rowsOf(
      await database.db.execute(sql`
        SELECT r.rolsuper AS superuser, pg_has_role(r.rolname, t.tableowner, 'USAGE') AS owner
        FROM pg_roles r, pg_tables t
        WHERE r.rolname = ${role} AND t.schemaname = 'public' AND t.tablename = 'audit_log'`),
    );
    if (!found) fail(`no role ${role}: create it first (CREATE ROLE ${role} LOGIN PASSWORD '…')`);
    // Either could still rewrite the log: a superuser passes every privilege, an owner can ALTER the table.
    if (found.superuser || found.owner)
      fail(`${role} is a superuser or owns the tables: the server must connect as a role that does not`);
    await database.db.transaction(async (tx) => {
      for (const grant of grants) await tx.execute(sql.raw(grant));
    });
    io.out(`${role}: INSERT and SELECT on audit_log, read and write on the other tables`);
  } finally {
    await database.close();
  }
}

await runAsScript(import.meta.url, dbRolesMain);
