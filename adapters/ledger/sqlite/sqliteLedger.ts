/**
 * The embedded ledger: one SQLite file (better-sqlite3, WAL, synchronous=FULL), grouped durable commits, a
 * hash chain checked by verify, and a signed checkpoint kept beside the file with its key outside it.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { throwError } from 'rxjs';
import { catchUpSubscription } from '../catchUpSubscription.ts';
import type { Page, PageSource } from '../catchUpSubscription.ts';
import { checkpointSigner, loadCheckpointKey } from '../checkpoint.ts';
import { checkpointPathFor, fileCheckpointStore, readCheckedCheckpoint } from '../checkpointStore.ts';
import { checkpointWriter } from '../checkpointWriter.ts';
import { PRIVATE_DIR_MODE, preparePrivateDatabase, tightenFile } from '../privateFile.ts';
import type { Tightened } from '../privateFile.ts';
import { chainWalker } from '../hashChain.ts';
import { walkChain } from './walkChain.ts';
import { splitsVerify, verifyInSegments, type ParallelVerify } from './chainSegments.ts';
import { ledgerWatchers } from '../ledgerWatchers.ts';
import { START } from '../port.ts';
import type { Ledger, VerifyReport } from '../port.ts';
import { normalizeReadAll, normalizeReadStream, normalizeSubscribe } from '../readOptions.ts';
import type { NormalizedFilter } from '../readOptions.ts';
import { toRecordedEvent } from '../storedEvent.ts';
import { prepareAppend } from '../validateAppend.ts';
import { dataVersionPoller } from './dataVersionPoller.ts';
import { groupCommitter } from './groupCommit.ts';
import { recentRows } from './recentRows.ts';
import { applySchema } from './schema.ts';
import { prepareStatements } from './statements.ts';

export interface SqliteLedgerOptions {
  /** The Ed25519 signing key (PEM, mode 0600, created on first use). @defaultValue `<folder of the ledger>/keys/checkpoint.ed25519` */
  readonly keyPath?: string;
  /** @defaultValue `<ledger path>.checkpoint.json` */
  readonly checkpointPath?: string;
  /** Least time between two checkpoint writes. @defaultValue 100 */
  readonly checkpointIntervalMs?: number;
  /** How often live subscriptions look for appends by other processes. @defaultValue 200 */
  readonly pollIntervalMs?: number;
  /** verify across worker threads for long ledgers (chainSegments.ts); false keeps it in this thread. @defaultValue `{}` (50,000 events and up) */
  readonly parallelVerify?: ParallelVerify | false;
  /** Events per history page of a subscription. @defaultValue 500 */
  readonly pageSize?: number;
  /** How long an append waits for another process's write lock. @defaultValue 5000 */
  readonly busyTimeoutMs?: number;
  /** Appends per grouped transaction. @defaultValue 1000 */
  readonly maxGroupSize?: number;
  /** @defaultValue () => new Date() */
  readonly now?: () => Date;
  /** Told when the checkpoint could not be written or was left in place. @defaultValue process.emitWarning */
  readonly onCheckpointProblem?: (problem: string) => void;
  /** Told when the database file or a companion was looser than 0600 and had to be tightened. */
  readonly onTightened?: Tightened;
}

const limitOf = (maxCount: number) => (Number.isFinite(maxCount) ? maxCount : -1);
const filterParameters = (filter: NormalizedFilter) => ({
  prefixes: filter.streamPrefixes === undefined ? null : JSON.stringify(filter.streamPrefixes),
  types: filter.types === undefined ? null : JSON.stringify(filter.types),
});

export const openSqliteLedger = async (path: string, options: SqliteLedgerOptions = {}): Promise<Ledger> => {
  const file = resolve(path);
  // A missing folder is created private; an existing one is not ours to change (the runtime tightens data.dir).
  mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
  preparePrivateDatabase(file, options.onTightened);
  const signer = checkpointSigner(await loadCheckpointKey(options.keyPath ?? join(dirname(file), 'keys', 'checkpoint.ed25519')));
  const checkpointPath = options.checkpointPath ?? checkpointPathFor(file);
  tightenFile(checkpointPath, options.onTightened);
  const checkpointStore = fileCheckpointStore(checkpointPath);
  const pageSize = options.pageSize ?? 500;
  const parallelVerify = options.parallelVerify === false ? undefined : options.parallelVerify ?? {};

  const db = new Database(file);
  try {
    applySchema(db, options.busyTimeoutMs ?? 5000);
  } catch (error) {
    db.close();
    throw error;
  }
  const statements = prepareStatements(db);
  const headPosition = () => statements.headPosition.get() ?? START;

  const checkpoints = checkpointWriter({
    store: checkpointStore,
    signer,
    intervalMs: options.checkpointIntervalMs,
    hashAt: (position) => statements.hashAt.get(position),
    onProblem: options.onCheckpointProblem,
  });
  const recent = recentRows();
  const poller = dataVersionPoller(() => statements.dataVersion.get()!, options.pollIntervalMs ?? 200, () => watchers.changed());
  const watchers = ledgerWatchers((count) => poller.watchers(count));
  const committer = groupCommitter({
    db,
    statements,
    now: options.now ?? (() => new Date()),
    maxGroupSize: options.maxGroupSize,
    onCommitted: (head, rows) => {
      recent.committed(rows);
      watchers.changed();
      checkpoints.committed(head);
    },
  });
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('The ledger is closed.');
  };

  // Read the head first and stop there: a commit by another process after that read is picked up next time,
  // never skipped, because positions are only handed out inside the write transaction.
  const readPage = (after: number, limit: number, filter: NormalizedFilter): Page => {
    const through = headPosition();
    const unfiltered = filter.streamPrefixes === undefined && filter.types === undefined;
    const rows = (unfiltered ? recent.read(after, through, limit) : null)
      ?? statements.page.all({ after, through, limit, ...filterParameters(filter) });
    return { events: rows.map(toRecordedEvent), scannedThrough: rows.length === limit ? rows.at(-1)!.position : through };
  };
  const source: PageSource = { readPage, watch: watchers.add };

  return {
    url: `sqlite:${file}`,

    append: async (stream, events, appendOptions) => {
      ensureOpen();
      return committer.append(prepareAppend(stream, events, appendOptions));
    },

    readStream: async (stream, readOptions) => {
      ensureOpen();
      const { fromRevision, maxCount } = normalizeReadStream(readOptions);
      return statements.readStream.all(stream, fromRevision, limitOf(maxCount)).map(toRecordedEvent);
    },

    readAll: async (readOptions) => {
      ensureOpen();
      const { fromPosition, maxCount, filter } = normalizeReadAll(readOptions);
      const parameters = { after: fromPosition, through: Number.MAX_SAFE_INTEGER, limit: limitOf(maxCount), ...filterParameters(filter) };
      return statements.page.all(parameters).map(toRecordedEvent);
    },

    subscribe: (subscribeOptions) => {
      if (closed) return throwError(() => new Error('The ledger is closed.'));
      const { fromPosition, filter } = normalizeSubscribe(subscribeOptions);
      return catchUpSubscription(source, { fromPosition, filter, pageSize });
    },

    headPosition: async () => {
      ensureOpen();
      return headPosition();
    },

    verify: async (): Promise<VerifyReport> => {
      ensureOpen();
      // The checkpoint before the head: it is only written after a durable commit, so it is never ahead of it.
      const checkpoint = await readCheckedCheckpoint(checkpointStore, signer);
      const head = headPosition();
      // A long ledger is checked in ranges on several cores (chainSegments.ts); a short one in this thread.
      if (splitsVerify(head, parallelVerify)) {
        const report = await verifyInSegments(file, head, parallelVerify!, checkpoint);
        ensureOpen();
        return report;
      }
      const walker = chainWalker(checkpoint);
      await walkChain(file, head, walker, () => closed);
      ensureOpen();
      return walker.report(head);
    },

    close: async () => {
      if (closed) return;
      closed = true;
      committer.drain();
      await checkpoints.close();
      poller.stop();
      watchers.ended();
      db.close();
    },
  };
};
