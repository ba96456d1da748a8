// Checks one range of the sqlite ledger's hash chain in a worker thread (see chainSegments.ts, which starts it and
// joins the ranges). Plain JavaScript: workers do not inherit the main thread's TypeScript loader. The event text
// below must stay byte-equal to hashChain.ts' canonicalEventText (chainSegments.spec.ts checks both on the same rows).
import Database from 'better-sqlite3';
import { hash } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';

/** The text each event's hash covers: hashChain.ts' canonicalEventText, written the same way. */
export const segmentEventText = (position, id, stream, revision, type, version, data, metadata, recordedAt) =>
  `{"data":${data},"id":${JSON.stringify(id)},"metadata":${metadata},"position":${position},` +
  `"recordedAt":${JSON.stringify(recordedAt)},"revision":${revision},"stream":${JSON.stringify(stream)},` +
  `"type":${JSON.stringify(type)},"version":${version}}`;

/**
 * Positions after..through, in order. Per row, as hashChain.ts' walker checks it: the position, the link to the row
 * before (inside the range; the first row's link is the caller's to check), the hash. Stops at the first break.
 */
export const checkSegment = (rows, after, through, checkpointPosition) => {
  let expected = after + 1;
  let previous = null;
  let firstPrevHash = null;
  let hashAtCheckpoint = null;
  let checked = 0;
  for (const v of rows) {
    const [position, id, stream, revision, type, version, data, metadata, recordedAt, prevHash, stored] = v;
    if (position !== expected) return { after, through, checked, firstPrevHash, lastHash: previous, hashAtCheckpoint, problem: { position: expected, kind: position > expected ? 'missing' : 'order', next: position } };
    if (previous === null) firstPrevHash = prevHash;
    else if (prevHash !== previous) return { after, through, checked, firstPrevHash, lastHash: previous, hashAtCheckpoint, problem: { position: expected, kind: 'link' } };
    if (hash('sha256', prevHash + segmentEventText(position, id, stream, revision, type, version, data, metadata, recordedAt), 'hex') !== stored)
      return { after, through, checked, firstPrevHash, lastHash: previous, hashAtCheckpoint, problem: { position: expected, kind: 'changed' } };
    if (position === checkpointPosition) hashAtCheckpoint = stored;
    previous = stored;
    expected += 1;
    checked += 1;
  }
  return { after, through, checked, firstPrevHash, lastHash: previous, hashAtCheckpoint, problem: expected - 1 === through ? null : { position: expected, kind: 'end' } };
};

if (parentPort !== null && workerData?.file !== undefined) {
  const { file, after, through, checkpointPosition } = workerData;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT position, id, stream, revision, type, version, data, metadata, recorded_at, prev_hash, hash FROM events WHERE position > ? AND position <= ? ORDER BY position')
      .raw().iterate(after, through);
    parentPort.postMessage(checkSegment(rows, after, through, checkpointPosition));
  } catch (error) {
    parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
  } finally {
    db.close();
  }
}
