/**
 * An event as every adapter stores it. `data` and `metadata` are kept as canonical JSON text, so the hash chain can
 * be checked from the stored bytes without decoding and re-encoding them.
 */
import type { RecordedEvent } from './port.ts';

export interface StoredEvent {
  readonly position: number;
  readonly id: string;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly version: number;
  /** Canonical JSON text of the event's data. */
  readonly data: string;
  /** Canonical JSON text of the event's metadata (an object). */
  readonly metadata: string;
  readonly recordedAt: string;
  readonly prevHash: string;
  readonly hash: string;
}

/**
 * Decodes a stored row into the port's shape; every call returns fresh objects, so callers cannot edit the store.
 * Metadata (which carries the recorded command, the larger part of a decision) is parsed on first read: the
 * live feeds of projections never look at it.
 */
export const toRecordedEvent = (row: StoredEvent): RecordedEvent => {
  let metadata: Record<string, unknown> | undefined;
  const event = {
    id: row.id,
    position: row.position,
    stream: row.stream,
    revision: row.revision,
    type: row.type,
    version: row.version,
    data: JSON.parse(row.data) as unknown,
    recordedAt: row.recordedAt,
    hash: row.hash,
    prevHash: row.prevHash,
  };
  return Object.defineProperty(event, 'metadata', {
    enumerable: true,
    get: () => (metadata ??= JSON.parse(row.metadata) as Record<string, unknown>),
  }) as RecordedEvent;
};
