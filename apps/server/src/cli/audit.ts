import { verifyAuditChain } from '../modules/audit/verify.js';
import { deriveKey } from '../secret.js';
import { fail, loadCliConfig, readArgs, runAsScript, withDatabase, type CliIo } from './command.js';

/**
 * npm run audit -- verify
 * Walks the whole audit chain of the server's database (DATABASE_URL, or DATA_DIR for PGlite with the
 * server stopped) under the app secret's key: prints `OK <rows> rows, head <hash>` (and how many rows
 * predate the keyed chain) and exits 0, or `BROKEN at id <id>` and exits 1.
 */
const USAGE = `usage: npm run audit -- verify
  verify    recompute every audit row's keyed hash in id order; exit 0 when whole, 1 at the first broken row
            (write down the rows and head it prints: a later run must show the same head at that row)
  Database: DATABASE_URL with the server's APP_SECRET, or DATA_DIR (embedded PGlite: stop the server first).`;

export async function auditMain(io: CliIo): Promise<number> {
  const args = readArgs(io, USAGE, {});
  if (args.positionals.length !== 1 || args.positionals[0] !== 'verify') fail(USAGE, 2);
  // A configuration or a database it cannot open is a usage error here (2): 1 means a broken chain.
  const config = loadCliConfig(io, { appSecret: true, exitCode: 2 });
  return withDatabase(
    io,
    config,
    async (database) => {
      const report = await verifyAuditChain(database.db, deriveKey(config, 'audit-chain'));
      if (report.ok) {
        const legacy = report.legacy_rows > 0 ? `; the first ${report.legacy_rows} predate the keyed chain` : '';
        io.out(`OK ${report.rows} rows, head ${report.head ?? 'none'}${legacy}`);
        return 0;
      }
      io.out(`BROKEN at id ${report.broken_at} (row ${report.rows} of the chain)`);
      return 1;
    },
    2,
  );
}

await runAsScript(import.meta.url, auditMain);
