/**
 * What the order benches share: the database they make, the accounts they trade with, and a lean
 * keep-alive HTTP/1.1 client that places orders with prebuilt requests.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { connect, createServer, type Socket } from 'node:net';
import { ApiPath } from '@pipwise/domain';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.js';
import { sessions, users } from '../apps/server/src/db/schema.js';
import { seedReferenceData } from '../apps/server/src/db/seed.js';
import { hashToken } from '../apps/server/src/modules/accounts/module.js';
import { WalletService } from '../apps/server/src/modules/wallet/service.js';

export const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The URL of database `name` on the server of BENCH_DATABASE_URL. */
export const urlOf = (name: string) => {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

export async function admin(statement: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

export const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
export function cpuSeconds(pid: number) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks of 1/100 s.
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * The database migrated and seeded, with `count` accounts of a billion dollars each, and a session
 * token for each (straight in the database: logging in is not what is measured).
 */
export async function prepareUsers(databaseUrl: string, count: number, tag: string) {
  const database = await openDatabase({ databaseUrl });
  await database.migrate();
  await seedReferenceData(database.db);
  const wallet = new WalletService(database.db);
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const token = randomBytes(24).toString('hex');
    await database.db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          uid: 900_000_000 + i,
          email: `bench${i}@example.test`,
          inviteCode: `BENCH${tag}${i}`,
          // The risk disclosure in force, accepted as at sign-up: otherwise every order is refused.
          riskDisclosureVersion: 1,
        })
        .returning({ id: users.id });
      await wallet.create(tx, user!.id);
      await wallet.post(tx, { userId: user!.id, amount: '1000000000', type: 'deposit' });
      await tx.insert(sessions).values({ userId: user!.id, tokenHash: hashToken(token), expiresAt: new Date('2100-01-01') });
    });
    tokens.push(token);
  }
  return { database, tokens };
}

/** The API's envelope, as the client reads it. */
export interface Envelope {
  code: number;
  msg: string;
  data?: { Id?: number } | null;
}

/**
 * One keep-alive HTTP/1.1 connection, one request at a time, as each pgbench client is one connection
 * with one transaction at a time. Requests are prebuilt bytes and only the status line, Content-Length
 * and the JSON body are read: the load generator shares the two cores with the server and the database,
 * and Node's `http` client cost it about a quarter of a core at these rates.
 */
export class Connection {
  private readonly socket: Socket;
  private buffered: Buffer = Buffer.alloc(0);
  private waiting: ((body: string) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
      this.takeResponse();
    });
    socket.on('error', (error) => this.failed?.(error));
    socket.on('close', () => this.failed?.(new Error('connection closed')));
  }

  static open(port: number) {
    return new Promise<Connection>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }

  private takeResponse() {
    const headEnd = this.buffered.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffered.subarray(0, headEnd).toString('latin1');
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) throw new Error(`response without content-length:\n${head}`);
    const end = headEnd + 4 + Number(length[1]);
    if (this.buffered.length < end) return;
    const body = this.buffered.subarray(headEnd + 4, end).toString('utf8');
    this.buffered = this.buffered.subarray(end);
    const resolve = this.waiting;
    this.waiting = null;
    this.failed = null;
    resolve?.(body);
  }

  send(request: Buffer) {
    return new Promise<Envelope>((resolve, reject) => {
      this.waiting = (body) => resolve(JSON.parse(body) as Envelope);
      this.failed = reject;
      this.socket.write(request);
    });
  }

  close() {
    this.failed = null;
    this.socket.destroy();
  }
}

/** A prebuilt `POST /v1/api/forex/submit` of `body` for the session `token`. */
export function submitRequest(token: string, body: string) {
  return Buffer.from(
    `POST ${ApiPath.submitOrder} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nauthorization: ${token}\r\nlang: en\r\n\r\n${body}`,
  );
}
