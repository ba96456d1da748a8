/**
 * Payloads in their own SQLite file (not the ledger's: deleting from it must not touch the append-only file).
 * secure_delete overwrites purged text inside the file, and a WAL checkpoint after a purge drops the old pages
 * from the log, so deleted personal data does not linger on disk.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { PRIVATE_DIR_MODE, preparePrivateDatabase } from '../ledger/privateFile.ts';
import type { Tightened } from '../ledger/privateFile.ts';
import { hmacDigest } from './hmacDigest.ts';
import { loadPayloadKey, payloadKeyPathFor } from './payloadKey.ts';
import { checkText, isoInstant } from './payloadStore.ts';
import type { PayloadStore } from './payloadStore.ts';

export interface SqlitePayloadStoreOptions {
  /** @defaultValue `<folder of the store>/keys/payload-hmac.key` */
  readonly keyPath?: string;
  /** Told when the database file or a companion was looser than 0600 and had to be tightened. */
  readonly onTightened?: Tightened;
}

const schema = `
CREATE TABLE IF NOT EXISTS payloads (
  ref       TEXT PRIMARY KEY,
  text      TEXT NOT NULL,
  digest    TEXT NOT NULL,
  stored_at TEXT NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS payloads_stored_at ON payloads (stored_at);
`;

export const openSqlitePayloadStore = async (path: string, options: SqlitePayloadStoreOptions = {}): Promise<PayloadStore> => {
  const file = resolve(path);
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  const key = await loadPayloadKey(options.keyPath ?? payloadKeyPathFor(file));
  preparePrivateDatabase(file, options.onTightened);
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('secure_delete = ON');
  db.exec(schema);

  const insert = db.prepare<[string, string, string, string]>('INSERT INTO payloads (ref, text, digest, stored_at) VALUES (?, ?, ?, ?)');
  const select = db.prepare<[string], string>('SELECT text FROM payloads WHERE ref = ?').pluck();
  const old = db.prepare<[string], string>('SELECT ref FROM payloads WHERE stored_at < ? ORDER BY stored_at, ref').pluck();
  const remove = db.prepare<[string]>('DELETE FROM payloads WHERE ref = ?');
  const purge = db.transaction((cutoff: string) => {
    const refs = old.all(cutoff);
    for (const ref of refs) remove.run(ref);
    return refs;
  });
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('The payload store is closed.');
  };

  return {
    put: async (text, now) => {
      ensureOpen();
      const storedAt = isoInstant(now, 'now');
      const ref = randomUUID();
      const digest = hmacDigest(key, checkText(text));
      insert.run(ref, text, digest, storedAt);
      return { ref, digest };
    },
    get: async (ref) => {
      ensureOpen();
      return select.get(ref);
    },
    purgeOlderThan: async (cutoffIso) => {
      ensureOpen();
      const refs = purge.immediate(isoInstant(cutoffIso, 'cutoff'));
      if (refs.length > 0) db.pragma('wal_checkpoint(TRUNCATE)');
      return refs;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
};
