/** Where the signed checkpoint is kept: a file beside the ledger (replaced atomically), or memory. */
import { randomBytes } from 'node:crypto';
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseCheckpoint } from './checkpoint.ts';
import type { Checkpoint, CheckpointSigner } from './checkpoint.ts';
import type { CheckedCheckpoint } from './hashChain.ts';

export interface CheckpointStore {
  /** undefined when there is none yet; throws when there is one that is not a checkpoint. */
  read(): Promise<Checkpoint | undefined>;
  write(checkpoint: Checkpoint): Promise<void>;
}

export const checkpointPathFor = (ledgerPath: string) => `${ledgerPath}.checkpoint.json`;

const syncDirectory = async (directory: string) => {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

export const fileCheckpointStore = (path: string): CheckpointStore => ({
  read: async () => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return parseCheckpoint(JSON.parse(text));
  },
  // Temp file, fsync, rename, fsync the folder: a crash leaves the old checkpoint or the new one, never half of one.
  write: async (checkpoint) => {
    const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(checkpoint, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, path);
    } catch (error) {
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
    await syncDirectory(dirname(path));
  },
});

/** Holds the checkpoint as JSON text, so an edit to it behaves like an edit to the file. */
export const memoryCheckpointStore = (): CheckpointStore & { text: string | undefined } => {
  const store = {
    text: undefined as string | undefined,
    read: async () => (store.text === undefined ? undefined : parseCheckpoint(JSON.parse(store.text))),
    write: async (checkpoint: Checkpoint) => {
      store.text = JSON.stringify(checkpoint);
    },
  };
  return store;
};

/** The stored checkpoint as verify needs it; an unreadable one is reported as untrusted, not thrown. */
export const readCheckedCheckpoint = async (
  store: CheckpointStore,
  signer: CheckpointSigner,
): Promise<CheckedCheckpoint | undefined> => {
  try {
    const stored = await store.read();
    return stored && signer.check(stored);
  } catch (error) {
    return { position: 0, hash: '', signatureValid: false, signatureProblem: `it cannot be read (${(error as Error).message})` };
  }
};
