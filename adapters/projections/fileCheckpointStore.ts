/**
 * Projection checkpoints as JSON files (mode 0600) in a 0700 folder, written atomically (temp file, fsync, rename),
 * each authenticated. The grants checkpoint holds the allowlist, and the agent's user can write these files in the
 * single-user setup, so every file ends with an HMAC-SHA256, under a key only the daemon holds, over the exact bytes
 * before it and the projection's name. A file whose MAC is missing or wrong (edited, or copied from another data
 * folder with another key) is rejected: the projection is rebuilt from the ledger, which is hash-chained and signed,
 * and the rejection is reported so it can be recorded. The MAC covers bytes, not a re-encoding, so a checkpoint costs
 * one JSON.stringify and one HMAC.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointStore, ProjectionCheckpoint } from '../../projections/checkpointStore.ts';

export interface CheckpointRejection {
  readonly name: string;
  /** Why, in words for a log line (never the checkpoint's content). */
  readonly problem: string;
}

export interface FileCheckpointOptions {
  /** At least 32 bytes (keys/checkpoint-hmac.key). */
  readonly key: Buffer;
  /** Awaited before the projection starts from scratch; a failure here does not stop the rebuild. */
  readonly onRejected?: (rejection: CheckpointRejection) => Promise<void> | void;
}

// The file is `{"codeHash":…,"position":…,"state":…,"mac":"<64 hex>"}`: still JSON, the MAC its last member.
const macTail = /,"mac":"([0-9a-f]{64})"\}\s*$/;

// A fixed label and the name bound in: a MAC made for anything else, or for another projection, does not pass.
const macOf = (key: Buffer, name: string, body: string): string =>
  createHmac('sha256', key).update(`tollgate-projection-checkpoint/1\n${name}\n`).update(body).digest('hex');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const MAC_MISMATCH = 'its MAC does not match (edited, or written under another key)';
export const NO_MAC = 'it carries no MAC';

export const fileCheckpointStore = (dir: string, options: FileCheckpointOptions): CheckpointStore => {
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
      let text: string;
      try {
        text = await readFile(join(dir, `${name}.json`), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // first start: the ledger has it all
        return reject(name, `it cannot be read (${(error as Error).message})`);
      }
      const tail = macTail.exec(text);
      if (tail === null) return reject(name, NO_MAC);
      const body = `${text.slice(0, tail.index)}}`;
      const expected = Buffer.from(macOf(options.key, name, body));
      if (!timingSafeEqual(expected, Buffer.from(tail[1]!))) return reject(name, MAC_MISMATCH);
      let parsed: unknown;
      try { parsed = JSON.parse(body); } catch { return reject(name, 'it is not JSON'); }
      const codeHash = isObject(parsed) ? parsed['codeHash'] : undefined;
      const position = isObject(parsed) ? parsed['position'] : undefined;
      if (!isObject(parsed) || typeof codeHash !== 'string' || typeof position !== 'number') return reject(name, 'it is not a projection checkpoint');
      return { codeHash, position, state: parsed['state'] } satisfies ProjectionCheckpoint;
    },
    save: async (name, { codeHash, position, state }) => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const body = JSON.stringify({ codeHash, position, state });
      const target = join(dir, `${name}.json`);
      const temporary = `${target}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
      const handle = await open(temporary, 'wx', 0o600);
      try {
        await handle.writeFile(`${body.slice(0, -1)},"mac":"${macOf(options.key, name, body)}"}`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      try {
        await rename(temporary, target);
      } catch (error) {
        await unlink(temporary).catch(() => undefined);
        throw error;
      }
    },
  };
};
