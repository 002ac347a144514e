import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Module } from '../context.js';
import type { Database } from '../db/client.js';

/**
 * The embedded server's local door for the command line. PGlite allows one process on its folder, so
 * `npm run backup` cannot open the database while the server runs: it asks the server through a Unix
 * socket in the data folder instead. The socket lives in a folder only the server's user may enter
 * (0700), so whoever reaches it could read the data folder anyway.
 *
 * Protocol: the client writes one line, `backup`; the server answers one JSON line, `{"bytes":N}`
 * followed by N bytes of the dump (a tar), or `{"error":"…"}`.
 */
export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'run', 'admin.sock');

const MAX_REQUEST = 64;

export function createAdminSocketModule(deps: { database: Database; log: FastifyBaseLogger }): Module {
  let server: Server | undefined;
  const { dataDir, dump } = deps.database;
  return {
    name: 'admin-socket',
    start: async () => {
      if (!dataDir || !dump) return;
      const file = adminSocketPath(dataDir);
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      chmodSync(path.dirname(file), 0o700);
      // This process holds the data folder (db/client.ts): a socket file left there is a crashed server's.
      rmSync(file, { force: true });
      server = createServer((socket) => {
        let request = '';
        socket.on('error', () => undefined);
        socket.on('data', (chunk) => {
          request += chunk.toString('utf8');
          if (!request.includes('\n') && request.length <= MAX_REQUEST) return;
          socket.removeAllListeners('data');
          if (request.split('\n')[0] !== 'backup') {
            socket.end(`${JSON.stringify({ error: 'unknown command' })}\n`);
            return;
          }
          dump().then(
            async (tar) => {
              socket.write(`${JSON.stringify({ bytes: tar.size })}\n`);
              socket.end(Buffer.from(await tar.arrayBuffer()));
              deps.log.info({ bytes: tar.size }, 'backup taken through the admin socket');
            },
            (error: unknown) => {
              deps.log.error({ err: error }, 'backup through the admin socket failed');
              socket.end(`${JSON.stringify({ error: 'the database could not be copied; see the server log' })}\n`);
            },
          );
        });
      });
      try {
        await new Promise<void>((resolve, reject) => {
          server?.once('error', reject);
          server?.listen(file, () => resolve());
        });
        chmodSync(file, 0o600);
      } catch (error) {
        // A data folder whose path is too long for a socket: backups then need the server stopped.
        deps.log.warn({ err: error, file }, 'admin socket not available; npm run backup needs the server stopped');
        server = undefined;
      }
    },
    stop: async () => {
      const open = server;
      server = undefined;
      if (open) await new Promise((resolve) => open.close(resolve));
    },
  };
}

/** Thrown when no server answers on the data folder's admin socket (none runs, or one without the socket). */
export class NoServerError extends Error {}

/** Asks the server holding `dataDir` for a dump; NoServerError when none listens. */
export function requestDump(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(adminSocketPath(dataDir));
    const chunks: Buffer[] = [];
    let connected = false;
    socket.on('connect', () => {
      connected = true;
      socket.write('backup\n');
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && (error.code === 'ENOENT' || error.code === 'ECONNREFUSED')) reject(new NoServerError(error.message));
      else reject(error);
    });
    socket.on('end', () => {
      const answer = Buffer.concat(chunks);
      const newline = answer.indexOf(0x0a);
      let header: { bytes?: number; error?: string } = {};
      try {
        header = JSON.parse(answer.subarray(0, newline).toString('utf8')) as typeof header;
      } catch {
        reject(new Error('the server answered something that is not a backup'));
        return;
      }
      const body = answer.subarray(newline + 1);
      if (header.error !== undefined) reject(new Error(`the server refused: ${header.error}`));
      else if (header.bytes !== body.length)
        reject(new Error(`the backup was cut short (${body.length} of ${header.bytes} bytes)`));
      else resolve(body);
    });
  });
}
