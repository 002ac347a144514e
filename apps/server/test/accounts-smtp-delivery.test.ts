import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  query,
  snapshot,
  solveCaptcha,
  startAccountsServer,
  signUpAnswers,
  strongPassword,
  type AccountsServer,
} from './accounts-helpers.js';
import { DB_KINDS } from './harness.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server on a free port; recipients at refuse.example are turned away. */
async function startMailServer() {
  const inbox: Received[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.endsWith('@refuse.example')) return callback(new Error('mailbox unavailable'));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        inbox.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { inbox, port, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

describe.each(DB_KINDS)('verification mail over SMTP on %s', (kind) => {
  let server: AccountsServer;
  let mail: Awaited<ReturnType<typeof startMailServer>>;
  beforeAll(async () => {
    mail = await startMailServer();
    server = await startAccountsServer(kind, {
      env: { SMTP_URL: `smtp://127.0.0.1:${mail.port}`, MAIL_FROM: 'Pipwise <codes@pipwise.test>' },
    });
  });
  afterAll(async () => {
    await server.close();
    await mail.close();
  });

  it('delivers the code by SMTP, keeps it out of the outbox, and the code registers the account', async () => {
    const sent = await server.send('POST', '/api/notify/send_email', {
      body: { to: 'mailbox@example.com', type: 1, ...(await solveCaptcha(server)) },
    });
    expect(sent).toMatchObject({ code: 1, msg: 'The verification code has been sent' });
    expect(mail.inbox).toHaveLength(1);
    const message = mail.inbox[0]!;
    expect(message.from).toBe('codes@pipwise.test');
    expect(message.to).toEqual(['mailbox@example.com']);
    expect(message.raw).toMatch(/^Subject: Your Pipwise registration code$/m);
    const code = message.raw.match(/Your verification code is (\d{6})\./)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    expect(await query(server, 'select id from outbox_messages')).toEqual([]);

    const registered = await server.send('POST', '/api/user/register', {
      form: {
        type: '1',
        account: 'mailbox@example.com',
        password: strongPassword,
        re_password: strongPassword,
        sms_code: code!,
        ...signUpAnswers,
      },
    });
    expect(registered).toMatchObject({ code: 1, msg: 'Registration successful' });
  });

  it('reports a refused delivery in the request language, stores no code and allows an immediate retry', async () => {
    const captcha = await solveCaptcha(server);
    const before = await snapshot(server);
    const refused = await server.send('POST', '/api/notify/send_email', {
      lang: 'cs',
      body: { to: 'someone@refuse.example', type: 1, ...captcha },
    });
    expect(refused).toMatchObject({ status: 200, code: 1002, msg: 'Kód se nepodařilo odeslat; zkuste to prosím později' });
    expect(await snapshot(server)).toEqual(before);
    const retry = await server.send('POST', '/api/notify/send_email', {
      body: { to: 'someone@refuse.example', type: 1, ...(await solveCaptcha(server)) },
    });
    expect(retry.msg).toBe('The code could not be sent; please try again later');
  });
});
