/**
 * Tamper hooks for the sqlite ledger: a second better-sqlite3 connection edits the file directly, first dropping
 * the append-only triggers, as anyone holding the file could.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { eventHash, GENESIS_HASH } from '../../../adapters/ledger/hashChain.ts';
import type { StoredEvent } from '../../../adapters/ledger/storedEvent.ts';
import { flipOneBit, flipSignature, forgedData } from './tamperer.ts';
import type { StoredField, Tamperer } from './tamperer.ts';

const columnOf: Record<StoredField, string> = {
  id: 'id',
  stream: 'stream',
  revision: 'revision',
  type: 'type',
  version: 'version',
  data: 'data',
  metadata: 'metadata',
  recordedAt: 'recorded_at',
  prevHash: 'prev_hash',
  hash: 'hash',
};

const selectRows = `SELECT position, id, stream, revision, type, version, data, metadata,
  recorded_at AS recordedAt, prev_hash AS prevHash, hash FROM events`;

export const sqliteTamperer = (file: string, checkpointFile: string): Tamperer => {
  const edit = <T>(change: (db: Database.Database) => T): T => {
    const db = new Database(file);
    try {
      db.exec('DROP TRIGGER IF EXISTS events_no_update; DROP TRIGGER IF EXISTS events_no_delete;');
      return change(db);
    } finally {
      db.close();
    }
  };
  return {
    changeField: async (position, field) =>
      edit((db) => {
        const column = columnOf[field];
        const value = db.prepare(`SELECT ${column} FROM events WHERE position = ?`).pluck().get(position) as string | number;
        db.prepare(`UPDATE events SET ${column} = ? WHERE position = ?`).run(flipOneBit(value), position);
      }),
    deleteEvent: async (position) =>
      edit((db) => {
        db.prepare('DELETE FROM events WHERE position = ?').run(position);
      }),
    deleteTail: async (count) =>
      edit((db) => {
        db.prepare('DELETE FROM events WHERE position > (SELECT max(position) FROM events) - ?').run(count);
      }),
    rewriteFrom: async (position) =>
      edit((db) => {
        let prevHash =
          (db.prepare('SELECT hash FROM events WHERE position = ?').pluck().get(position - 1) as string | undefined) ?? GENESIS_HASH;
        const rows = db.prepare(`${selectRows} WHERE position >= ? ORDER BY position`).all(position) as StoredEvent[];
        const update = db.prepare('UPDATE events SET data = ?, prev_hash = ?, hash = ? WHERE position = ?');
        db.transaction(() => {
          for (const row of rows) {
            const data = row.position === position ? forgedData(row.data) : row.data;
            const hash = eventHash(prevHash, { ...row, data });
            update.run(data, prevHash, hash, row.position);
            prevHash = hash;
          }
        })();
      }),
    breakCheckpointSignature: async () => {
      const checkpoint = JSON.parse(readFileSync(checkpointFile, 'utf8')) as { signature: string };
      writeFileSync(checkpointFile, JSON.stringify({ ...checkpoint, signature: flipSignature(checkpoint.signature) }));
    },
  };
};
