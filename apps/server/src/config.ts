import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseProxyAddress, type TrustProxy } from './http/client-address.js';

/**
 * The only reader of the environment. Every setting is parsed and validated here once, at start-up;
 * a bad value stops the process with a one-line reason naming the variable.
 */
const boolean = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine((value) => protocols.some((p) => value.startsWith(`${p}:`)), {
      message: `must start with ${protocols.join(': or ')}:`,
    });

/**
 * TRUST_PROXY: how many proxies stand in front (`1`), or their addresses and subnets (`10.0.0.0/8,::1`).
 * `true` is refused: it believed the left-most X-Forwarded-For entry, which the client writes itself.
 */
const trustProxy = z.string().transform((value, context): TrustProxy => {
  const text = value.trim().toLowerCase();
  if (text === 'false' || text === 'no' || text === '0') return false;
  if (text === 'true' || text === 'yes') {
    context.addIssue({
      code: 'custom',
      message:
        'trusting every proxy lets a client choose its own address; write the number of proxies in front (TRUST_PROXY=1) or their addresses (TRUST_PROXY=10.0.0.0/8)',
    });
    return z.NEVER;
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops <= 16) return { hops };
    context.addIssue({ code: 'custom', message: 'at most 16 proxies' });
    return z.NEVER;
  }
  const addresses = text.split(',').map((entry) => entry.trim());
  const bad = addresses.find((entry) => parseProxyAddress(entry) === null);
  if (bad === undefined) return { addresses };
  context.addIssue({
    code: 'custom',
    message: `${JSON.stringify(bad)} is not an address or subnet; write a number of proxies (1) or addresses (10.0.0.0/8,::1)`,
  });
  return z.NEVER;
});

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z.string().min(3).default('Pipwise <no-reply@pipwise.local>'),
  ROLE: z.enum(['all', 'gateway', 'engine']).default('all'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TRUST_PROXY: trustProxy.default(false),
  FEED_SEED: z.coerce.number().int().default(20261121),
  WEB_DIST: z.string().optional(),
  ADMIN_DIST: z.string().optional(),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  CAPTCHA_REQUIRED: boolean.default(true),
  /** Comma-separated origins (https://app.example) whose pages may open the socket besides the server's own. */
  ALLOWED_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(url(['http', 'https']).transform((origin) => new URL(origin).origin)))
    .default([]),
  SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(100),
  /**
   * Connections the kernel queues for this process before it accepts them. Node's default (511) overflowed
   * in a reconnect storm, and a dropped handshake comes back only after TCP's retransmit (1 s, 3 s, 7 s…).
   * The kernel caps it at net.core.somaxconn.
   */
  LISTEN_BACKLOG: z.coerce.number().int().min(1).max(65_535).default(4096),
  /** Socket upgrades admitted per second on average, and in one burst; past them a 503 with Retry-After. */
  SOCKET_UPGRADES_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(3000),
  SOCKET_UPGRADE_BURST: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** Signs upload links and encrypts ID numbers: 32 random bytes or more, hex or base64. */
  APP_SECRET: z
    .string()
    .transform((value) => Buffer.from(value, /^[0-9a-f]+$/i.test(value) ? 'hex' : 'base64'))
    .refine((key) => key.length >= 32, { message: 'must be at least 32 bytes (64 hex digits)' })
    .optional(),
  /** A port of its own for GET /metrics (Prometheus), apart from the public one. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** Bearer token /metrics asks for: a secret, so long enough not to be guessed. */
  METRICS_TOKEN: z
    .string()
    .min(32, { message: 'must be at least 32 characters (openssl rand -hex 32)' })
    .refine((value) => /^[\x21-\x7e]+$/.test(value), { message: 'must be printable ASCII without spaces' })
    .optional(),
  /** /readyz fails when no quote is younger than this while a market is open. */
  READY_FEED_MAX_AGE_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(15_000),
  /** Test hook: kill this process (SIGKILL) once this many copies of a provider's fill were placed, once per data folder. */
  COPY_CRASH_AFTER_COPIES: z.coerce.number().int().min(0).optional(),
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  role: 'all' | 'gateway' | 'engine';
  logLevel: string;
  sessionTtlDays: number;
  /** The proxies whose X-Forwarded-For entries name the client (`http/client-address.ts`). */
  trustProxy: TrustProxy;
  feedSeed: number;
  webDist: string | undefined;
  /** The back office's build, served under /admin/. */
  adminDist: string | undefined;
  shutdownGraceMs: number;
  /** Whether sending a verification code needs a solved image captcha. */
  captchaRequired: boolean;
  /** Origins besides the request's own host allowed to open the socket. */
  allowedOrigins: string[];
  /** Sockets one client address may hold open at once. */
  socketsPerAddress: number;
  listenBacklog: number;
  socketUpgradesPerSecond: number;
  socketUpgradeBurst: number;
  /** The key material of `deriveKey`; `ensureAppSecret` fills it from the data folder when unset. */
  appSecret: Buffer | undefined;
  /** Where /metrics is served apart from the public port (unset: on the public port, behind `metricsToken`). */
  metricsPort: number | undefined;
  metricsHost: string;
  /** The bearer token /metrics asks for; with neither it nor `metricsPort`, /metrics is not served. */
  metricsToken: string | undefined;
  /** How old the newest quote may be, while some market is open, for /readyz to answer ready. */
  readyFeedMaxAgeMs: number;
  /** The crash test's hook (COPY_CRASH_AFTER_COPIES); unset in production. */
  copyCrashAfterCopies: number | undefined;
};

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid ${variable}=${JSON.stringify(present[variable] ?? '')}: ${issue?.message ?? 'invalid value'}`);
  }
  const e = parsed.data;
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT) {
    throw new ConfigError(`Invalid METRICS_PORT=${JSON.stringify(present.METRICS_PORT)}: must differ from PORT`);
  }
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    role: e.ROLE,
    logLevel: e.LOG_LEVEL,
    sessionTtlDays: e.SESSION_TTL_DAYS,
    trustProxy: e.TRUST_PROXY,
    feedSeed: e.FEED_SEED,
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    adminDist: e.ADMIN_DIST ? path.resolve(e.ADMIN_DIST) : undefined,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    captchaRequired: e.CAPTCHA_REQUIRED,
    allowedOrigins: e.ALLOWED_ORIGINS,
    socketsPerAddress: e.SOCKETS_PER_ADDRESS,
    listenBacklog: e.LISTEN_BACKLOG,
    socketUpgradesPerSecond: e.SOCKET_UPGRADES_PER_SECOND,
    socketUpgradeBurst: e.SOCKET_UPGRADE_BURST,
    appSecret: e.APP_SECRET,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    metricsToken: e.METRICS_TOKEN,
    readyFeedMaxAgeMs: e.READY_FEED_MAX_AGE_MS,
    copyCrashAfterCopies: e.COPY_CRASH_AFTER_COPIES,
  };
}

/** The builds of the web app and the back office in this checkout, which the server serves unless told otherwise. */
const here = path.dirname(fileURLToPath(import.meta.url));
const BUILT_APPS = { WEB_DIST: path.resolve(here, '../../web/dist'), ADMIN_DIST: path.resolve(here, '../../admin/dist') };

/**
 * The configuration from this process's environment. The server (`servesBuiltApps`) serves the
 * checkout's builds where WEB_DIST / ADMIN_DIST are unset; the command line serves nothing.
 */
export function loadProcessConfig({ servesBuiltApps = false } = {}): Config {
  return loadConfig(servesBuiltApps ? { ...BUILT_APPS, ...process.env } : process.env);
}
