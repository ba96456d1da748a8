/** Projection checkpoints as JSON files in a folder, written atomically (temp file, fsync, rename). */
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckpointStore, ProjectionCheckpoint } from '../../projections/checkpointStore.ts';

export const fileCheckpointStore = (dir: string): CheckpointStore => ({
  load: async (name) => {
    try {
      const parsed = JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as ProjectionCheckpoint;
      return typeof parsed.codeHash === 'string' && typeof parsed.position === 'number' ? parsed : null;
    } catch {
      return null; // missing or unreadable: the projection is rebuilt from the ledger, which is always safe
    }
  },
  save: async (name, checkpoint) => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const target = join(dir, `${name}.json`);
    const temporary = `${target}.${process.pid}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(JSON.stringify(checkpoint));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  },
});
