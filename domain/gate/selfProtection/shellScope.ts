/**
 * What the rules know while reading one command line: the facts' lookups, the working directory of each simple
 * command (the tool's `workdir`, then every `cd` before it), and how a word of that command resolves.
 */
import { normalizePath } from '../../shell/shellPaths.ts';
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import { recentMemo } from '../../shell/recentMemo.ts';
import { withoutPrintedLiterals } from './pythonCode.ts';
import { cannotName, hermesProtectedNames, matchPath, mentionedPath, resolvePath, type PathContext, type PathHit, type ProtectionIndex } from './protectedPaths.ts';

export interface LineScope {
  readonly index: ProtectionIndex;
  readonly analysis: ShellAnalysis;
  /** The working directory of each command of the analysis (same order); null when unknown. */
  readonly cwds: readonly (string | null)[];
  /** Where the directory is unknown: the relative folder `cd` entered from the start, per command. */
  readonly bases: readonly (string | null)[];
  /** Each command's path context (same order), made once for the rows that all ask for it. */
  readonly contexts: readonly PathContext[];
  /** Words already judged on this line (several rows ask about the same words). */
  readonly judged: Map<string, PathHit | null>;
}

/**
 * `lost`: the line starts where the session's terminal went untracked. A `cd` the line cannot resolve (`cd $X`,
 * `cd -`, `cd "$(mktemp -d)"`) loses the directory too, for the commands after it.
 */
/** What the session's terminal exported that changes how words read: an unknown HOME, or a known one, and unknowns. */
export interface LineVariables {
  readonly home?: string | null;
  readonly unknown: ReadonlySet<string>;
}

export const lineScope = (analysis: ShellAnalysis, index: ProtectionIndex, workdir: string | null, lost = false, cdpath = false, variables?: LineVariables): LineScope => {
  const hermesHome = index.facts.hermesHome;
  // `export HOME=…` in an earlier call moves `~` for this line; exported with an unknown value, `~` is unknown.
  const home = variables?.home !== undefined ? variables.home : index.facts.home;
  const start = workdir === null ? null : absoluteDir(workdir, { home, hermesHome, cwd: null });
  const cwds: (string | null)[] = [];
  const bases: (string | null)[] = [];
  const losts: boolean[] = [];
  let cwd = start;
  let base: string | null = null;
  let gone = lost && start === null;
  // pushd's folders, so popd returns where the line was (red team 6: pushd, pushd, popd back into a Hermes home).
  const stack: { cwd: string | null; base: string | null; gone: boolean }[] = [];
  const cdpathOnLine = cdpath || analysis.source.includes('CDPATH=');
  // After a `cd` CDPATH may have sent elsewhere, the analyzer's own reckoning of the folder is not trusted either.
  let searchedSince = false;
  for (const command of analysis.commands) {
    const known = command.cwd === undefined || searchedSince ? null : absoluteDir(command.cwd, { home, hermesHome, cwd: start });
    cwds.push(known ?? cwd);
    bases.push(known === null && cwd === null ? base : null);
    losts.push(known === null && cwd === null && gone);
    // Followed through the line in order; a `cd` inside a subshell may be over-applied, which errs towards matching.
    const pushes = command.program === 'pushd' && command.args.some((a) => !a.startsWith('-') && !/^[+-]\d+$/.test(a));
    // `-n` changes only the stack, never the folder.
    // `CDPATH=/root cd .hermes`: leading assignments leave the builtin running in this shell, so it still moves.
    const direct = command.via.length === 0 || command.via.every((v) => /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(v));
    if ((command.program === 'pushd' || command.program === 'popd') && command.args.includes('-n') && direct) {
      if (command.program === 'popd') stack.pop();
      continue;
    }
    if ((command.program === 'pushd' || command.program === 'popd') && !pushes && direct) {
      // `popd` returns to the folder the line pushed from; `pushd +1`, a bare `pushd` (swap) or a popd past what the
      // line pushed lands in a folder of the stack the gate never saw: the directory is lost.
      const back = command.program === 'popd' && command.args.every((a) => a === '--') ? stack.pop() : undefined;
      if (back !== undefined) ({ cwd, base, gone } = back);
      else { cwd = null; base = null; gone = true; }
      continue;
    }
    if (pushes && direct) stack.push({ cwd, base, gone });
    if ((command.program === 'cd' || pushes) && direct) {
      const target = command.args.find((a) => !a.startsWith('-') || a === '-');
      const relativeTarget = target !== undefined && target !== '-' && !/^[/~$]/.test(target);
      // With CDPATH exported (or set on this line), `cd data` may land in any of its folders: the directory is lost.
      const searched = relativeTarget && !/^\.{1,2}(?:\/|$)/.test(target!) && cdpathOnLine;
      if (searched) searchedSince = true;
      else if (target !== undefined && /^[/~]/.test(target)) searchedSince = false;
      cwd = target === undefined ? home : target === '-' || searched ? null : absoluteDir(target, { home, hermesHome, cwd });
      base = cwd === null && relativeTarget && !searched ? (base === null ? target : `${base}/${target}`) : null;
      if (cwd !== null) gone = false;
      else if (!relativeTarget || searched) gone = true;
    }
  }
  const unknownVariables = variables?.unknown;
  const contexts = cwds.map((at, i) => ({ home, hermesHome, cwd: at, base: bases[i] ?? null, lost: losts[i] ?? false, ...(unknownVariables && unknownVariables.size > 0 ? { unknownVariables } : {}) }));
  return { index, analysis, cwds, bases, contexts, judged: new Map() };
};

const absoluteDir = (word: string, context: PathContext): string | null => {
  const resolved = resolvePath(word, context);
  return resolved?.absolute ?? null;
};

const unknownPlace = (scope: LineScope): PathContext => ({ home: scope.index.facts.home, hermesHome: scope.index.facts.hermesHome, cwd: null, base: null });

export const contextOf = (scope: LineScope, command: SimpleCommand): PathContext =>
  scope.contexts[scope.analysis.commands.indexOf(command)] ?? unknownPlace(scope);

/** What a word of one command of the line names, judged once per line. */
export const wordHit = (scope: LineScope, command: SimpleCommand, word: string): PathHit | null => {
  const context = contextOf(scope, command);
  if (cannotName(word, context, scope.index)) return null;
  const key = `${context.cwd ?? ''}\u0000${context.base ?? ''}\u0000${context.lost === true ? 'lost' : ''}\u0000${word}`;
  let hit = scope.judged.get(key);
  if (hit === undefined) scope.judged.set(key, hit = hitOf(word, context, scope.index));
  return hit;
};

/** A lookup of the guard's or the runtime's program: which, command -v, type -p/-P, whereis, readlink of either. */
const guardProgramLookup = /(?:\$\(|`)\s*(?:(?:readlink|realpath)\s+(?:-\w+\s+)*(?:\$\(|`)\s*)?(?:which|command\s+-[vV]|type\s+-[pPa]+|whereis\s+(?:-\w+\s+)*|hash\s+-t)\s+['"]?(tollgate|hermes|hermes-agent|claude)\b/;

/** The protected thing a word of the command names, if any. */
export const hitOf = (word: string, context: PathContext, index: ProtectionIndex): PathHit | null => {
  // `rm $(which tollgate)`, `: > "$(command -v hermes)"`: the program's own file, found at run time.
  if (word.includes('$(') || word.includes('`')) {
    const found = guardProgramLookup.exec(word);
    if (found !== null) return { kind: 'code', what: `the ${found[1]} program (${found[0]})` };
  }
  if (cannotName(word, context, index)) return null;
  const resolved = resolvePath(word, context);
  const hit = resolved === null ? null : matchPath(resolved, index);
  if (hit !== null || !word.includes('${')) return hit;
  // `${NOPE:-/srv/h/config.yaml}`, `${X:+AGENTS.md}`: the expansion may be its default (red team 4, F1).
  const fallback = withDefaults(word);
  return fallback === word ? null : hitOf(fallback, context, index);
};

/** The word with each `${NAME:-WORD}`, `${NAME-WORD}`, `${NAME:=WORD}`, `${NAME=WORD}`, `${NAME:+WORD}`, `${NAME+WORD}` as its WORD. */
export const withDefaults = (word: string): string =>
  word.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*:?[-=+?]([^{}]*)\}/g, (_, fallback: string) => fallback.replace(/^["']|["']$/g, ''));

const distinctiveName = /(?:tollgate\.ya?ml|ledger\.db(?:-wal|-shm)?|payloads\.db(?:-wal|-shm)?|tollgate\.sock|http-token)$/;

/**
 * Texts already searched, per path context: the socket, secret and write rows, and the code row, each search the
 * same code of one command. A line's contexts are made once (lineScope), so their identity keys the memo.
 */
const textHits = recentMemo((_context: PathContext) => ({ index: null as ProtectionIndex | null, hits: new Map<string, PathHit | null>() }));

/** Protected paths inside code or prose: absolute mentions, and path-like tokens (with a '/', or a protected name). */
export const hitInText = (raw: string, context: PathContext, index: ProtectionIndex): PathHit | null => {
  const memo = textHits(context);
  if (memo.index !== index) { memo.index = index; memo.hits.clear(); }
  let hit = memo.hits.get(raw);
  if (hit === undefined) {
    hit = searchText(raw, context, index);
    // A line's texts are few; a huge script or cell is not kept past its call's needs.
    if (memo.hits.size < 64 && raw.length <= 65_536) memo.hits.set(raw, hit);
  }
  return hit;
};

const searchText = (raw: string, context: PathContext, index: ProtectionIndex): PathHit | null => {
  // A literal that is only printed (`python3 -c "print('data/keys')"`) names nothing that is opened.
  // Format placeholders stand for unknown values: `f'{d}/http-token'` is judged as `$_/http-token`.
  // Adjacent string literals are one string in awk, Python and C (`"/srv/her" "mes/config.yaml"`): joined first.
  const joined = /"\s+"|'\s+'/.test(raw) ? raw.replace(/"\s+"|'\s+'/g, '') : raw;
  const text = withoutPrintedLiterals(joined).replace(/\{[A-Za-z_][A-Za-z0-9_.]*\}/g, '$_');
  const absolute = mentionedPath(text, index);
  if (absolute !== null) return absolute;
  for (const token of text.match(/[^\s'"(),;=[\]{}<>|&]+/g) ?? []) {
    const hermesName = context.lost === true && hermesProtectedNames.has(token);
    if (!token.includes('/') && !index.rulesFiles.has(token) && !token.startsWith('.hermes') && !distinctiveName.test(token) && !hermesName) continue;
    const hit = hitOf(token, context, index);
    if (hit !== null) return hit;
  }
  return null;
};

export const normalDir = normalizePath;
