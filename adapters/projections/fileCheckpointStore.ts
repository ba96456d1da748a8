/**
 * Projection checkpoints as JSON files (mode 0600) in a 0700 folder, written atomically (temp file, fsync, rename).
 * The files are not trusted by themselves: the runtime wraps this store in authenticatedCheckpoints, which checks
 * the MAC kept in each file.
 */
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointStore, ProjectionCheckpoint } from '../../projections/checkpointStore.ts';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export const fileCheckpointStore = (dir: string): CheckpointStore => ({
  // Missing is null (start from the ledger); present but not a checkpoint throws, so the caller can say so.
  load: async (name) => {
    let text: string;
    try {
      text = await readFile(join(dir, `${name}.json`), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const parsed: unknown = JSON.parse(text);
    const codeHash = isObject(parsed) ? parsed['codeHash'] : undefined;
    const position = isObject(parsed) ? parsed['position'] : undefined;
    if (!isObject(parsed) || typeof codeHash !== 'string' || typeof position !== 'number') throw new Error('not a projection checkpoint');
    const mac = parsed['mac'];
    return { codeHash, position, state: parsed['state'], ...(typeof mac === 'string' ? { mac } : {}) } satisfies ProjectionCheckpoint;
  },
  save: async (name, checkpoint) => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const target = join(dir, `${name}.json`);
    const temporary = `${target}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      // A temp file left by a crashed run keeps its old mode when reopened: make it private either way.
      await handle.chmod(0o600);
      await handle.writeFile(JSON.stringify(checkpoint));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  },
});
