/**
 * Folders read whole (a copy, an archive, a recursive search, code that walks a tree): which of tollgate's secrets
 * such a read reaches. Shared by the shell rows (shellRules.ts) and the code readers (inlineCode.ts).
 */
import { containsAnywhere, containsProtected, isPattern, resolvePath, type PathContext, type PathHit, type ProtectionIndex } from './protectedPaths.ts';
import type { Globbing } from './lineGlobbing.ts';
import { readsEverything, secretReached, type WalkFilter } from './secretWalks.ts';
import { withDefaults } from './shellScope.ts';

export const pathSegments = (path: string): string[] => path.split('/').filter((s) => s !== '');

/**
 * The secret a folder read whole reaches, after what the walk skips: at a known place (the word as written and
 * where a link of the call leads), at every folder a relative word may start from where the directory is unknown
 * (secretWalks.ts), or anywhere where the terminal was lost.
 */
export const treeReadHit = (word: string, context: PathContext, index: ProtectionIndex, filter: WalkFilter, globbing: Globbing): PathHit | null => {
  const own = treeReadAsWritten(word, context, index, filter, globbing);
  if (own !== null || !word.includes('${')) return own;
  const fallback = withDefaults(word);
  return fallback === word ? null : treeReadAsWritten(fallback, context, index, filter, globbing);
};

const treeReadAsWritten = (word: string, context: PathContext, index: ProtectionIndex, filter: WalkFilter, globbing: Globbing): PathHit | null => {
  const resolved = resolvePath(word, context);
  if (resolved === null) return null;
  if (resolved.anywhere != null) return containsAnywhere(resolved.anywhere, index, true, resolved.unknownVariable);
  const caseless = globbing.nocaseglob && isPattern(word);
  if (resolved.absolute !== null) {
    const held = containsProtected(resolved.absolute, index, true);
    // Unfiltered and case kept, the folder holds them or not; else the walk decides (`rg x ~` skips `.tollgate`).
    if (filter === readsEverything && !caseless) return held;
    if (held === null && !caseless) return null;
    const real = index.links.get(resolved.absolute);
    for (const path of real === undefined ? [resolved.absolute] : [resolved.absolute, real]) {
      const hit = secretReached({ segments: pathSegments(path), relative: false }, index, globbing, filter, 'tree', caseless);
      if (hit !== null) return hit;
    }
    return null;
  }
  const relative = resolved.based ?? resolved.relative;
  return relative == null || context.cwd !== null ? null : secretReached({ segments: relative, relative: true }, index, globbing, filter, 'tree', caseless);
};
