import { verifyAuditChain } from '../modules/audit/verify.js';
import { fail, loadCliConfig, readArgs, runCommand, withDatabase } from './command.js';

/**
 * npm run audit -- verify
 * Walks the whole audit chain of the server's database (DATABASE_URL, or DATA_DIR for PGlite with the
 * server stopped): prints `OK <rows> rows` and exits 0, or `BROKEN at id <id>` and exits 1.
 */
const USAGE = `usage: npm run audit -- verify
  verify    recompute every audit row's hash in id order; exit 0 when whole, 1 at the first broken row
  Database: DATABASE_URL, or DATA_DIR (embedded PGlite: stop the server first).`;

async function main(): Promise<number> {
  const args = readArgs(USAGE, {});
  if (args.positionals.length !== 1 || args.positionals[0] !== 'verify') fail(USAGE, 2);
  // A configuration or a database it cannot open is a usage error here (2): 1 means a broken chain.
  return withDatabase(
    loadCliConfig({ exitCode: 2 }),
    async (database) => {
      const report = await verifyAuditChain(database.db);
      if (report.ok) {
        console.log(`OK ${report.rows} rows`);
        return 0;
      }
      console.log(`BROKEN at id ${report.broken_at} (row ${report.rows} of the chain)`);
      return 1;
    },
    2,
  );
}

await runCommand(main);
