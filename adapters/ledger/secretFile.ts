/**
 * Key files (the checkpoint signing key, the payload HMAC key): created on first use with mode 0600 in a 0700
 * folder, and refused when group or others may read or write them, as ssh does with private keys.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

export class KeyFilePermissionError extends Error {
  constructor(readonly path: string, readonly mode: number) {
    super(`Refusing key file ${path}: its mode ${(mode & 0o777).toString(8)} lets group or others use it; run chmod 600 ${path}.`);
    this.name = 'KeyFilePermissionError';
  }
}

const exists = async (path: string): Promise<boolean> => {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
};

/** Writes the new key beside its final name, then hard-links it in: two processes racing to create it agree on one. */
const createOnce = async (path: string, content: Buffer): Promise<void> => {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, 'wx', 0o600);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
};

export const loadOrCreateSecretFile = async (path: string, create: () => Buffer): Promise<Buffer> => {
  if (!(await exists(path))) await createOnce(path, create());
  const { mode } = await stat(path);
  if ((mode & 0o077) !== 0) throw new KeyFilePermissionError(path, mode);
  return readFile(path);
};
