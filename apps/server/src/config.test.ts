import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('config', () => {
  it('runs on embedded defaults with no environment at all', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.role).toBe('all');
    expect(config.dataDir.endsWith('data')).toBe(true);
  });

  it('reads the origins allowed to open the socket as a list of origins', () => {
    expect(loadConfig({ ALLOWED_ORIGINS: 'https://app.example/, http://localhost:5173' }).allowedOrigins).toEqual([
      'https://app.example',
      'http://localhost:5173',
    ]);
    expect(loadConfig({}).allowedOrigins).toEqual([]);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('reads TRUST_PROXY as a number of proxies in front or their addresses, off by default', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8' }).trustProxy).toEqual({
      addresses: ['10.0.0.0/8', '192.168.1.7', 'fd00::/8'],
    });
  });

  it('refuses TRUST_PROXY=true at start, saying what to write instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /^Invalid TRUST_PROXY="true": .*number of proxies in front \(TRUST_PROXY=1\) or their addresses \(TRUST_PROXY=10\.0\.0\.0\/8\)$/,
    );
  });

  it('serves /metrics nowhere unless a port or a token is given', () => {
    const config = loadConfig({});
    expect(config.metricsPort).toBeUndefined();
    expect(config.metricsToken).toBeUndefined();
    expect(config.metricsHost).toBe('127.0.0.1');
    expect(config.readyFeedMaxAgeMs).toBe(15_000);
    const token = 'a'.repeat(32);
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_TOKEN: token })).toMatchObject({ metricsPort: 9464, metricsToken: token });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ METRICS_PORT: '8080' }, /METRICS_PORT=.*must differ from PORT/],
    [{ METRICS_PORT: '70000' }, /METRICS_PORT/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN/],
    [{ METRICS_TOKEN: `${'a'.repeat(32)} b` }, /METRICS_TOKEN/],
    [{ METRICS_TOKEN: `${'a'.repeat(32)}\u0000` }, /METRICS_TOKEN/],
    [{ READY_FEED_MAX_AGE_MS: '10' }, /READY_FEED_MAX_AGE_MS/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ ROLE: 'boss' }, /ROLE/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/40' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/8,proxy.local' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '17' }, /TRUST_PROXY/],
    [{ ALLOWED_ORIGINS: 'https://app.example, not-an-origin' }, /ALLOWED_ORIGINS/],
    [{ SOCKETS_PER_ADDRESS: '0' }, /SOCKETS_PER_ADDRESS/],
  ])('rejects %o with a one-line reason naming the variable', (env, pattern) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(pattern);
    try {
      loadConfig(env);
    } catch (error) {
      expect(String((error as Error).message)).not.toContain('\n');
    }
  });
});
