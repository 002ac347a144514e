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

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ ROLE: 'boss' }, /ROLE/],
    [{ TRUST_PROXY: 'maybe' }, /TRUST_PROXY/],
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
