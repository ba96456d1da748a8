/**
 * A planned change to one file, and how it is applied: the old file is copied beside itself first
 * (`<name>.tollgate-backup-<UTC time>`, same mode), then the new content replaces it atomically (temp file + rename).
 * A plan with no changes means "already installed".
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface FileChange {
  readonly path: string;
  /** null: the file does not exist yet. */
  readonly before: Buffer | null;
  readonly after: Buffer;
  /** Permission bits of a new file (an existing file keeps its own). */
  readonly mode: number;
  /** One line for the report, e.g. `plugins.enabled: added tollgate`. */
  readonly summary: string;
  /** Shown by --dry-run under the summary. */
  readonly preview?: string;
}

export interface AppliedChange {
  readonly change: FileChange;
  /** Where the old file was copied, or null for a new file. */
  readonly backup: string | null;
}

export const backupStamp = (now: Date): string => now.toISOString().replace(/\.\d+Z$/, 'Z').replaceAll(':', '').replaceAll('-', '');

/** A backup path beside `path` that does not exist yet. */
export const backupPathFor = (path: string, now: Date): string => {
  const base = `${path}.tollgate-backup-${backupStamp(now)}`;
  let candidate = base;
  for (let n = 2; existsSync(candidate); n++) candidate = `${base}-${n}`;
  return candidate;
};

export const applyChanges = (changes: readonly FileChange[], now: Date): AppliedChange[] => changes.map((change) => {
  mkdirSync(dirname(change.path), { recursive: true });
  let backup: string | null = null;
  let mode = change.mode;
  if (existsSync(change.path)) {
    mode = statSync(change.path).mode & 0o7777;
    backup = backupPathFor(change.path, now);
    copyFileSync(change.path, backup);
    chmodSync(backup, mode);
  }
  const temp = join(dirname(change.path), `.${basename(change.path)}.tollgate-${process.pid}-${Date.now()}.tmp`);
  writeFileSync(temp, change.after, { mode });
  chmodSync(temp, mode);
  renameSync(temp, change.path);
  return { change, backup };
});

/** The lines that differ, with a little context: enough to review an edit of a config file in --dry-run. */
export const lineDiff = (before: string, after: string, context = 2): string => {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const from = Math.max(0, start - context);
  const lines = [
    ...a.slice(from, start).map((l) => `  ${l}`),
    ...a.slice(start, endA).map((l) => `- ${l}`),
    ...b.slice(start, endB).map((l) => `+ ${l}`),
    ...a.slice(endA, Math.min(a.length, endA + context)).map((l) => `  ${l}`),
  ];
  return `@@ line ${start + 1}\n${lines.join('\n')}`;
};
