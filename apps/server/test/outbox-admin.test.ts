import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../src/db/paging.js';
import { outboxMessages } from '../src/db/schema.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

interface OutboxView {
  channel: 'email' | 'sms';
  destination: string;
  delivered: boolean;
  kept_reason: 'no_smtp_url' | 'no_sms_gateway';
}
type OutboxPage = Page<OutboxView> & { mail: 'smtp' | 'outbox' };

/** Mail and SMS that only the outbox holds: what the embedded default makes of every message. */
async function keep(server: TestServer) {
  await server.database.db.insert(outboxMessages).values([
    { channel: 'email', destination: 'kept@example.test', subject: 'Your code', body: 'code 111111' },
    { channel: 'sms', destination: '+85260000001', subject: '', body: 'code 222222' },
  ]);
}

describe.each(DB_KINDS)('the outbox in the back office on %s', (kind) => {
  describe('without SMTP_URL', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind);
      await keep(server);
    });
    afterAll(() => server.close());

    it('says every message is kept in the outbox and why, never that it is pending delivery', async () => {
      const headers = await server.operatorHeaders('sam', 'support');
      const outbox = await server.call<OutboxPage>('GET', '/admin/api/outbox', { headers });
      expect(outbox.code).toBe(1);
      expect(outbox.data.mail).toBe('outbox');
      expect(outbox.data.data.map(({ channel, delivered, kept_reason }) => ({ channel, delivered, kept_reason }))).toEqual([
        { channel: 'sms', delivered: false, kept_reason: 'no_sms_gateway' },
        { channel: 'email', delivered: false, kept_reason: 'no_smtp_url' },
      ]);
    });
  });

  describe('with SMTP_URL', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer(kind, { env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
      await keep(server);
    });
    afterAll(() => server.close());

    it('says mail goes out by SMTP; what the outbox still holds was kept before, and SMS have no gateway', async () => {
      const headers = await server.operatorHeaders('sam', 'support');
      const outbox = await server.call<OutboxPage>('GET', '/admin/api/outbox', { headers });
      expect(outbox.data.mail).toBe('smtp');
      expect(outbox.data.data.map((row) => row.kept_reason)).toEqual(['no_sms_gateway', 'no_smtp_url']);
    });
  });
});
