/**
 * Chooses the ledger adapter from its URL: `memory:`, `sqlite:./data/ledger.db` (relative to the working folder),
 * `sqlite:/absolute/path.db` or `sqlite:///absolute/path.db`. Postgres and KurrentDB URLs are recognised but
 * their adapters are not built yet.
 */
import { resolve } from 'node:path';
import { openMemoryLedger } from './memory/memoryLedger.ts';
import { LedgerInputError } from './port.ts';
import type { Ledger } from './port.ts';
import { openSqliteLedger } from './sqlite/sqliteLedger.ts';
import type { SqliteLedgerOptions } from './sqlite/sqliteLedger.ts';

export interface OpenLedgerOptions {
  /** Folder that relative sqlite paths resolve against. @defaultValue process.cwd() */
  readonly cwd?: string;
  /** Passed to the sqlite adapter. */
  readonly sqlite?: SqliteLedgerOptions;
}

const notYet = (engine: string) =>
  new LedgerInputError(`The ${engine} ledger adapter is not available yet; use sqlite:./data/ledger.db or memory:.`);

/** `sqlite:<path>`; a `//` form is only accepted as `sqlite:///absolute/path`, because `sqlite://x/y` hides a host. */
export const sqlitePath = (url: string, cwd: string): string => {
  let path = url.slice('sqlite:'.length);
  if (path.startsWith('///')) path = path.slice(2);
  else if (path.startsWith('//')) throw new LedgerInputError(`Ledger URL ${url}: write sqlite:./relative/path.db or sqlite:///absolute/path.db.`);
  if (path === '') throw new LedgerInputError(`Ledger URL ${url} has no file path.`);
  return resolve(cwd, decodeURIComponent(path));
};

export const openLedger = async (url: string, options: OpenLedgerOptions = {}): Promise<Ledger> => {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase();
  switch (scheme) {
    case 'memory':
      if (url !== 'memory:') throw new LedgerInputError(`Ledger URL ${url}: the memory ledger takes no path; write memory:.`);
      return openMemoryLedger();
    case 'sqlite':
      return openSqliteLedger(sqlitePath(url, options.cwd ?? process.cwd()), options.sqlite);
    case 'postgres':
    case 'postgresql':
      return Promise.reject(notYet('postgres'));
    case 'kurrentdb':
    case 'kurrentdb+discover':
    case 'esdb':
    case 'esdb+discover':
      return Promise.reject(notYet('kurrentdb'));
    default:
      throw new LedgerInputError(
        `Unknown ledger URL ${JSON.stringify(url)}: expected memory:, sqlite:<path>, postgres://… or kurrentdb://….`,
      );
  }
};
