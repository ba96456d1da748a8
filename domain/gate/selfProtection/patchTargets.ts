/**
 * The files a Hermes patch would touch. Replace mode names one `path`; patch mode (V4A) names them in
 * `*** Update File:`, `*** Add File:`, `*** Delete File:` and `*** Move File: a -> b` headers (both sides count),
 * read leniently: any spacing, any case of the verb. A unified diff's headers (`--- a/x`, `+++ b/x`, `diff --git`,
 * rename and copy lines) count too, each path as written and without git's `a/` / `b/` prefix (red team 7): a tool
 * that applies them strips one level. A patch whose headers cannot be read is reported so the layer can refuse it
 * when it mentions a protected path anywhere.
 */

export interface PatchTargets {
  readonly paths: readonly string[];
  /** Sources of `Move File` (Hermes runs it as `mv`, so a folder moves with everything in it). */
  readonly moved: readonly string[];
  /** True when patch mode's text had no header this reader understood. */
  readonly unreadable: boolean;
}

const header = /^\s*\*{3}\s*(update|add|delete|move)\s+(?:file\s*)?(?:to\s*)?:?\s*(.*?)\s*$/i;
/** `--- PATH[\tdate]`, `+++ PATH`, `rename from PATH`, `copy to PATH`; `diff --git a/X b/Y` separately. */
const unifiedHeader = /^(?:(?:---|\+\+\+)[ \t]+|(?:rename|copy)[ \t]+(?:from|to)[ \t]+)("(?:[^"\\]|\\.)*"|[^\t]*?)(?:\t.*)?\s*$/;
const gitDiffHeader = /^diff --git[ \t]+(\S+)[ \t]+(\S+)\s*$/;

/** A unified diff path as written and, for git's `a/x` / `b/x`, as a tool stripping one level reads it. */
const unifiedPaths = (path: string): string[] => {
  const plain = path.startsWith('"') ? path.slice(1, -1).replace(/\\(.)/g, '$1') : path;
  if (plain === '' || plain === '/dev/null') return [];
  return /^[ab]\//.test(plain) ? [plain, plain.slice(2)] : [plain];
};

export const patchTargets = (args: Readonly<Record<string, unknown>>): PatchTargets => {
  const paths: string[] = [];
  for (const key of ['path', 'file_path', 'notebook_path']) {
    const value = args[key];
    if (typeof value === 'string') paths.push(value);
  }
  const text = args['patch'];
  if (typeof text !== 'string') return { paths, moved: [], unreadable: args['mode'] === 'patch' && paths.length === 0 };
  const moved: string[] = [];
  let found = false;
  for (const line of text.split(/\r?\n|\r/)) {
    const unified = line.startsWith('diff --git') ? gitDiffHeader.exec(line) : null;
    if (unified !== null) { found = true; paths.push(...unifiedPaths(unified[1]!), ...unifiedPaths(unified[2]!)); continue; }
    const side = /^(?:---|\+\+\+|rename |copy )/.test(line) ? unifiedHeader.exec(line) : null;
    if (side !== null) { found = true; paths.push(...unifiedPaths(side[1]!)); continue; }
    const match = header.exec(line);
    if (match === null) continue;
    found = true;
    const rest = match[2]!;
    if (match[1]!.toLowerCase() === 'move') {
      const sides = rest.split(/\s*->\s*/).filter((p) => p !== '');
      paths.push(...sides);
      if (sides[0] !== undefined) moved.push(sides[0]);
    }
    else if (rest !== '') paths.push(rest);
  }
  return { paths, moved, unreadable: !found };
};

/**
 * The lines a V4A patch adds, per file (`*** Add File:` / `*** Update File:` then `+` lines; a move's new name
 * takes them): what the file will hold, or part of it, judged as a script written there would be.
 */
export const patchAddedTexts = (patch: string): { readonly path: string; readonly text: string }[] => {
  const out: { path: string; lines: string[] }[] = [];
  let current: { path: string; lines: string[] } | null = null;
  for (const line of patch.split(/\r?\n|\r/)) {
    const m = header.exec(line);
    if (m !== null) {
      const verb = m[1]!.toLowerCase();
      const path = verb === 'move' ? (m[2]!.split(/\s*->\s*/)[1] ?? '') : m[2]!;
      current = verb === 'delete' || path === '' ? null : { path, lines: [] };
      if (current !== null) out.push(current);
      continue;
    }
    if (current !== null && line.startsWith('+')) current.lines.push(line.slice(1));
  }
  return out.filter((f) => f.lines.length > 0).map((f) => ({ path: f.path, text: f.lines.join('\n') }));
};
