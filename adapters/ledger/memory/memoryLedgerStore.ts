/**
 * What a memory ledger keeps, separate from the ledger object so a test can close the ledger, edit the store the
 * way an attacker would edit a file, and open a new ledger over it.
 */
import type { KeyObject } from 'node:crypto';
import { ephemeralCheckpointKey } from '../checkpoint.ts';
import { memoryCheckpointStore } from '../checkpointStore.ts';
import type { StoredEvent } from '../storedEvent.ts';

export interface MemoryLedgerStore {
  /** Stored events in global order. */
  readonly events: StoredEvent[];
  readonly checkpoint: ReturnType<typeof memoryCheckpointStore>;
  /** The checkpoint signing key; it lives outside `events`, as the file key lives outside the sqlite file. */
  readonly key: KeyObject;
}

export const createMemoryLedgerStore = (): MemoryLedgerStore => ({
  events: [],
  checkpoint: memoryCheckpointStore(),
  key: ephemeralCheckpointKey(),
});
