/**
 * The steps of `tollgate install system` / `uninstall system`. Each step looks at the machine first and says what
 * it would change (null: already so), so a second run reports "unchanged" and --dry-run prints the plan; apply()
 * makes it so. Owners are names, resolved at apply time: a user created by an earlier step has a uid by then.
 */
import {
  chmodSync, chownSync, copyFileSync, existsSync, lchownSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, symlinkSync,
  unlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { groupNameOf, lookupGroup, lookupUser, userNameOf } from './accounts.ts';
import { applyChanges } from './fileChanges.ts';

export interface Step {
  /** What the step is about, e.g. `folder /var/lib/tollgate`. */
  readonly subject: string;
  /** What it would change, or null when nothing needs to. */
  readonly change: string | null;
  readonly apply: () => void;
}

export const octal = (mode: number): string => (mode & 0o7777).toString(8).padStart(4, '0');

const uidOf = (name: string): number => {
  if (name === 'root') return 0;
  const u = lookupUser(name);
  if (u === null) throw new Error(`no user ${name}`);
  return u.uid;
};
const gidOf = (name: string): number => {
  if (name === 'root') return 0;
  const g = lookupGroup(name);
  if (g === null) throw new Error(`no group ${name}`);
  return g.gid;
};

export interface Ownership { readonly owner: string; readonly group: string; readonly mode: number }

/** What differs between a file's owner/mode and the wanted ones, or [] (unknown names count as different). */
const ownershipDiff = (path: string, want: Ownership): string[] => {
  const st = lstatSync(path);
  const diffs: string[] = [];
  const owner = userNameOf(st.uid) ?? String(st.uid);
  const group = groupNameOf(st.gid) ?? String(st.gid);
  if (owner !== want.owner || group !== want.group) diffs.push(`owner ${owner}:${group} -> ${want.owner}:${want.group}`);
  if ((st.mode & 0o7777) !== want.mode) diffs.push(`mode ${octal(st.mode)} -> ${octal(want.mode)}`);
  return diffs;
};

const setOwnership = (path: string, want: Ownership): void => {
  chownSync(path, uidOf(want.owner), gidOf(want.group));
  chmodSync(path, want.mode); // after chown, which may clear set-id bits
};

export const dirStep = (path: string, want: Ownership): Step => {
  const subject = `folder ${path} (${want.owner}:${want.group} ${octal(want.mode)})`;
  let change: string | null;
  if (!existsSync(path)) change = 'create';
  else if (!lstatSync(path).isDirectory()) throw new Error(`${path} exists and is not a folder; move it away first`);
  else change = ownershipDiff(path, want).join(', ') || null;
  return { subject, change, apply: () => { mkdirSync(path, { recursive: true }); setOwnership(path, want); } };
};

export const fileStep = (path: string, content: string, want: Ownership, summary: string): Step => {
  const subject = `file ${path} (${want.owner}:${want.group} ${octal(want.mode)})`;
  const before = existsSync(path) ? readFileSync(path) : null;
  const after = Buffer.from(content);
  const changes: string[] = [];
  if (before === null) changes.push(`create: ${summary}`);
  else if (!before.equals(after)) changes.push(`update (backup beside it): ${summary}`);
  if (before !== null) changes.push(...ownershipDiff(path, want));
  return {
    subject, change: changes.join(', ') || null,
    apply: () => {
      if (before === null || !before.equals(after)) applyChanges([{ path, before, after, mode: want.mode, summary }], new Date());
      setOwnership(path, want);
    },
  };
};

export const symlinkStep = (path: string, target: string): Step => {
  const subject = `link ${path} -> ${target}`;
  let current: string | null = null;
  if (existsSync(path) || isSymlink(path)) {
    if (!isSymlink(path)) throw new Error(`${path} exists and is not a symbolic link; move it away first`);
    current = readlinkSync(path);
  }
  return {
    subject, change: current === target ? null : current === null ? 'create' : `replace (now -> ${current})`,
    apply: () => {
      mkdirSync(dirname(path), { recursive: true });
      if (isSymlink(path)) unlinkSync(path);
      symlinkSync(target, path);
    },
  };
};

const isSymlink = (path: string): boolean => { try { return lstatSync(path).isSymbolicLink(); } catch { return false; } };

export const removeStep = (path: string, what: string, guard?: () => string | null): Step => {
  const present = existsSync(path) || isSymlink(path);
  const refusal = present && guard ? guard() : null;
  return {
    subject: `${what} ${path}${refusal === null ? '' : ` (left alone: ${refusal})`}`,
    change: !present ? null : refusal !== null ? null : 'remove',
    apply: () => { if (present && refusal === null) rmSync(path, { recursive: true, force: true }); },
  };
};

// -- the code: a root-owned copy of the clone's working parts ----------------------------------------------------

const skippedInCode = (rel: string, name: string): boolean =>
  name === '__pycache__' || name.endsWith('.pyc') || name.includes('.tollgate-backup-') || name === '.cache'
  || rel === join('adapters', 'hermes', 'plugin', 'tollgate', 'config.json');

interface CodeEntry { readonly rel: string; readonly kind: 'dir' | 'file' | 'link'; readonly mode: number; readonly size: number; readonly mtimeS: number; readonly link?: string }

const listTree = (root: string, tops: readonly string[]): Map<string, CodeEntry> => {
  const out = new Map<string, CodeEntry>();
  const visit = (rel: string) => {
    const path = join(root, rel);
    const st = lstatSync(path);
    if (st.isSymbolicLink()) out.set(rel, { rel, kind: 'link', mode: 0o777, size: 0, mtimeS: 0, link: readlinkSync(path) });
    else if (st.isDirectory()) {
      out.set(rel, { rel, kind: 'dir', mode: 0o755, size: 0, mtimeS: 0 });
      for (const name of readdirSync(path)) if (!skippedInCode(join(rel, name), name)) visit(join(rel, name));
    } else if (st.isFile()) out.set(rel, { rel, kind: 'file', mode: st.mode & 0o111 ? 0o755 : 0o644, size: st.size, mtimeS: Math.floor(st.mtimeMs / 1000) });
  };
  for (const top of tops) if (existsSync(join(root, top)) || isSymlink(join(root, top))) visit(top);
  return out;
};

const sameEntry = (a: CodeEntry, b: CodeEntry | undefined): boolean =>
  b !== undefined && a.kind === b.kind && a.link === b.link && (a.kind !== 'file' || (a.size === b.size && a.mtimeS === b.mtimeS && a.mode === b.mode));

/**
 * Copies `tops` of `source` into `target` as root:root (folders 0755, files 0644, executables 0755), keeping each
 * file's mtime so the next run compares size and mtime instead of reading 140 MB again; removes what the source no
 * longer has. The marker file lets uninstall tell this copy from a folder it must not delete.
 */
export const codeStep = (source: string, target: string, tops: readonly string[], marker: string): Step => {
  const want = listTree(source, tops);
  const have = existsSync(target) ? listTree(target, tops) : new Map<string, CodeEntry>();
  const copy = [...want.values()].filter((e) => !sameEntry(e, have.get(e.rel)) || (e.kind !== 'link' && ownedWrong(join(target, e.rel), e.mode)));
  const remove = [...have.keys()].filter((rel) => !want.has(rel));
  const files = copy.filter((e) => e.kind === 'file');
  const markerMissing = !existsSync(join(target, marker));
  const targetWrong = existsSync(target) && ownedWrong(target, 0o755);
  const parts = [
    ...(copy.length > 0 ? [`copy ${files.length} files (${copy.length - files.length} folders and links)${files.length > 0 && files.length <= 3 ? `: ${files.map((e) => e.rel).join(', ')}` : ''}`] : []),
    ...(remove.length > 0 ? [`remove ${remove.length} entries the source no longer has`] : []),
    ...(markerMissing || targetWrong ? ['mark it as this install\'s copy'] : []),
  ];
  return {
    subject: `code ${target} (copy of ${source}: ${tops.join(' ')}; root:root, not writable by others)`,
    change: parts.join(', ') || null,
    apply: () => {
      mkdirSync(target, { recursive: true, mode: 0o755 });
      chownSync(target, 0, 0);
      chmodSync(target, 0o755);
      for (const rel of remove.sort().reverse()) rmSync(join(target, rel), { recursive: true, force: true });
      for (const entry of copy) {
        const to = join(target, entry.rel);
        if (entry.kind === 'dir') {
          if (isSymlink(to) || (existsSync(to) && !lstatSync(to).isDirectory())) rmSync(to, { force: true });
          mkdirSync(to, { recursive: true });
          chownSync(to, 0, 0);
          chmodSync(to, 0o755);
        } else if (entry.kind === 'link') {
          rmSync(to, { recursive: true, force: true });
          symlinkSync(entry.link!, to);
          lchownSync(to, 0, 0);
        } else {
          if (isSymlink(to) || (existsSync(to) && lstatSync(to).isDirectory())) rmSync(to, { recursive: true, force: true });
          copyFileSync(join(source, entry.rel), to);
          chownSync(to, 0, 0);
          chmodSync(to, entry.mode);
          utimesSync(to, entry.mtimeS, entry.mtimeS); // whole seconds: compared exactly next time
        }
      }
      const markerPath = join(target, marker);
      writeFileSync(markerPath, `installed by tollgate install system from ${source}\n`);
      chownSync(markerPath, 0, 0);
      chmodSync(markerPath, 0o644);
    },
  };
};

const ownedWrong = (path: string, mode: number): boolean => {
  if (!existsSync(path)) return false;
  const st = lstatSync(path);
  return st.uid !== 0 || st.gid !== 0 || (st.mode & 0o7777) !== mode;
};
