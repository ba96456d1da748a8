/**
 * At start the data folder is made private: 0700, and tollgate's own entries in it without group or other bits,
 * because they hold what the user typed (ledger, payloads and their WAL files), keys and checkpoints. Only
 * tollgate's own names are touched, so a data.dir shared with other files (a project folder) keeps their modes.
 * Key files and the HTTP token are not changed here: their loaders refuse a loose one (as ssh does), since a key
 * others could read may already be known to them. Each change is told in one line.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { sqlitePath } from '../../adapters/ledger/openLedger.ts';
import { checkpointPathFor } from '../../adapters/ledger/checkpointStore.ts';
import { ensurePrivateDir, sqliteCompanions, tightenFile, type Tightened } from '../../adapters/ledger/privateFile.ts';
import type { TollgateConfig } from '../config/configSchema.ts';

export interface PrivateDataDirOptions {
  /** tollgate's own entries directly in the data folder (files, or folders taken whole). */
  readonly own: readonly string[];
  /** Paths (files or folders) whose mode is someone else's business, e.g. a group-readable human socket folder. */
  readonly exclude?: readonly string[];
  readonly tightened?: Tightened;
}

export const inside = (path: string, root: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

const kindOf = (path: string): 'dir' | 'file' | 'other' | null => {
  try {
    const stat = lstatSync(path);
    return stat.isDirectory() ? 'dir' : stat.isFile() ? 'file' : 'other';
  } catch {
    return null;
  }
};

export const securePrivateDataDir = (dataDir: string, options: PrivateDataDirOptions): void => {
  const root = resolve(dataDir);
  const exclude = options.exclude ?? [];
  const keys = join(root, 'keys');
  ensurePrivateDir(root, options.tightened);
  const visit = (path: string): void => {
    if (exclude.some((e) => inside(path, e))) return;
    const kind = kindOf(path);
    if (kind === 'dir') {
      ensurePrivateDir(path, options.tightened);
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (kind === 'file' && !inside(path, keys)) {
      tightenFile(path, options.tightened);
    }
    // Sockets are made 0600 by whoever binds them; symbolic links are not followed (their target is not ours).
  };
  for (const entry of options.own) visit(resolve(entry));
};

/**
 * tollgate's entries in data.dir, and what the start-up pass leaves alone: the human socket's folder when it is
 * inside data.dir, since the approvers' group is meant to enter it. The HTTP token is not listed (refused when loose).
 */
export const privateDataDirRules = (config: TollgateConfig, dataDir: string): Pick<PrivateDataDirOptions, 'own' | 'exclude'> => {
  const root = resolve(dataDir);
  const payloads = join(root, 'payloads.db');
  const own = [join(root, 'keys'), join(root, 'projections'), payloads, ...sqliteCompanions(payloads)];
  if (config.ledger.url.startsWith('sqlite:')) {
    try {
      const ledger = sqlitePath(config.ledger.url, process.cwd());
      if (dirname(ledger) === root) own.push(ledger, ...sqliteCompanions(ledger), checkpointPathFor(ledger));
    } catch { /* a bad URL is reported when the ledger opens */ }
  }
  const humanSocket = config.server.human_socket;
  const exclude: string[] = [];
  if (humanSocket !== null) {
    const socket = resolve(humanSocket);
    exclude.push(socket);
    const folder = dirname(socket);
    if (folder !== root && inside(folder, root)) exclude.push(folder);
  }
  return { own, exclude };
};
