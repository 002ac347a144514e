import pino, { type DestinationStream, type Logger } from 'pino';

/** Properties of driver errors that carry the values of a query (a password hash, a code, an address). */
const VALUE_KEYS = new Set(['params', 'parameters', 'detail']);
/** drizzle writes a failed query's values into the message (and so the stack) after the SQL. */
const PARAMS_LINE = /\nparams: [\s\S]*?(?=\n {4}at |\ncaused by: |$)/g;

function scrub(value: unknown, depth: number): void {
  if (!value || typeof value !== 'object' || depth > 4) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (VALUE_KEYS.has(key)) delete record[key];
    else if (typeof field === 'string') record[key] = field.replace(PARAMS_LINE, '\nparams: [redacted]');
    else scrub(field, depth + 1);
  }
}

/**
 * Errors are logged with their SQL (it helps) but never with its values: a failed insert would
 * otherwise write a user's data, a token hash or a code into the log.
 */
export function errorSerializer(error: unknown) {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  scrub(serialized, 0);
  return serialized;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Requests are logged by path: query strings may hold secrets (a demo account's re-entry secret). */
export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: request.url.split('?')[0],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The server's logger; `destination` lets tests read what would be written. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, serializers: { err: errorSerializer, req: requestSerializer } };
  return destination ? pino(options, destination) : pino(options);
}
