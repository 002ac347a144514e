import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './harness.js';

describe('the web app is served from WEB_DIST', () => {
  let server: TestServer;
  let dist: string;
  const script = 'console.log("pipwise");'.repeat(100);

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'pipwise-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Pipwise</title>');
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), script);
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
    server = await startTestServer('pglite', { env: { WEB_DIST: dist } });
  });
  afterAll(async () => {
    await server.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves index.html at / and asks browsers to revalidate it', async () => {
    const response = await fetch(`${server.baseUrl}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Pipwise</title>');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the build-time brotli twin of a fingerprinted asset, cached for good', async () => {
    const response = await fetch(`${server.baseUrl}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'br' } });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(response.headers.get('cache-control')).toContain('immutable');
    expect(await response.text()).toBe(script);
  });

  it('falls back to the plain file for clients that accept no compression', async () => {
    const response = await fetch(`${server.baseUrl}/assets/index-abc123.js`, { headers: { 'accept-encoding': 'identity' } });
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.text()).toBe(script);
  });
});
