/**
 * Doctor's check of the private files: the data folder and everything in it (keys/ included) must give group and
 * others nothing, and so must the ledger, its WAL files and its checkpoint when they live elsewhere. It only reads:
 * the daemon tightens what it owns at its next start, key files and the token are for the owner to chmod.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { checkpointPathFor } from '../../adapters/ledger/checkpointStore.ts';
import { sqlitePath } from '../../adapters/ledger/openLedger.ts';
import { sqliteCompanions } from '../../adapters/ledger/privateFile.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { inside, privateDataDirRules } from '../runtime/privateDataDir.ts';
import { fail, ok, type Check } from './checks.ts';

export interface LoosePath {
  readonly path: string;
  readonly mode: number;
  readonly directory: boolean;
}

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

const looseOf = (path: string): LoosePath | null => {
  let mode: number;
  try { mode = lstatSync(path).mode; } catch { return null; }
  const kind = mode & 0o170000;
  if (kind === 0o120000) return null; // a symbolic link's own mode means nothing
  return (mode & 0o077) === 0 ? null : { path, mode: mode & 0o777, directory: kind === 0o040000 };
};

/** Every path under the data folder (and the ledger's files outside it) that group or others may use. */
export const loosePaths = (config: TollgateConfig, configPath: string | null = null): { readonly loose: LoosePath[]; readonly files: number; readonly unreadable: string[] } => {
  const dataDir = resolve(config.data.dir);
  // The configuration file is not data (principal.config checks who may write it), wherever it lies.
  const exclude = [...(privateDataDirRules(config, dataDir).exclude ?? []), ...(configPath === null ? [] : [resolve(configPath)])];
  const loose: LoosePath[] = [];
  const unreadable: string[] = [];
  let files = 0;
  const note = (path: string) => { const found = looseOf(path); if (found) loose.push(found); };
  const visit = (dir: string) => {
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { unreadable.push(dir); return; }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (exclude.some((e) => inside(path, resolve(e)))) continue;
      note(path);
      if (entry.isDirectory()) visit(path);
      else files += 1;
    }
  };
  if (existsSync(dataDir)) {
    note(dataDir);
    visit(dataDir);
  }
  if (config.ledger.url.startsWith('sqlite:')) {
    let ledger: string | null = null;
    try { ledger = sqlitePath(config.ledger.url, process.cwd()); } catch { /* a bad URL is the daemon's error to report */ }
    if (ledger !== null && !inside(ledger, dataDir)) {
      for (const path of [ledger, ...sqliteCompanions(ledger), checkpointPathFor(ledger), join(dirname(ledger), 'keys')]) {
        if (existsSync(path)) { files += 1; note(path); }
      }
    }
  }
  const token = resolve(config.server.http.token_file);
  if (!inside(token, dataDir) && existsSync(token)) { files += 1; note(token); }
  return { loose, files, unreadable };
};

const shown = 8;

export const privateFileChecks = (config: TollgateConfig, configPath: string | null = null): Check[] => {
  const dataDir = resolve(config.data.dir);
  const title = 'private files';
  if (config.ledger.url === 'memory:' && !existsSync(dataDir)) return [ok('data.private', title, `memory ledger; ${dataDir} does not exist`)];
  const { loose, files, unreadable } = loosePaths(config, configPath);
  if (loose.length === 0) {
    const unseen = unreadable.length > 0 ? `; ${unreadable.join(', ')} cannot be listed by you, so the files inside were not checked (run doctor as the daemon's user for that)` : '';
    return [ok('data.private', title, existsSync(dataDir)
      ? `${dataDir} is private (no group or other bits on it or on any of its ${files} files${unseen ? ' that could be seen' : ''})${unseen}`
      : `${dataDir} does not exist yet (the daemon creates it 0700)`)];
  }
  const listed = loose.slice(0, shown).map((l) => `${l.path} is ${octal(l.mode)}`).join('; ');
  const more = loose.length > shown ? `; and ${loose.length - shown} more` : '';
  const dirs = loose.filter((l) => l.directory).map((l) => l.path);
  const plain = loose.filter((l) => !l.directory).map((l) => l.path);
  const fix = loose.length > shown
    ? `chmod -R go-rwx ${dataDir}`
    : [dirs.length > 0 ? `chmod 700 ${dirs.join(' ')}` : '', plain.length > 0 ? `chmod 600 ${plain.join(' ')}` : ''].filter(Boolean).join('; ');
  return [fail('data.private', title, `group or others may use tollgate's data (what the user typed, keys, checkpoints): ${listed}${more}`, fix)];
};
