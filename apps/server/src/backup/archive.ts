import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

/**
 * A backup of the embedded database is a folder:
 *   manifest.json   what it is and when it was taken
 *   pgdata.tar.gz   the PGlite database folder (its dump, gzipped)
 *   app-secret      DATA_DIR's app secret, when the server made one there (not when APP_SECRET is set):
 *                   without it the audit chain cannot be verified nor ID numbers read
 */
export interface BackupManifest {
  format: 1;
  kind: 'pglite';
  taken_at: string;
  /** Through the running server (`server`) or from the folder with no server on it (`offline`). */
  taken: 'server' | 'offline';
  database_bytes: number;
  app_secret: boolean;
}

const FILES = { manifest: 'manifest.json', database: 'pgdata.tar.gz', secret: 'app-secret' };

export class BackupError extends Error {}

/** Writes the backup beside `target` and moves it into place complete; `target` must not exist or be empty. */
export async function writeBackup(
  target: string,
  backup: { tar: Buffer; secret: string | undefined; taken: BackupManifest['taken']; now: Date },
): Promise<BackupManifest> {
  if (existsSync(target) && readdirSync(target).length > 0) throw new BackupError(`${target} exists and is not empty`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true, mode: 0o700 });
  try {
    const manifest: BackupManifest = {
      format: 1,
      kind: 'pglite',
      taken_at: backup.now.toISOString(),
      taken: backup.taken,
      database_bytes: backup.tar.length,
      app_secret: backup.secret !== undefined,
    };
    writeFileSync(path.join(partial, FILES.database), await promisify(gzip)(backup.tar), { mode: 0o600 });
    if (backup.secret !== undefined) writeFileSync(path.join(partial, FILES.secret), backup.secret, { mode: 0o600 });
    writeFileSync(path.join(partial, FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
    if (existsSync(target)) rmSync(target, { recursive: true });
    renameSync(partial, target);
    return manifest;
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
}

/** Reads a backup folder: its manifest, the database's tar and the app secret it carries. */
export async function readBackup(source: string): Promise<{ manifest: BackupManifest; tar: Buffer; secret: string | undefined }> {
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(source, FILES.manifest), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError(`${source} is not a Pipwise backup (no readable ${FILES.manifest})`);
  }
  if (manifest.format !== 1 || manifest.kind !== 'pglite')
    throw new BackupError(`${source} is a backup of a kind this version cannot restore`);
  let tar: Buffer;
  try {
    tar = await promisify(gunzip)(readFileSync(path.join(source, FILES.database)));
  } catch {
    throw new BackupError(`${source}/${FILES.database} is missing or damaged`);
  }
  const secretFile = path.join(source, FILES.secret);
  const secret = manifest.app_secret ? readFileSync(secretFile, 'utf8') : undefined;
  return { manifest, tar, secret };
}

/** Puts a backup's app secret in the new data folder, as the server would have made it (0600). */
export function restoreSecret(dataDir: string, secret: string) {
  const file = path.join(dataDir, FILES.secret);
  writeFileSync(file, secret, { flag: 'wx', mode: 0o600 });
  chmodSync(file, 0o600);
}

export const secretFile = (dataDir: string) => path.join(dataDir, FILES.secret);
