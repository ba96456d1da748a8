/**
 * Whether a folder read whole (a recursive search, an archive, a copy) reaches tollgate's keys or token, after
 * what the walk skips: dot names a searcher leaves out, names its excludes and includes filter (treeReaders.ts).
 * Also a pattern read with case folded (`shopt -s nocaseglob; cat .TOLLGATE/KEYS/*`).
 *
 * A relative folder where the working directory is unknown is matched at every folder above a secret that is not
 * itself tollgate's (the terminal is taken to be outside the data folder, unless a `cd` the gate followed says
 * otherwise): `.`, `*` and `**\/keys` may each reach the keys from the home or a project, while a literal name
 * must say enough on its own, as by tail matching (`.tollgate`, `project/data`; not `data` nor `keys`).
 */
import type { PathHit, ProtectionIndex } from './protectedPaths.ts';
import { globSegmentMatches, isPattern, namesAlone } from './protectedPaths.ts';
import type { Globbing } from './lineGlobbing.ts';

/** The files tollgate keeps as secrets, as named on disk (ops/gate/protectedState.ts keyFileNames, and the HTTP token). */
export const secretFileNames: readonly string[] = ['payload-hmac.key', 'checkpoint-hmac.key', 'checkpoint.ed25519', 'runtime-registrations.json', 'http-token'];
const keyFiles = secretFileNames.filter((n) => n !== 'http-token');

/** A glob a walk applies to a name, in order: the last one that matches decides whether the name is kept. */
export interface NameRule {
  readonly glob: string;
  readonly keep: boolean;
  readonly caseless?: boolean;
}

/** What a program's walk of a folder leaves out. */
export interface WalkFilter {
  /** False: names starting with '.' below the folder given are skipped (rg and ag without --hidden). */
  readonly hidden: boolean;
  readonly dirRules: readonly NameRule[];
  readonly fileRules: readonly NameRule[];
  /** Whether a file no file rule matches is read (false once an include-only glob is given). */
  readonly unmatchedFilesKept: boolean;
}

export const readsEverything: WalkFilter = { hidden: true, dirRules: [], fileRules: [], unmatchedFilesKept: true };

interface Secret {
  readonly segments: readonly string[];
  readonly what: string;
  /** The keys folder: its files are the key files. */
  readonly folder: boolean;
  /** How many leading segments an unknown working directory may have: the folders above it that are not tollgate's. */
  readonly starts: readonly number[];
}

const tollgateOwn = new Set(['data', 'secret', 'socket-dir']);
const secretsByIndex = new WeakMap<ProtectionIndex, readonly Secret[]>();
const secretsOf = (index: ProtectionIndex): readonly Secret[] => {
  let secrets = secretsByIndex.get(index);
  if (secrets !== undefined) return secrets;
  const own = index.entries.filter((e) => tollgateOwn.has(e.kind)).map((e) => e.path);
  secrets = index.entries.filter((e) => e.kind === 'secret').map((e) => {
    const starts: number[] = [];
    for (let p = 0; p < e.segments.length; p++) {
      const dir = `/${e.segments.slice(0, p).join('/')}`;
      if (!own.some((o) => dir === o || dir.startsWith(`${o}/`))) starts.push(p);
    }
    return { segments: e.segments, what: e.path, folder: e.segments[e.segments.length - 1] === 'keys', starts };
  });
  secretsByIndex.set(index, secrets);
  return secrets;
};

/** A folder named by its segments: absolute (from the root), or relative to a working directory the gate does not know. */
export interface NamedFolder {
  readonly segments: readonly string[];
  readonly relative: boolean;
}

/**
 * The secret a walk of the folder reads ('tree'), or that a pattern names ('names': the file itself or a key
 * file below the keys folder), or null.
 */
export const secretReached = (
  folder: NamedFolder, index: ProtectionIndex, globbing: Globbing, filter: WalkFilter, mode: 'tree' | 'names', caseless = false,
): PathHit | null => {
  const path = folder.segments;
  // A literal relative name must say enough by itself (`.tollgate`, `project/data`), as matchRelative asks.
  if (folder.relative && path.length === 1 && !isPattern(path[0]!) && !namesAlone(path[0]!)) return null;
  for (const secret of secretsOf(index)) {
    const starts = folder.relative ? secret.starts : [0];
    for (const start of starts) {
      if (reaches(path, 0, secret, start, globbing, filter, mode, caseless)) {
        const where = folder.relative ? ' (the folder it is in is unknown to the gate; use an absolute path, or cd to one first)' : '';
        return { kind: 'secret', what: `${secret.what}${where}` };
      }
    }
  }
  return null;
};

const reaches = (
  path: readonly string[], at: number, secret: Secret, depth: number, globbing: Globbing, filter: WalkFilter, mode: 'tree' | 'names', caseless: boolean,
): boolean => {
  const names = secret.segments;
  if (at === path.length) return mode === 'tree' ? walkReads(names.slice(depth), secret.folder, filter) : depth === names.length && !secret.folder;
  const segment = path[at]!;
  if (segment === '**' && globbing.globstar) {
    // Any number of folders, none a dot name unless dotglob is on.
    for (let to = depth; to <= names.length; to++) {
      if (to > depth && names[to - 1]!.startsWith('.') && !globbing.dotglob) break;
      if (reaches(path, at + 1, secret, to, globbing, filter, mode, caseless)) return true;
    }
    return false;
  }
  if (depth < names.length) return segmentMatches(segment, names[depth]!, globbing, caseless) && reaches(path, at + 1, secret, depth + 1, globbing, filter, mode, caseless);
  // One level below the keys folder: a key file, named or matched.
  return secret.folder && at === path.length - 1 && keyFiles.some((n) => segmentMatches(segment, n, globbing, caseless));
};

const segmentMatches = (segment: string, name: string, globbing: Globbing, caseless: boolean): boolean => {
  if (!isPattern(segment)) return caseless ? segment.toLowerCase() === name.toLowerCase() : segment === name;
  // Bash's patterns leave dot names alone unless the pattern starts with '.' or dotglob is on.
  if (name.startsWith('.') && !segment.startsWith('.') && !globbing.dotglob) return false;
  return globSegmentMatches(segment, name, caseless);
};

/** Whether walking down these names (below the folder given) reads a secret file the filter keeps. */
const walkReads = (below: readonly string[], folder: boolean, filter: WalkFilter): boolean => {
  // The secret file itself, given by name: read whatever the filters say.
  if (below.length === 0 && !folder) return true;
  const files = folder ? keyFiles.map((n) => [...below, n]) : [below];
  return files.some((file) => !skipped(file, filter));
};

const skipped = (file: readonly string[], filter: WalkFilter): boolean => {
  if (!filter.hidden && file.some((s) => s.startsWith('.'))) return true;
  for (let i = 0; i < file.length - 1; i++) if (ruling(file[i]!, filter.dirRules) === false) return true;
  const kept = ruling(file[file.length - 1]!, filter.fileRules);
  return kept === null ? !filter.unmatchedFilesKept : !kept;
};

const ruling = (name: string, rules: readonly NameRule[]): boolean | null => {
  let kept: boolean | null = null;
  for (const rule of rules) if (globSegmentMatches(rule.glob, name, rule.caseless === true)) kept = rule.keep;
  return kept;
};
