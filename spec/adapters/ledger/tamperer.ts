/**
 * What an attacker with write access to the ledger's storage can do, as hooks each adapter's spec provides. The
 * hooks run while the ledger is closed and bypass it entirely (for sqlite: a second connection on the file).
 */
import type { StoredEvent } from '../../../adapters/ledger/storedEvent.ts';

/** Stored fields a tamper test edits; `position` is left out because deleting an event covers gaps. */
export const storedFields = ['id', 'stream', 'revision', 'type', 'version', 'data', 'metadata', 'recordedAt', 'prevHash', 'hash'] as const;
export type StoredField = (typeof storedFields)[number];

export interface Tamperer {
  /** Flips one bit of one stored field of the event at `position` (a character of a text, the low bit of a number). */
  changeField(position: number, field: StoredField): Promise<void>;
  deleteEvent(position: number): Promise<void>;
  /** Deletes the last `count` events. */
  deleteTail(count: number): Promise<void>;
  /** Edits the data of the event at `position` and recomputes every hash from there, so the chain itself is whole. */
  rewriteFrom(position: number): Promise<void>;
  /** Flips one bit of the stored checkpoint's signature. */
  breakCheckpointSignature(): Promise<void>;
}

/** One bit of difference: the low bit of a number, or of the middle character of a text. */
export const flipOneBit = <T extends string | number>(value: T): T => {
  if (typeof value === 'number') return (value ^ 1) as T;
  const middle = Math.floor(value.length / 2);
  return (value.slice(0, middle) + String.fromCharCode(value.charCodeAt(middle) ^ 1) + value.slice(middle + 1)) as T;
};

export const flipSignature = (signature: string): string => {
  const bytes = Buffer.from(signature, 'base64');
  bytes[0] = bytes[0]! ^ 1;
  return bytes.toString('base64');
};

/** The attacker's edit for rewriteFrom: different data that is still valid canonical JSON. */
export const forgedData = (data: string): string => JSON.stringify({ forged: true, was: data.length });

export type { StoredEvent };
