/**
 * Catch-up then live, shared by every adapter that can read pages by position. One cursor reads every page, history
 * and live alike, so an append racing the catch-up is delivered exactly once whichever side of the mark it lands on.
 */
import { Observable } from 'rxjs';
import type { LedgerMessage, RecordedEvent } from './port.ts';
import type { NormalizedFilter } from './readOptions.ts';

export interface Page {
  /** Matching events after the requested position, in order. */
  readonly events: readonly RecordedEvent[];
  /** Every position up to this one has been looked at (the head when the page is not full). */
  readonly scannedThrough: number;
}

export interface PageSource {
  readPage(afterPosition: number, limit: number, filter: NormalizedFilter): Page;
  /**
   * Calls `onChange` after events may have been appended and `onEnd` when the ledger closes; returns the function
   * that stops watching.
   */
  watch(onChange: () => void, onEnd: () => void): () => void;
}

export interface CatchUpOptions {
  readonly fromPosition: number;
  readonly filter: NormalizedFilter;
  readonly pageSize: number;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export const catchUpSubscription = (source: PageSource, options: CatchUpOptions): Observable<LedgerMessage> =>
  new Observable<LedgerMessage>((subscriber) => {
    let cursor = options.fromPosition;
    let caughtUp = false;
    let running = false;
    let again = false;

    const pump = async (): Promise<void> => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      try {
        do {
          again = false;
          for (;;) {
            const page = source.readPage(cursor, options.pageSize, options.filter);
            for (const event of page.events) {
              if (subscriber.closed) return;
              subscriber.next({ kind: 'event', event });
            }
            cursor = Math.max(cursor, page.scannedThrough);
            if (page.events.length < options.pageSize) break;
            // Give appends and other readers a turn between history pages.
            await nextTurn();
            if (subscriber.closed) return;
          }
          if (!caughtUp && !subscriber.closed) {
            caughtUp = true;
            subscriber.next({ kind: 'caught-up', position: cursor });
          }
        } while (again && !subscriber.closed);
      } catch (error) {
        subscriber.error(error);
      } finally {
        running = false;
      }
    };

    // Watch before the first read, so an append between the read and the watch cannot be missed.
    const stopWatching = source.watch(
      () => queueMicrotask(() => void pump()),
      () => subscriber.complete(),
    );
    void pump();
    return stopWatching;
  });
