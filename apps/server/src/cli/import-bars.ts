import { createReadStream, statSync } from 'node:fs';
import readline from 'node:readline';
import { KLINE_PERIODS, type KlinePeriod } from '@pipwise/domain';
import { eq } from 'drizzle-orm';
import { instruments } from '../db/schema.js';
import { detectSeparator, importBars, isHeader, parseBarLine, type RowError } from '../modules/market/import.js';
import type { Bar } from '../modules/market/klines.js';
import { seedMarket } from '../modules/market/seed.js';
import { fail, loadCliConfig, readArgs, runAsScript, withDatabase, type CliIo } from './command.js';

/**
 * npm run import-bars -- --code EURUSD --period 1min FILE.csv
 * Loads historical bars into the database of DATA_DIR (PGlite; stop the server first, PGlite allows one
 * process) or DATABASE_URL. Every row is checked before anything is written; then one transaction.
 */
const USAGE = `usage: npm run import-bars -- --code <CODE> --period <${KLINE_PERIODS.join('|')}> FILE.csv
  CSV rows (UTC): date,time,open,high,low,close,volume  or  datetime,open,high,low,close,volume
  Database: DATA_DIR (PGlite, server stopped) or DATABASE_URL. See docs/operations.md.`;
const MAX_REPORTED_ERRORS = 20;

/** A one-line progress bar on a terminal; silent when the output is a file or a pipe. */
function progress(io: CliIo, label: string) {
  const terminal = io.terminal;
  let lastPercent = -1;
  return {
    update(done: number, total: number) {
      const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
      if (!terminal || percent === lastPercent) return;
      lastPercent = percent;
      const width = 30;
      const filled = Math.round((percent / 100) * width);
      terminal.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(percent).padStart(3)}%`);
    },
    done() {
      if (terminal && lastPercent >= 0) terminal.write('\n');
    },
  };
}

export async function importBarsMain(io: CliIo) {
  const args = readArgs(io, USAGE, { code: { type: 'string' }, period: { type: 'string' } });
  const code = args.values.code?.toUpperCase();
  const period = args.values.period as KlinePeriod | undefined;
  const file = args.positionals[0];
  if (!code || !period || !file || args.positionals.length > 1) fail(USAGE, 2);
  if (!KLINE_PERIODS.includes(period)) fail(`unknown period "${period}"\n${USAGE}`, 2);
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    fail(`cannot read ${file}`);
  }

  await withDatabase(io, loadCliConfig(io), async (database) => {
    await seedMarket(database.db);
    const [instrument] = await database.db
      .select({ id: instruments.id, precision: instruments.pricePrecision })
      .from(instruments)
      .where(eq(instruments.code, code))
      .limit(1);
    if (!instrument) fail(`unknown instrument code ${code}`);

    const checking = progress(io, `checking ${file}`);
    const bars: Bar[] = [];
    const errors: RowError[] = [];
    let separator: string | undefined;
    let lineNumber = 0;
    let bytes = 0;
    const lines = readline.createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
    for await (const raw of lines) {
      lineNumber++;
      bytes += Buffer.byteLength(raw) + 1;
      if (lineNumber % 5000 === 0) checking.update(bytes, size);
      const line = raw.replace(/^\uFEFF/, '').trim();
      if (line === '') continue;
      if (separator === undefined) {
        separator = detectSeparator(line);
        if (isHeader(line)) continue;
      }
      const result = parseBarLine(line, separator, period, instrument.precision);
      if ('reason' in result) {
        errors.push({ line: lineNumber, reason: result.reason });
        continue;
      }
      const previous = bars.at(-1);
      if (previous && result.bar.time <= previous.time) {
        errors.push({ line: lineNumber, reason: 'rows must be in ascending time order without duplicates' });
        continue;
      }
      bars.push(result.bar);
    }
    checking.update(size, size);
    checking.done();

    if (errors.length > 0) {
      for (const error of errors.slice(0, MAX_REPORTED_ERRORS)) io.err(`${file}:${error.line}: ${error.reason}`);
      if (errors.length > MAX_REPORTED_ERRORS) io.err(`… and ${errors.length - MAX_REPORTED_ERRORS} more`);
      fail(`${errors.length} row(s) rejected; nothing was imported.`);
    }
    if (bars.length === 0) fail(`${file} holds no bars; nothing was imported.`);

    const writing = progress(io, `writing ${code} ${period}`);
    const result = await importBars(database.db, instrument.id, period, instrument.precision, bars, (done, total) =>
      writing.update(done, total),
    );
    writing.done();
    const span = `${new Date(bars[0]!.time * 1000).toISOString()} → ${new Date(bars.at(-1)!.time * 1000).toISOString()}`;
    const rebuilt = Object.entries(result.aggregated)
      .map(([longer, count]) => `${longer} ${count}`)
      .join(', ');
    io.out(`imported ${result.written} ${period} bars of ${code} (${span}); rebuilt ${rebuilt || 'no longer periods'}`);
  });
}

await runAsScript(import.meta.url, importBarsMain);
