/**
 * The ledger port: an append-only, hash-chained event log with KurrentDB semantics.
 * Every engine (memory, sqlite, postgres, kurrentdb) implements this one interface and passes
 * the one contract suite in spec/adapters/ledger/ledgerContract.ts.
 */
import type { Observable } from 'rxjs';

/** Where a global read or subscription starts: before the first event. */
export const START = 0;
export const ANY = 'any';
export const NO_STREAM = 'no_stream';
export const STREAM_EXISTS = 'stream_exists';

/** What the caller believes about the stream before appending. A number is the revision of its last event. */
export type ExpectedRevision = typeof ANY | typeof NO_STREAM | typeof STREAM_EXISTS | number;

/** An event as the application hands it to the ledger. */
export interface NewEvent {
  readonly type: string;
  /** Schema version of `data`; readers upcast older versions. @defaultValue 1 */
  readonly version?: number;
  readonly data: unknown;
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** Unique id; the ledger generates one when absent. */
  readonly id?: string;
}

/** An event as stored: its place in its stream and in the global order, and its link in the hash chain. */
export interface RecordedEvent {
  readonly id: string;
  /** 1-based position in the global order across all streams. */
  readonly position: number;
  readonly stream: string;
  /** 0-based revision within its stream. */
  readonly revision: number;
  readonly type: string;
  readonly version: number;
  readonly data: unknown;
  readonly metadata: Readonly<Record<string, unknown>>;
  /** ISO-8601 time the ledger stored it (wall clock of the adapter; not used by decisions). */
  readonly recordedAt: string;
  /** Hex SHA-256 of the previous event's hash and this event's canonical encoding. */
  readonly hash: string;
  readonly prevHash: string;
}

export interface AppendOptions {
  /** @defaultValue ANY */
  readonly expected?: ExpectedRevision;
}

export interface AppendResult {
  /** Revision of the last event appended to the stream. */
  readonly nextExpectedRevision: number;
  /** Global position of the last event appended. */
  readonly position: number;
}

export interface LedgerFilter {
  /** Keep events whose stream name starts with one of these prefixes. */
  readonly streamPrefixes?: readonly string[];
  /** Keep events of these types. */
  readonly types?: readonly string[];
}

export interface ReadStreamOptions {
  /** @defaultValue 0 */
  readonly fromRevision?: number;
  readonly maxCount?: number;
}

export interface ReadAllOptions {
  /** Read events with a position greater than this. @defaultValue START */
  readonly fromPosition?: number;
  readonly maxCount?: number;
  readonly filter?: LedgerFilter;
}

/** What a subscription emits: history first, one caught-up mark, then live events with no gap or duplicate. */
export type LedgerMessage =
  | { readonly kind: 'event'; readonly event: RecordedEvent }
  | { readonly kind: 'caught-up'; readonly position: number };

export interface SubscribeOptions {
  /** Deliver events with a position greater than this. @defaultValue START */
  readonly fromPosition?: number;
  readonly filter?: LedgerFilter;
}

export interface VerifyReport {
  readonly ok: boolean;
  /** Events whose chain link was checked. */
  readonly checked: number;
  readonly head: number;
  /** The first position where the chain breaks (or where the checkpoint says events are missing). */
  readonly firstBadPosition?: number;
  readonly problem?: string;
  /** The signed checkpoint that was compared, when there is one. */
  readonly checkpoint?: { readonly position: number; readonly hash: string; readonly signatureValid: boolean };
}

export interface Ledger {
  readonly url: string;
  append(stream: string, events: readonly NewEvent[], options?: AppendOptions): Promise<AppendResult>;
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribe(options?: SubscribeOptions): Observable<LedgerMessage>;
  /** Position of the last stored event (START when empty). */
  headPosition(): Promise<number>;
  /** Walks the hash chain from the start and compares the signed checkpoint. */
  verify(): Promise<VerifyReport>;
  close(): Promise<void>;
}

/** A wrong expected revision: typed, with fields, so callers can re-run the decider on fresh state. */
export class WrongExpectedRevisionError extends Error {
  readonly type = 'wrong-expected-revision' as const;
  constructor(
    readonly streamName: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or NO_STREAM. */
    readonly actual: number | typeof NO_STREAM,
  ) {
    super(`Wrong expected revision on ${streamName}: expected ${String(expected)}, actual ${String(actual)}.`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export const isWrongExpectedRevision = (error: unknown): error is WrongExpectedRevisionError =>
  error instanceof WrongExpectedRevisionError;

/** The ledger refused input it cannot store (bad stream name, empty batch, unserialisable data). */
export class LedgerInputError extends Error {
  readonly type = 'ledger-input' as const;
  constructor(message: string) {
    super(message);
    this.name = 'LedgerInputError';
  }
}
