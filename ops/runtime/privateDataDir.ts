/**
 * At start the data folder is made private: 0700, and every file and folder in it without group or other bits,
 * because it holds what the user typed (ledger, payloads and their WAL files), keys, checkpoints and the socket.
 * Key files and the HTTP token are not touched here: their loaders refuse a loose one (as ssh does), since a key
 * others could read may already be known to them. Each change is told in one line.
 */
import { readdirSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ensurePrivateDir, tightenFile, type Tightened } from '../../adapters/ledger/privateFile.ts';
import type { TollgateConfig } from '../config/configSchema.ts';

export interface PrivateDataDirOptions {
  /** Paths (files or folders) whose mode is someone else's business, e.g. a group-readable human socket folder. */
  readonly exclude?: readonly string[];
  /** Secrets refused by their loaders when loose; left as they are so the refusal is seen. */
  readonly secrets?: readonly string[];
  readonly tightened?: Tightened;
}

export const inside = (path: string, root: string): boolean => {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

export const securePrivateDataDir = (dataDir: string, options: PrivateDataDirOptions = {}): void => {
  const root = resolve(dataDir);
  const exclude = (options.exclude ?? []).map((p) => resolve(p));
  const secrets = new Set((options.secrets ?? []).map((p) => resolve(p)));
  const keys = join(root, 'keys');
  ensurePrivateDir(root, options.tightened);
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (exclude.some((e) => inside(path, e))) continue;
      if (entry.isDirectory()) {
        ensurePrivateDir(path, options.tightened);
        visit(path);
      } else if (entry.isFile() && !secrets.has(path) && !inside(path, keys)) {
        tightenFile(path, options.tightened);
      }
      // Sockets are made 0600 by whoever binds them; symbolic links are not followed (their target is not ours).
    }
  };
  visit(root);
};


/**
 * What the start-up pass leaves alone: the HTTP token (refused when loose), and the human socket's folder when it is
 * inside data.dir, since the approvers' group is meant to enter it.
 */
export const privateDataDirRules = (config: TollgateConfig, dataDir: string): Pick<PrivateDataDirOptions, 'exclude' | 'secrets'> => {
  const humanSocket = (config.server as { human_socket?: unknown }).human_socket;
  const exclude: string[] = [];
  if (typeof humanSocket === 'string') {
    const socket = resolve(humanSocket);
    exclude.push(socket);
    const folder = dirname(socket);
    if (folder !== resolve(dataDir) && inside(folder, resolve(dataDir))) exclude.push(folder);
  }
  return { exclude, secrets: [resolve(config.server.http.token_file)] };
};
