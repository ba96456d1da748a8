/** A fresh folder per test under the system temp folder, removed afterwards; tests never share files. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  readonly path: string;
  /** A path inside the folder (nothing is created). */
  file(...names: string[]): string;
  remove(): Promise<void>;
}

export const createTempDir = async (label = 'tollgate'): Promise<TempDir> => {
  const path = await mkdtemp(join(tmpdir(), `${label}-`));
  return {
    path,
    file: (...names) => join(path, ...names),
    remove: () => rm(path, { recursive: true, force: true }),
  };
};

/**
 * Mocha helper: a new temp folder for each test, removed after it. Call inside `describe`; read `.current` in tests.
 */
export const useTempDir = (label?: string): { readonly current: TempDir } => {
  const holder: { current: TempDir | undefined } = { current: undefined };
  beforeEach(async () => {
    holder.current = await createTempDir(label);
  });
  afterEach(async () => {
    await holder.current?.remove();
    holder.current = undefined;
  });
  return {
    get current() {
      if (!holder.current) throw new Error('useTempDir: only available inside a test');
      return holder.current;
    },
  };
};
