import { ApiPath, type BasicInfoView } from '@pipwise/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../src/db/schema.js';
import { DB_KINDS, startTestServer, type TestServer } from './harness.js';

/**
 * service_link and complaint_email reach every phone (getBasicInfo): the app opens the one and mails the
 * other, so neither may hold a script address (`javascript:` in a link the app opens runs in its origin).
 */
describe.each(DB_KINDS)('settings shown to the app as links on %s', (kind) => {
  let server: TestServer;
  let content: Record<string, string>;

  beforeAll(async () => {
    server = await startTestServer(kind);
    content = await server.operatorHeaders('lina', 'content');
  });
  afterAll(() => server.close());

  const put = (key: string, value: unknown) =>
    server.call<Record<string, string>>('PUT', `/admin/api/settings/${key}`, { body: { value }, headers: content });
  const storedRows = () => server.database.db.select().from(settings).orderBy(settings.key);

  it('refuses script and other non-web addresses in service_link and complaint_email, changing nothing', async () => {
    const before = await storedRows();
    const links = [
      'javascript:alert(document.cookie)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      '//evil.example/chat',
      '/\\evil.example/chat',
      'https://',
      'https://chat.example/a b',
    ];
    for (const value of links) {
      const answer = await put('service_link', value);
      expect({ value, code: answer.code, msg: answer.msg }).toEqual({ value, code: 1001, msg: 'This value is not valid' });
    }
    const emails = [
      'javascript:alert(1)',
      'javascript:alert(1)//@example.com',
      'mailto:help@example.com',
      'help',
      'a b@example.com',
    ];
    for (const value of emails) {
      const answer = await put('complaint_email', value);
      expect({ value, code: answer.code, msg: answer.msg }).toEqual({ value, code: 1001, msg: 'This value is not valid' });
    }
    expect(await storedRows()).toEqual(before);
  });

  it('takes web addresses, paths of this site and e-mail addresses, or nothing, and the app reads them', async () => {
    for (const value of ['https://chat.example/support?lang=en', 'http://chat.example', '/support/chat', '']) {
      const answer = await put('service_link', value);
      expect({ value, code: answer.code, msg: answer.msg }).toMatchObject({ value, code: 1 });
    }
    for (const value of ['help@pipwise.example', '']) {
      expect(await put('complaint_email', value)).toMatchObject({ code: 1 });
    }
    expect(await put('service_link', 'https://chat.example/live')).toMatchObject({ code: 1 });
    expect(await put('complaint_email', 'complaints@pipwise.example')).toMatchObject({ code: 1 });
    const info = await server.call<BasicInfoView>('GET', ApiPath.basicInfo);
    expect(info.data).toMatchObject({ service_link: 'https://chat.example/live', complaint_email: 'complaints@pipwise.example' });
  });
});
