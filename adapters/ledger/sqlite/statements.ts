/** Every statement the sqlite ledger runs, prepared once. Column aliases give rows the StoredEvent shape directly. */
import type Database from 'better-sqlite3';
import type { StoredEvent } from '../storedEvent.ts';

const columns = `position, id, stream, revision, type, version, data, metadata,
  recorded_at AS recordedAt, prev_hash AS prevHash, hash`;

// A null filter member means "no restriction"; a JSON array keeps rows matching one of its items.
const filtered = `
  (@prefixes IS NULL OR EXISTS (SELECT 1 FROM json_each(@prefixes) p WHERE substr(stream, 1, length(p.value)) = p.value))
  AND (@types IS NULL OR type IN (SELECT value FROM json_each(@types)))`;

export interface PageParameters {
  readonly after: number;
  readonly through: number;
  readonly prefixes: string | null;
  readonly types: string | null;
  readonly limit: number;
}

export type InsertRow = [
  position: number,
  stream: string,
  revision: number,
  type: string,
  version: number,
  data: string,
  metadata: string,
  recordedAt: string,
  prevHash: string,
  hash: string,
  id: string,
];

export const prepareStatements = (db: Database.Database) => ({
  head: db.prepare<[], { position: number; hash: string }>('SELECT position, hash FROM events ORDER BY position DESC LIMIT 1'),
  headPosition: db.prepare<[], number>('SELECT max(position) FROM events').pluck(),
  hashAt: db.prepare<[number], string>('SELECT hash FROM events WHERE position = ?').pluck(),
  streamRevision: db
    .prepare<[string], number>('SELECT revision FROM events WHERE stream = ? ORDER BY revision DESC LIMIT 1')
    .pluck(),
  insert: db.prepare<InsertRow>(
    `INSERT INTO events (position, stream, revision, type, version, data, metadata, recorded_at, prev_hash, hash, id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ),
  readStream: db.prepare<[string, number, number], StoredEvent>(
    `SELECT ${columns} FROM events WHERE stream = ? AND revision >= ? ORDER BY revision LIMIT ?`,
  ),
  page: db.prepare<[PageParameters], StoredEvent>(
    `SELECT ${columns} FROM events WHERE position > @after AND position <= @through AND ${filtered}
     ORDER BY position LIMIT @limit`,
  ),
  dataVersion: db.prepare<[], number>('PRAGMA data_version').pluck(),
});

export type Statements = ReturnType<typeof prepareStatements>;

/** One stored row as an array, in StoredEvent field order (verify reads rows this way: no object per row). */
export type StoredRowValues = [
  position: number,
  id: string,
  stream: string,
  revision: number,
  type: string,
  version: number,
  data: string,
  metadata: string,
  recordedAt: string,
  prevHash: string,
  hash: string,
];

/** The whole chain up to a position, in global order, as arrays; run on its own connection so it can pause. */
export const prepareChainScan = (db: Database.Database) =>
  db.prepare<[number], StoredRowValues>(`SELECT ${columns} FROM events WHERE position <= ? ORDER BY position`).raw();
