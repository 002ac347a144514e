import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../../db/client.js';
import { outboxMessages } from '../../db/schema.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface SmsMessage {
  /** E.164 number. */
  to: string;
  text: string;
}

/** Sends e-mail. Throws when the message could not be handed over. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Sends SMS. Plug a gateway (Twilio, Vonage, …) in here; the default keeps messages in the outbox. */
export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}

/**
 * The embedded default's inbox: each message becomes a log line (so a developer sees the code on the
 * console) and an `outbox_messages` row (so the back office and tests can read it).
 */
export class Outbox implements Mailer, SmsProvider {
  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly channel: 'email' | 'sms',
  ) {}

  async send(message: MailMessage | SmsMessage) {
    const subject = 'subject' in message ? message.subject : '';
    await this.db.insert(outboxMessages).values({ channel: this.channel, destination: message.to, subject, body: message.text });
    this.log.info(
      { outbox: this.channel, destination: message.to },
      `outbox ${this.channel} to ${message.to}: ${subject ? `${subject} — ` : ''}${message.text}`,
    );
  }
}

/** SMTP through nodemailer, e.g. `smtp://user:pass@mail.example.com:587` or `smtps://…:465`. */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    // Bounded waits: a dead mail server must not hold the request for nodemailer's default two minutes.
    this.transport = nodemailer.createTransport({
      url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(message: MailMessage) {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text });
  }

  close() {
    this.transport.close();
  }
}
