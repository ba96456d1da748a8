/**
 * Feeds every stored event up to `head` to a chain walker, fast: a read-only connection of its own streams raw
 * rows (no object per row) and pauses every few thousand rows so appends on the main connection keep flowing.
 */
import Database from 'better-sqlite3';
import type { ChainWalker } from '../hashChain.ts';
import type { StoredEvent } from '../storedEvent.ts';
import { prepareChainScan } from './statements.ts';

const ROWS_PER_TURN = 50_000;
const nextTurn = () => new Promise<void>((done) => setImmediate(done));

export const walkChain = async (file: string, head: number, walker: ChainWalker, stopped: () => boolean): Promise<void> => {
  if (head === 0) return;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  const rows = prepareChainScan(db).iterate(head);
  try {
    // One scratch object, refilled per row: the walker reads it and keeps nothing but strings.
    const row = { position: 0, id: '', stream: '', revision: 0, type: '', version: 0, data: '', metadata: '', recordedAt: '', prevHash: '', hash: '' } satisfies StoredEvent;
    let sinceTurn = 0;
    for (const values of rows) {
      row.position = values[0];
      row.id = values[1];
      row.stream = values[2];
      row.revision = values[3];
      row.type = values[4];
      row.version = values[5];
      row.data = values[6];
      row.metadata = values[7];
      row.recordedAt = values[8];
      row.prevHash = values[9];
      row.hash = values[10];
      if (!walker.push(row)) break;
      if (++sinceTurn === ROWS_PER_TURN) {
        sinceTurn = 0;
        await nextTurn();
        if (stopped()) break;
      }
    }
  } finally {
    rows.return?.();
    db.close();
  }
};
