/**
 * Projection checkpoints the gate can trust: the grants checkpoint holds the allowlist, and its file is writable by
 * whoever shares the daemon's user. Each checkpoint carries an HMAC-SHA256, under a key only the daemon holds, over
 * its projection name, code hash, position and state. One whose MAC is missing or wrong (edited by hand, or copied
 * from another data folder with another key) is rejected: the projection is rebuilt from the ledger, which is
 * hash-chained and signed, and the rejection is reported so it can be recorded.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../domain/encoding/canonicalJson.ts';
import type { CheckpointStore, ProjectionCheckpoint } from './checkpointStore.ts';

export interface CheckpointRejection {
  readonly name: string;
  /** Why, in words for a log line (never the checkpoint's content). */
  readonly problem: string;
}

export interface AuthenticatedCheckpointOptions {
  /** At least 32 bytes. */
  readonly key: Buffer;
  /** Awaited before the projection starts from scratch; a failure here does not stop the rebuild. */
  readonly onRejected?: (rejection: CheckpointRejection) => Promise<void> | void;
}

// A fixed label and the name bound in: a MAC made for anything else, or for another projection, does not pass.
const macOf = (key: Buffer, name: string, { codeHash, position, state }: ProjectionCheckpoint): string =>
  createHmac('sha256', key)
    .update(canonicalJson({ kind: 'tollgate-projection-checkpoint', version: 1, name, codeHash, position, state }))
    .digest('hex');

const sameMac = (expected: string, given: string): boolean =>
  given.length === expected.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));

export const authenticatedCheckpoints = (inner: CheckpointStore, options: AuthenticatedCheckpointOptions): CheckpointStore => {
  if (options.key.length < 32) throw new Error('The projection checkpoint key must hold at least 32 bytes.');
  const reject = async (name: string, problem: string): Promise<null> => {
    try {
      await options.onRejected?.({ name, problem });
    } catch {
      // Reporting failed (the ledger may be failing too); rebuilding is still the safe answer.
    }
    return null;
  };
  return {
    load: async (name) => {
      let stored: ProjectionCheckpoint | null;
      try {
        stored = await inner.load(name);
      } catch (error) {
        return reject(name, `it cannot be read (${(error as Error).message})`);
      }
      if (stored === null) return null;
      if (typeof stored.mac !== 'string') return reject(name, 'it carries no MAC');
      let expected: string;
      try {
        expected = macOf(options.key, name, stored);
      } catch (error) {
        return reject(name, `its state cannot be encoded (${(error as Error).message})`);
      }
      if (!sameMac(expected, stored.mac)) return reject(name, 'its MAC does not match (edited, or written under another key)');
      return stored;
    },
    save: async (name, checkpoint) => {
      const { codeHash, position, state } = checkpoint;
      await inner.save(name, { codeHash, position, state, mac: macOf(options.key, name, checkpoint) });
    },
  };
};
