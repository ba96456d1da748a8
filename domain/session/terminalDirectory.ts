/**
 * Where the session's terminal is. Hermes' terminal keeps its directory from call to call (it reads `pwd -P`
 * after each command, and a call's `workdir` is where that command starts, so it stays there too), while the cwd
 * a runtime reports is its own process's folder. So the session follows the terminal: each allowed terminal line
 * that moves ends in a directory that is known only when the line says so plainly; anything unclear is unknown
 * (null), and the floor then judges relative paths without a directory.
 */
import type { ShellAnalysis } from '../shell/shellAnalysis.ts';
import { normalizePath } from '../shell/shellPaths.ts';

/** The tool whose shell keeps its directory between calls (Hermes' terminal). */
export const terminalTool = 'terminal';

/** Programs that move the shell (or may: a sourced script can `cd`). */
const movers = new Set(['cd', 'pushd', 'popd', 'source', '.']);
/** Syntax in which a `cd` may not run, or runs in a subshell (`||`, groups, substitutions, control flow, `&`). */
const unclearSyntax = /\|\||[(){}`]|(?<![&>])&(?![&>])|(?:^|[;&|\n]\s*)(?:if|then|else|elif|fi|case|esac|while|until|for|do|done|select|function|coproc|trap)\b/;

/** A directory word made absolute: `~`-based, absolute, or below `from`; null when it cannot be known. */
export const resolveDirectory = (word: string, from: string | null, home: string | null, hermesHome: string | null = null): string | null => {
  // `cd $HERMES_HOME`, `cd "${HOME}/x"`: the two variables the gate knows (red team 3, F1).
  const known = /^\$(?:\{(HOME|HERMES_HOME)\}|(HOME|HERMES_HOME)(?![A-Za-z0-9_]))/.exec(word);
  if (known !== null) {
    const base = (known[1] ?? known[2]) === 'HOME' ? home : hermesHome;
    return base === null ? null : resolveDirectory(`${base}${word.slice(known[0].length)}`, from, home, hermesHome);
  }
  if (word === '' || /[$`*?[\]{}\\'"\s]/.test(word)) return null;
  if (word === '~') return home;
  if (word.startsWith('~/')) return home === null ? null : normalizePath(`${home}/${word.slice(2)}`);
  if (word.startsWith('~')) return null;
  if (word.startsWith('/')) return normalizePath(word);
  return from === null ? null : normalizePath(`${from}/${word}`);
};

/** Where a call starts: an absolute or `~` workdir overrides the session's directory; a relative one is unknown. */
export const callStart = (workdir: unknown, cwd: string | null, home: string | null): string | null => {
  if (typeof workdir !== 'string' || workdir === '') return cwd;
  return /^[/~]/.test(workdir) ? resolveDirectory(workdir, null, home) : null;
};

/** Whether the call moves the terminal: a `workdir`, or a line that changes (or may change) directory. */
export const movesTerminal = (args: Readonly<Record<string, unknown>>, shell: ShellAnalysis | null): boolean =>
  (typeof args['workdir'] === 'string' && args['workdir'] !== '')
  || (shell !== null && (!shell.parsed || shell.commands.some((c) => movers.has(c.program) || /[$`]/.test(c.program))));

/** Whether the line has a `cd` whose target depends on where it starts (`cd data`, `cd ..`). */
export const movesRelatively = (shell: ShellAnalysis | null): boolean =>
  shell?.commands.some((c) => c.program === 'cd' && c.args.some((a) => !a.startsWith('-') && !/^[/~]/.test(a))) ?? false;

/**
 * The absolute targets of the line's top-level `cd`s, in order, as `directoryAfter` would resolve them (the gate
 * looks up which exist, since a `cd` into a missing folder fails and leaves the shell where it was).
 */
export const cdTargets = (shell: ShellAnalysis | null, start: string | null, home: string | null, hermesHome: string | null = null): string[] => {
  const out: string[] = [];
  let at = start;
  for (const c of shell?.commands ?? []) {
    if (!changesDirectory(c.program, c.args) || c.via.length > 0) continue;
    at = cdTarget(c.args, at, home, hermesHome);
    if (at !== null) out.push(at);
  }
  return out;
};

const cdTarget = (args: readonly string[], from: string | null, home: string | null, hermesHome: string | null): string | null => {
  const operands = args.filter((a) => a !== '--' && a !== '-L' && a !== '-P');
  if (operands.length > 1 || operands.some((a) => a.startsWith('-'))) return null;
  return operands.length === 0 ? home : resolveDirectory(operands[0]!, from, home, hermesHome);
};

/** `cd DIR`, and `pushd DIR` (it also moves there; a bare `pushd` swaps with the stack, unknown here). */
const changesDirectory = (program: string, args: readonly string[]): boolean =>
  program === 'cd' || (program === 'pushd' && args.some((a) => !a.startsWith('-') && !/^[+-]\d+$/.test(a)));

/**
 * The directory the terminal is in after the line, started in `start`: the last top-level `cd`'s target when the
 * line is a plain run of `cd`s then anything without `cd` (`cd /a && cd b && make`), each target an existing
 * folder; null (unknown) for every other line that moves: `cd "$X"`, `cd -`, `pushd`, `source`, a `cd` in a
 * pipeline, a subshell, a condition, behind `||`, after another command, or nested in `eval`, `bash -c`, ...
 */
export const directoryAfter = (
  shell: ShellAnalysis | null, start: string | null, home: string | null, isDir: (path: string) => boolean, hermesHome: string | null = null,
  cdpath = false,
): string | null => {
  if (shell === null || !shell.commands.some((c) => movers.has(c.program) || /[$`]/.test(c.program))) return start;
  // `${HOME}` is a plain variable, not a group: its braces do not make the line unclear.
  const source = shell.source.replace(/\$\{[A-Za-z_][A-Za-z0-9_]*\}/g, '$V');
  if (!shell.parsed || unclearSyntax.test(source) || /CDPATH/.test(source)) return null;
  const commands = shell.commands;
  const last = commands.reduce((found, c, i) => (changesDirectory(c.program, c.args) ? i : found), -1);
  let at = start;
  for (let i = 0; i < commands.length; i++) {
    const c = commands[i]!;
    if (i > last) {
      if (movers.has(c.program) || /[$`]/.test(c.program)) return null;
      continue;
    }
    if (!changesDirectory(c.program, c.args) || c.via.length > 0 || c.background === true || c.pipedFrom.length > 0) return null;
    if (commands.some((other) => other.pipedFrom.includes('cd') || other.pipedFrom.includes('pushd'))) return null;
    // With CDPATH exported, `cd data` may land in any of its folders (`./data`, `/x`, `~` are not searched).
    if (cdpath && c.args.some((a) => !a.startsWith('-') && !/^(?:[/~]|\.{1,2}(?:\/|$))/.test(a))) return null;
    at = cdTarget(c.args, at, home, hermesHome);
    if (at === null || !isDir(at)) return null;
  }
  return at;
};
