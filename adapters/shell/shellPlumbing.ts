/**
 * Plumbing that carries text to a shell other than `echo … | sh`: a process substitution written into
 * (`tee >(sh)`, `printf … > >(bash)`, `exec > >(sh)`), a coprocess, a named pipe or a file written elsewhere on
 * the line (`mkfifo f; sh < f & echo … > f`), a descriptor a script is read from (`bash /dev/fd/3 3<<EOF`),
 * `sh < <(echo …)`, the words xargs hands its command (`echo approve a1 | xargs tollgate`), and `~` after the
 * line changed HOME. Pure over the commands the walk reported: commandExtractor.ts walks the text found here as
 * the code that shell runs, so every rule judges it.
 */
import { programName } from '../../domain/shell/programName.ts';
import type { Redirect, SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { isShell, shellMode, stdinPaths } from '../../domain/shell/shellInvocation.ts';
import { staticOutput } from './staticOutput.ts';

// ---- which descriptor a program reads shell code from ----

const descriptorScript = /^\/(?:dev\/fd|proc\/(?:self|thread-self)\/fd)\/(\d{1,3})$/;

/** Programs that start a shell reading its commands on stdin when given no command: option letters that do so. */
const stdinShellStarters: ReadonlyMap<string, (args: readonly string[]) => boolean> = new Map([
  // `sudo -s` / `sudo -i` (`doas -s`) with no command runs a shell that reads the pipe.
  ['sudo', (args) => operandCount(args, 'CDghpRrtTUu') === 0 && args.some((a) => /^-[a-zA-Z]*[si]/.test(a) || a === '--shell' || a === '--login')],
  ['doas', (args) => args.every((a) => a.startsWith('-')) && args.some((a) => /^-[a-zA-Z]*s/.test(a))],
  // `su`, `su -`, `su root` without -c: the user's shell reads the pipe.
  ['su', (args) => !args.some((a) => /^-[a-zA-Z]*c|^--command|^--session-command/.test(a)) && args.filter((a) => !a.startsWith('-')).length <= 1],
  // `script -q /dev/null` without -c runs $SHELL on a terminal fed by stdin.
  ['script', (args) => !args.some((a) => /^-[a-zA-Z]*c|^--command/.test(a))],
  // `ssh HOST` with no command: the remote login shell reads the pipe, and HOST may be this machine.
  ['ssh', (args) => operandCount(args, 'BbcDEeFIiJLlmOopQRSWw') === 1],
]);

/** How many words are not options nor an option's value (`valued`: the letters taking the next word). */
function operandCount(args: readonly string[], valued: string): number {
  let count = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('-')) { count++; continue; }
    if (arg.startsWith('--')) continue;
    const at = [...arg.slice(1)].findIndex((letter) => valued.includes(letter));
    if (at >= 0 && at === arg.length - 2) i++;
  }
  return count;
}

/**
 * The descriptor the command reads shell code from: 0 for stdin (`sh`, `bash -s`, `source /dev/stdin`,
 * `sudo -s`), N for a script at /dev/fd/N; null when it reads no code from a descriptor.
 */
export const codeDescriptor = (command: SimpleCommand): number | null => {
  const { program, args } = command;
  let path: string | undefined;
  if (isShell(program)) {
    const mode = shellMode(args);
    if (mode.kind === 'stdin') return 0;
    if (mode.kind === 'script-file') path = mode.path;
  } else if (program === 'source' || program === '.') path = args[0];
  else return stdinShellStarters.get(program)?.(args) === true ? 0 : null;
  if (path === undefined) return null;
  if (stdinPaths.has(path)) return 0;
  const fd = descriptorScript.exec(path);
  return fd === null ? null : Number(fd[1]);
};

const readsFrom = (redirect: Redirect, fd: number): boolean => {
  const match = /^(\d*)</.exec(redirect.op);
  return match !== null && Number(match[1] === '' ? 0 : match[1]) === fd;
};

/** What arrives on descriptor `fd`: a heredoc or here-string on it (`feed`), else a file or `<(…)` the line made known. */
export const descriptorText = (
  command: SimpleCommand, fd: number, feed: string | undefined, fileContent: (path: string) => string | undefined,
): string | undefined => {
  let text: string | undefined;
  for (const redirect of command.redirects) {
    if (!readsFrom(redirect, fd)) continue;
    text = /^\d*<<<?-?$/.test(redirect.op) ? feed : redirect.op.replace(/^\d+/, '') === '<' ? fileContent(redirect.target) : undefined;
  }
  return text;
};

/** The file a shell reads its code from when the line did not make it known yet: `sh < f`, `bash f`, `. f`. */
export const codeFile = (command: SimpleCommand, fd: number | null): string | undefined => {
  if (fd === 0) return [...command.redirects].reverse().find((r) => readsFrom(r, 0) && r.op.replace(/^0/, '') === '<')?.target;
  if (fd !== null) return undefined;
  if (isShell(command.program)) { const mode = shellMode(command.args); return mode.kind === 'script-file' ? mode.path : undefined; }
  return command.program === 'source' || command.program === '.' ? command.args[0] : undefined;
};

// ---- text written into a process substitution, a descriptor, a coprocess or a file ----

/** What the command prints, as far as the line knows: echo and printf, and tee or cat passing known input. */
export const printed = (command: SimpleCommand): string | undefined =>
  command.program === 'tee' ? command.stdin : staticOutput(command);

const writesStdout = (op: string): boolean => /^(?:1|&)?>>?\|?$|^&>>?$/.test(op);
const outputSubstitution = /^>\(([\s\S]*)\)$/;

/** `tee >(sh)`, `printf … > >(bash)`: each `>(…)` body the command writes into, with the text it writes (when known). */
export const outputSubstitutions = (command: SimpleCommand): { body: string; text: string | undefined }[] => {
  const out: { body: string; text: string | undefined }[] = [];
  if (command.program === 'tee') {
    for (const arg of command.args) {
      // `tee /dev/fd/3 3> >(sh)`: the descriptor opened on the substitution.
      const fd = descriptorScript.exec(arg)?.[1];
      const target = fd === undefined ? arg : command.redirects.find((r) => r.op === `${fd}>` || r.op === `${fd}>>`)?.target ?? '';
      const m = outputSubstitution.exec(target);
      if (m) out.push({ body: m[1]!, text: command.stdin });
    }
  }
  if (command.program === 'exec') return out;
  for (const r of command.redirects) {
    const m = writesStdout(r.op) ? outputSubstitution.exec(r.target) : null;
    if (m) out.push({ body: m[1]!, text: printed(command) });
  }
  return out;
};

/** Where text bound for a shell arrives: a file or fifo, a descriptor `exec` opened, or a coprocess' input. */
export type Channel =
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'descriptor'; readonly fd: number; readonly after: number }
  | { readonly kind: 'coprocess'; readonly name: string };

/** `exec > >(sh)`, `exec 3> >(bash)`: each `>(…)` body and the descriptor the rest of the line writes it through. */
export const execSubstitutions = (command: SimpleCommand): { body: string; fd: number }[] => {
  if (command.program !== 'exec' || command.args.length > 0) return [];
  return command.redirects.flatMap((r) => {
    const m = /^(\d*|&)(?:>>?\|?|>&)$/.exec(r.op);
    const body = m === null ? null : outputSubstitution.exec(r.target);
    return m === null || body === null ? [] : [{ body: body[1]!, fd: m[1] === '' || m[1] === '&' ? 1 : Number(m[1]) }];
  });
};

/** `exec 3<<EOF`, `exec 3<<< …`, `exec 3< f`: the text each input descriptor `exec` opens holds, when known. */
export const execInputs = (command: SimpleCommand, feed: string | undefined, fileContent: (path: string) => string | undefined): { fd: number; text: string }[] => {
  if (command.program !== 'exec' || command.args.length > 0) return [];
  return command.redirects.flatMap((r) => {
    const m = /^(\d+)(<<<|<<-?|<)$/.exec(r.op);
    if (m === null || m[1] === '0') return [];
    const text = m[2] === '<' ? fileContent(r.target) : feed;
    return text === undefined ? [] : [{ fd: Number(m[1]), text }];
  });
};

/** `sh -c SCRIPT NAME ARG…`: the ARG words, the script's positional parameters; undefined when there are none. */
export const commandStringArgs = (words: readonly string[], script: string): string[] | undefined => {
  if (!isShell(programName(words[0] ?? ''))) return undefined;
  const at = words.indexOf(script, 1);
  return at > 0 && words.length > at + 2 ? words.slice(at + 2) : undefined;
};

/** The name a coprocess' input is reached by: `coproc sh` is COPROC; `coproc NAME { …; }` is NAME. */
export const coprocessName = (command: SimpleCommand): string | null => {
  const via = /^coproc(?: ([A-Za-z_][A-Za-z0-9_]*))?$/.exec(command.via.at(-1) ?? '');
  return via === null ? null : via[1] ?? 'COPROC';
};

/** Whether the command is a shell started by another program (`sudo -s`, `su`, `script`), reading the pipe as code. */
export const startsStdinShell = (command: SimpleCommand): boolean => stdinShellStarters.get(command.program)?.(command.args) === true;

/** What `cat FILE…` prints when the line wrote each file (`sh < <(cat f)`). */
export const catOutput = (command: SimpleCommand, fileContent: (path: string) => string | undefined): string | undefined => {
  if (command.program !== 'cat' || command.args.length === 0 || command.args.some((a) => a.startsWith('-'))) return undefined;
  const parts = command.args.map(fileContent);
  return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
};

/** Whether a command sends its output to the channel. `index` is its place among the line's reported commands. */
const writesTo = (command: SimpleCommand, index: number, channel: Channel): boolean => {
  const { redirects } = command;
  switch (channel.kind) {
    case 'file':
      return redirects.some((r) => writesStdout(r.op) && r.target === channel.path)
        || (command.program === 'tee' && command.args.includes(channel.path));
    case 'descriptor':
      if (index <= channel.after) return false;
      if (channel.fd === 1) return !redirects.some((r) => writesStdout(r.op) && r.target !== '&1');
      return redirects.some((r) => /^1?>$/.test(r.op) && r.target === `&${channel.fd}`) || redirects.some((r) => writesStdout(r.op) && descriptorScript.exec(r.target)?.[1] === String(channel.fd));
    case 'coprocess':
      return redirects.some((r) => /^1?>&?$/.test(r.op) && r.target.includes(`${channel.name}[1]`));
  }
};

/** The text the line's commands are known to send to the channel, joined; undefined when none is known. */
export const textSentTo = (commands: readonly SimpleCommand[], channel: Channel): string | undefined => {
  const parts: string[] = [];
  commands.forEach((command, i) => {
    if (!writesTo(command, i, channel)) return;
    const text = printed(command);
    if (text !== undefined && text !== '') parts.push(text);
  });
  return parts.length === 0 ? undefined : parts.join(parts.every((p) => p.endsWith('\n')) ? '' : '\n');
};

// ---- text passed on by a pipeline stage ----

/** Filters whose output is their input, or lines of it: what they hand a shell is judged as that input. */
const passingFilters: ReadonlySet<string> = new Set(['tee', 'cat', 'sed', 'awk', 'gawk', 'mawk', 'nawk', 'grep', 'egrep', 'fgrep', 'head', 'tail', 'sort', 'uniq', 'tac', 'fold', 'expand', 'unexpand', 'fmt', 'pv', 'dd', 'buffer', 'mbuffer', 'stdbuf']);

/** What a pipeline stage hands the next one: its printed text, else the known input a filter passes on. */
export const stageOutput = (commands: readonly SimpleCommand[], primary: SimpleCommand | undefined): string | undefined => {
  if (primary !== undefined) return staticOutput(primary) ?? (passingFilters.has(primary.program) ? primary.stdin : undefined);
  // `{ echo …; } | sh`, `(echo …) | sh`: a group's commands at its own level print one after another.
  const top = commands.filter((c) => !c.via.some((v) => /^(?:\$\(|`|<\(|>\()/.test(v)));
  if (top.length === 0 || top.some((c) => c.redirects.some((r) => writesStdout(r.op)))) return undefined;
  const parts = top.map(printed);
  return parts.every((p) => p !== undefined) ? parts.join('') : undefined;
};

// ---- xargs: the commands its input makes ----

const xargsValued = new Set(['a', 'd', 'E', 'I', 'L', 'n', 'P', 's']);
const xargsLongValued = new Set(['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var', 'eof', 'replace', 'max-lines']);
/** Runs judged per line: enough for any real input, and bounded. */
const maxXargsRuns = 32;

interface XargsOptions { replace?: string; delimiter?: string; argFile?: string; perRun?: number; perLine?: boolean; start: number }

const xargsOptions = (args: readonly string[]): XargsOptions => {
  const o: XargsOptions = { start: args.length };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') { o.start = i + 1; return o; }
    if (arg.startsWith('--')) {
      const [name = '', value] = arg.slice(2).split(/=(.*)/s, 2);
      const v = value ?? (xargsLongValued.has(name) && name !== 'replace' ? args[++i] : undefined);
      if (name === 'replace') o.replace = v ?? '{}';
      else if (name === 'null') o.delimiter = '\0';
      else if (name === 'delimiter') o.delimiter = v;
      else if (name === 'arg-file') o.argFile = v;
      else if (name === 'max-args') o.perRun = Number(v);
      else if (name === 'max-lines') o.perLine = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') { o.start = i; return o; }
    for (let k = 1; k < arg.length; k++) {
      const letter = arg[k]!;
      if (letter === '0') { o.delimiter = '\0'; continue; }
      // -i, -l and -e take only an attached value.
      if (letter === 'i') { o.replace = arg.slice(k + 1) || '{}'; break; }
      if (letter === 'l') { o.perLine = true; break; }
      if (letter === 'e') break;
      if (!xargsValued.has(letter)) continue;
      const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i] ?? '';
      if (letter === 'I') o.replace = value;
      else if (letter === 'd') o.delimiter = value.replace(/^\\n$/, '\n').replace(/^\\t$/, '\t').replace(/^\\0$/, '\0');
      else if (letter === 'a') o.argFile = value;
      else if (letter === 'n') o.perRun = Number(value);
      else if (letter === 'L') o.perLine = true;
      break;
    }
  }
  return o;
};

/** xargs' default reading: blanks split items, quotes and backslashes group them. */
const xargsItems = (input: string): string[] => {
  const items: string[] = [];
  let current: string | null = null;
  for (let i = 0; i < input.length; i++) {
    const ch = input[i]!;
    if (ch === '"' || ch === "'") {
      const end = input.indexOf(ch, i + 1);
      current = (current ?? '') + input.slice(i + 1, end < 0 ? input.length : end);
      i = end < 0 ? input.length : end;
    } else if (ch === '\\' && i + 1 < input.length) current = (current ?? '') + input[++i];
    else if (/\s/.test(ch)) { if (current !== null) items.push(current); current = null; }
    else current = (current ?? '') + ch;
  }
  if (current !== null) items.push(current);
  return items;
};

/**
 * The commands `xargs …` runs on known input (`words` starts with xargs; `input` is its stdin): with -I each line
 * fills the placeholder, else the items follow the command (in runs of -n, or a line at a time with -L).
 */
export const xargsCommands = (words: readonly string[], input: string | undefined, fileContent: (path: string) => string | undefined): string[][] => {
  if (programName(words[0] ?? '') !== 'xargs') return [];
  const o = xargsOptions(words.slice(1));
  const text = o.argFile === undefined ? input : o.argFile === '-' ? input : fileContent(o.argFile);
  if (text === undefined) return [];
  const command = words.slice(1 + o.start);
  const base = command.length === 0 ? ['echo'] : command;
  if (o.replace !== undefined) {
    const lines = text.split(o.delimiter ?? '\n').map((l) => (o.delimiter === undefined ? l.replace(/^\s+/, '') : l)).filter((l) => l !== '');
    return lines.slice(0, maxXargsRuns).map((line) => base.map((w) => w.split(o.replace!).join(line)));
  }
  const groups = o.delimiter !== undefined ? [text.split(o.delimiter).filter((p, i, all) => p !== '' || i < all.length - 1)]
    : o.perLine === true ? text.split('\n').map(xargsItems).filter((g) => g.length > 0) : [xargsItems(text)];
  const runs: string[][] = [];
  for (const items of groups) {
    const size = o.perRun !== undefined && o.perRun > 0 ? o.perRun : Math.max(items.length, 1);
    for (let i = 0; i < items.length && runs.length < maxXargsRuns; i += size) runs.push([...base, ...items.slice(i, i + size)]);
  }
  return runs;
};

// ---- ~ after the line changed HOME ----

/** HOME as a prefix assignment gives it to what its command runs (`HOME=/x bash -c 'ls ~'`): the value, null when not known. */
export const homeFromPrefix = (via: readonly string[]): string | null | undefined => {
  for (let i = via.length - 1; i >= 0; i--) {
    const m = /(?:^|\s)HOME=(\S*)/.exec(via[i]!);
    if (m) return /[$`"'\\]/.test(m[1]!) ? null : m[1]!;
  }
  return undefined;
};

/** `~` and `~/…` as the shell expands them with HOME = `home` (null: a value the line does not know). */
export const withHome = (word: string, home: string | null): string => {
  if (word !== '~' && !word.startsWith('~/')) return word;
  return `${home ?? '$HOME_SET_ON_THIS_LINE'}${word.slice(1)}`;
};
