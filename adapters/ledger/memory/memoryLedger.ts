/**
 * The ledger in memory, with the full port semantics (expected revisions, hash chain, signed checkpoint,
 * catch-up subscriptions). For tests and eval; nothing survives the process unless a test keeps the store.
 */
import { throwError } from 'rxjs';
import { catchUpSubscription } from '../catchUpSubscription.ts';
import type { Page, PageSource } from '../catchUpSubscription.ts';
import { checkpointSigner } from '../checkpoint.ts';
import { readCheckedCheckpoint } from '../checkpointStore.ts';
import { checkpointWriter } from '../checkpointWriter.ts';
import { isExpectedRevision, NO_REVISION, wrongExpectedRevision } from '../expectedRevision.ts';
import { chainWalker, eventHash, GENESIS_HASH } from '../hashChain.ts';
import { ledgerWatchers } from '../ledgerWatchers.ts';
import { LedgerInputError, START } from '../port.ts';
import type { Ledger, RecordedEvent, VerifyReport } from '../port.ts';
import { matchesFilter, normalizeReadAll, normalizeReadStream, normalizeSubscribe } from '../readOptions.ts';
import type { NormalizedFilter } from '../readOptions.ts';
import { toRecordedEvent } from '../storedEvent.ts';
import type { StoredEvent } from '../storedEvent.ts';
import { prepareAppend } from '../validateAppend.ts';
import { createMemoryLedgerStore } from './memoryLedgerStore.ts';
import type { MemoryLedgerStore } from './memoryLedgerStore.ts';

export interface MemoryLedgerOptions {
  /** Open over an existing store (to reopen, or to inspect what was stored). @defaultValue a new, empty store */
  readonly store?: MemoryLedgerStore;
  /** @defaultValue () => new Date() */
  readonly now?: () => Date;
  /** Events per history page of a subscription. @defaultValue 500 */
  readonly pageSize?: number;
  /** @defaultValue 100 */
  readonly checkpointIntervalMs?: number;
  /** Told when the checkpoint was left in place because it no longer matches the chain. @defaultValue process.emitWarning */
  readonly onCheckpointProblem?: (problem: string) => void;
}

export const openMemoryLedger = (options: MemoryLedgerOptions = {}): Ledger => {
  const store = options.store ?? createMemoryLedgerStore();
  const now = options.now ?? (() => new Date());
  const pageSize = options.pageSize ?? 500;
  const { events } = store;
  // Indexes rebuilt from the store on open: stream -> its events in revision order, and the ids in use.
  const streams = new Map<string, StoredEvent[]>();
  const ids = new Set<string>();
  for (const event of events) {
    ids.add(event.id);
    const list = streams.get(event.stream) ?? [];
    list.push(event);
    streams.set(event.stream, list);
  }
  const signer = checkpointSigner(store.key);
  const checkpoints = checkpointWriter({
    store: store.checkpoint,
    signer,
    intervalMs: options.checkpointIntervalMs,
    onProblem: options.onCheckpointProblem,
    hashAt: (position) => {
      const event = events[indexAfter(position - 1)];
      return event?.position === position ? event.hash : undefined;
    },
  });
  const watchers = ledgerWatchers();
  let closed = false;

  const head = () => events.at(-1)?.position ?? START;

  /** Index of the first event with a position greater than `position` (binary search: positions only grow). */
  const indexAfter = (position: number): number => {
    let low = 0;
    let high = events.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (events[middle]!.position <= position) low = middle + 1;
      else high = middle;
    }
    return low;
  };

  const readPage = (after: number, limit: number, filter: NormalizedFilter): Page => {
    const found: RecordedEvent[] = [];
    for (let i = indexAfter(after); i < events.length && found.length < limit; i += 1) {
      const event = events[i]!;
      if (matchesFilter(filter, event.stream, event.type)) found.push(toRecordedEvent(event));
    }
    return { events: found, scannedThrough: limit > 0 && found.length === limit ? found.at(-1)!.position : head() };
  };

  const ensureOpen = () => {
    if (closed) throw new Error('The ledger is closed.');
  };

  const source: PageSource = { readPage, watch: watchers.add };

  return {
    url: 'memory:',

    append: async (stream, newEvents, appendOptions) => {
      ensureOpen();
      const request = prepareAppend(stream, newEvents, appendOptions);
      const list = streams.get(stream) ?? [];
      const actual = list.length - 1;
      if (!isExpectedRevision(request.expected, actual)) throw wrongExpectedRevision(stream, request.expected, actual);
      for (const { id } of request.events)
        if (ids.has(id)) throw new LedgerInputError(`an event with id ${id} is already stored`);
      const recordedAt = now().toISOString();
      let prevHash = events.at(-1)?.hash ?? GENESIS_HASH;
      let position = head();
      let revision = actual === NO_REVISION ? -1 : actual;
      for (const event of request.events) {
        position += 1;
        revision += 1;
        const fields = { position, stream, revision, recordedAt, ...event };
        const stored: StoredEvent = { ...fields, prevHash, hash: eventHash(prevHash, fields) };
        prevHash = stored.hash;
        events.push(stored);
        list.push(stored);
        ids.add(stored.id);
      }
      streams.set(stream, list);
      watchers.changed();
      checkpoints.committed({ position, hash: prevHash });
      return { nextExpectedRevision: revision, position };
    },

    readStream: async (stream, readOptions) => {
      ensureOpen();
      const { fromRevision, maxCount } = normalizeReadStream(readOptions);
      const list = streams.get(stream) ?? [];
      return list.slice(fromRevision, fromRevision + Math.min(maxCount, list.length)).map(toRecordedEvent);
    },

    readAll: async (readOptions) => {
      ensureOpen();
      const { fromPosition, maxCount, filter } = normalizeReadAll(readOptions);
      return [...readPage(fromPosition, maxCount, filter).events];
    },

    subscribe: (subscribeOptions) => {
      if (closed) return throwError(() => new Error('The ledger is closed.'));
      const { fromPosition, filter } = normalizeSubscribe(subscribeOptions);
      return catchUpSubscription(source, { fromPosition, filter, pageSize });
    },

    headPosition: async () => {
      ensureOpen();
      return head();
    },

    verify: async (): Promise<VerifyReport> => {
      ensureOpen();
      const walker = chainWalker(await readCheckedCheckpoint(store.checkpoint, signer));
      for (const event of events) if (!walker.push(event)) break;
      return walker.report(head());
    },

    close: async () => {
      if (closed) return;
      closed = true;
      await checkpoints.close();
      watchers.ended();
    },
  };
};
