/**
 * Where a script's text is recorded before decide (ScriptFacts): under its absolute path, or, where the working
 * directory is not known (and not lost), under `unknownFolder` and its path there. The daemon reads only absolute
 * paths from disk; the unknown folder holds what eval saw relative writes put there (`write_file run.txt`, then
 * `bash run.txt`), so a scenario without a folder reads as the real run would, where both land in the same place.
 */
import { resolvePath, type PathContext } from './protectedPaths.ts';
import type { RunScripts } from './commandRules.ts';

export const unknownFolder = 'unknown-folder:';

/** The relative path below the unknown folder, or null when the word is no plain relative path (or leaves the folder). */
export const unknownFolderKey = (word: string, base: string | null = null): string | null => {
  if (word === '' || word.startsWith('/') || /[$`~*?[{\s\\]/.test(word)) return null;
  const out: string[] = [];
  for (const s of `${base ?? ''}/${word}`.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') { if (out.length === 0) return null; out.pop(); } else out.push(s);
  }
  return out.length === 0 ? null : `${unknownFolder}${out.join('/')}`;
};

export const scriptKey = (word: string, context: PathContext): string | null => {
  const absolute = resolvePath(word, context)?.absolute;
  if (absolute != null) return absolute;
  return context.cwd === null && context.lost !== true ? unknownFolderKey(word, context.base ?? null) : null;
};

/** The recorded text of a script a word names, if any. */
export const recordedScript = (scripts: RunScripts, word: string, context: PathContext): string | undefined => {
  const key = scriptKey(word, context);
  return key === null ? undefined : scripts[key];
};
