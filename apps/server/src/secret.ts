import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, type Config } from './config.js';

/** What each derived key is for: one purpose, one key, so a leak of one use never opens another. */
export type KeyPurpose = 'upload-links' | 'identity-documents' | 'operator-totp' | 'withdraw-rate-quotes' | 'audit-chain';

/**
 * The configuration with its app secret. Embedded (no DATABASE_URL), one process owns the data folder,
 * so a secret made on first start and kept there (mode 0600) is enough. With a database server several
 * gateways must share it, so it must come from APP_SECRET: a key per process would sign links that
 * other gateways refuse and seal ID numbers that only one of them could read.
 */
export function ensureAppSecret(config: Config): Config {
  if (config.appSecret) return config;
  if (config.databaseUrl) {
    throw new ConfigError('APP_SECRET is required with DATABASE_URL: every process must sign and encrypt with the same key');
  }
  const file = path.join(config.dataDir, 'app-secret');
  if (!existsSync(file)) {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return { ...config, appSecret: Buffer.from(readFileSync(file, 'utf8').trim(), 'hex') };
}

/** A 32-byte key for one purpose, derived from the app secret (HKDF-SHA256). */
export function deriveKey(config: Config, purpose: KeyPurpose): Buffer {
  if (!config.appSecret) throw new Error('the app secret is not loaded (ensureAppSecret)');
  return Buffer.from(hkdfSync('sha256', config.appSecret, Buffer.alloc(0), `pipwise:${purpose}`, 32));
}
