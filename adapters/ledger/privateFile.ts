/**
 * Files only the daemon's user may read: what the user typed lives in the ledger and the payload store, so they
 * are 0600 in 0700 folders. SQLite creates a new database with 0644 minus the umask, but gives its -wal, -shm and
 * -journal files the mode of the database file itself (and fchmods them past the umask), so creating the database
 * file 0600 before SQLite opens it keeps every companion private too.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** Told when a mode had to be tightened (one line per path). */
export type Tightened = (line: string) => void;

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

const modeOf = (path: string): number | null => {
  try {
    return lstatSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
};

/** Creates the folder 0700 (parents too), or removes group and other bits from an existing one. */
export const ensurePrivateDir = (dir: string, tightened?: Tightened): void => {
  const mode = modeOf(dir);
  if (mode === null) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    // mkdir is subject to the umask, which only removes bits; chmod makes the mode exact.
    chmodSync(dir, PRIVATE_DIR_MODE);
    return;
  }
  if ((mode & 0o077) !== 0) {
    chmodSync(dir, mode & 0o700);
    tightened?.(`${dir} was mode ${octal(mode)}; tightened to ${octal(mode & 0o700)} (group and others may not enter tollgate's data)`);
  }
};

/** Removes group and other bits from an existing file (symbolic links are left alone: their target is not ours). */
export const tightenFile = (path: string, tightened?: Tightened): void => {
  const mode = modeOf(path);
  if (mode === null || (mode & 0o170000) === 0o120000 || (mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode & 0o700);
  } catch (error) {
    // Not our file (a reader's CLI on the daemon's data): say so, the owner's next start tightens it.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    tightened?.(`${path} is mode ${octal(mode)} and not ours to tighten; run chmod ${octal(mode & 0o700)} ${path} as its owner`);
    return;
  }
  tightened?.(`${path} was mode ${octal(mode)}; tightened to ${octal(mode & 0o700)}`);
};

/** The SQLite companions of a database file, which hold recent writes in clear. */
export const sqliteCompanions = (file: string): string[] => ['-wal', '-shm', '-journal'].map((suffix) => `${file}${suffix}`);

/**
 * Before SQLite opens `file`: creates it empty with mode 0600 when missing (SQLite takes an empty file as a new
 * database), and tightens an existing one and its companions, left looser by an older tollgate.
 */
export const preparePrivateDatabase = (file: string, tightened?: Tightened): void => {
  if (modeOf(file) === null) closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  tightenFile(file, tightened);
  for (const companion of sqliteCompanions(file)) tightenFile(companion, tightened);
};
