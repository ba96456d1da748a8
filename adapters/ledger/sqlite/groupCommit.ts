/**
 * Group commit: appends that arrive in the same event-loop turn are written in one BEGIN IMMEDIATE transaction
 * (one fsync for all of them), each inside its own SAVEPOINT so one caller's wrong expected revision or duplicate
 * id fails only that caller. The chain head and each stream's revision are read inside the write transaction, so
 * another process appending to the same file between two groups cannot fork the chain.
 */
import type Database from 'better-sqlite3';
import type { ChainHead } from '../checkpointWriter.ts';
import { isExpectedRevision, NO_REVISION, wrongExpectedRevision } from '../expectedRevision.ts';
import { eventHash, GENESIS_HASH } from '../hashChain.ts';
import { LedgerInputError } from '../port.ts';
import type { AppendResult } from '../port.ts';
import type { PreparedAppend } from '../validateAppend.ts';
import type { Statements } from './statements.ts';
import type { StoredEvent } from '../storedEvent.ts';

export interface GroupCommitOptions {
  readonly db: Database.Database;
  readonly statements: Statements;
  readonly now: () => Date;
  /** Appends per transaction; the rest go into the next one at once. @defaultValue 1000 */
  readonly maxGroupSize?: number;
  /** Called after each commit that stored at least one event, with the rows it stored in position order. */
  readonly onCommitted: (head: ChainHead, rows: readonly StoredEvent[]) => void;
}

export interface GroupCommitter {
  append(request: PreparedAppend): Promise<AppendResult>;
  /** Writes everything queued now, synchronously (close uses it). */
  drain(): void;
}

interface Queued {
  readonly request: PreparedAppend;
  readonly resolve: (result: AppendResult) => void;
  readonly reject: (error: unknown) => void;
}

type Outcome = { readonly ok: true; readonly result: AppendResult } | { readonly ok: false; readonly error: unknown };

const isDuplicateId = (error: unknown) =>
  (error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && String((error as Error).message).includes('events.id');

export const groupCommitter = ({ db, statements, now, maxGroupSize = 1000, onCommitted }: GroupCommitOptions): GroupCommitter => {
  const queue: Queued[] = [];
  let scheduled: NodeJS.Immediate | undefined;

  // Nested inside the group transaction, better-sqlite3 runs this as SAVEPOINT ... RELEASE (ROLLBACK TO on a throw).
  const insertEvents = db.transaction((request: PreparedAppend, head: ChainHead, revision: number, recordedAt: string) => {
    const { stream } = request;
    let { position, hash: prevHash } = head;
    const rows: StoredEvent[] = [];
    for (const event of request.events) {
      position += 1;
      revision += 1;
      const hash = eventHash(prevHash, { position, stream, revision, recordedAt, ...event });
      statements.insert.run(position, stream, revision, event.type, event.version, event.data, event.metadata, recordedAt, prevHash, hash, event.id);
      rows.push({ position, id: event.id, stream, revision, type: event.type, version: event.version, data: event.data, metadata: event.metadata, recordedAt, prevHash, hash });
      prevHash = hash;
    }
    return { position, hash: prevHash, revision, rows };
  });

  const writeGroup = db.transaction((group: readonly Queued[]) => {
    let head: ChainHead = statements.head.get() ?? { position: 0, hash: GENESIS_HASH };
    const rows: StoredEvent[] = [];
    const outcomes = group.map(({ request }): Outcome => {
      const actual = statements.streamRevision.get(request.stream) ?? NO_REVISION;
      if (!isExpectedRevision(request.expected, actual))
        return { ok: false, error: wrongExpectedRevision(request.stream, request.expected, actual) };
      try {
        const written = insertEvents(request, head, actual, now().toISOString());
        head = { position: written.position, hash: written.hash };
        rows.push(...written.rows);
        return { ok: true, result: { nextExpectedRevision: written.revision, position: written.position } };
      } catch (error) {
        // If SQLite gave up the whole transaction (I/O error, disk full), no later append may run outside it.
        if (!db.inTransaction) throw error;
        if (isDuplicateId(error)) return { ok: false, error: new LedgerInputError('an event id in this append is already stored') };
        return { ok: false, error };
      }
    });
    return { outcomes, head, rows };
  });

  const flushOnce = () => {
    const group = queue.splice(0, maxGroupSize);
    let written: ReturnType<typeof writeGroup>;
    try {
      written = writeGroup.immediate(group);
    } catch (error) {
      for (const queued of group) queued.reject(error);
      return;
    }
    written.outcomes.forEach((outcome, i) => {
      const { resolve, reject } = group[i]!;
      if (outcome.ok) resolve(outcome.result);
      else reject(outcome.error);
    });
    if (written.rows.length > 0) onCommitted(written.head, written.rows);
  };

  const flush = () => {
    scheduled = undefined;
    flushOnce();
    if (queue.length > 0) scheduled = setImmediate(flush);
  };

  return {
    append: (request) =>
      new Promise<AppendResult>((resolve, reject) => {
        queue.push({ request, resolve, reject });
        // setImmediate, not a microtask: appends made from other callbacks of this loop turn join the group.
        scheduled ??= setImmediate(flush);
      }),
    drain: () => {
      if (scheduled) clearImmediate(scheduled);
      scheduled = undefined;
      while (queue.length > 0) flushOnce();
    },
  };
};
