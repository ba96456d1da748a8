/**
 * Commands that run other commands. Given the unquoted words of one simple command, says what else it runs:
 * the command behind a wrapper (`sudo`, `env`, `nohup`, `timeout 5`, ...), the commands of `xargs` and
 * `find -exec`, and the shell code of `bash -c`, `eval`, `su -c`, `watch`, `env -S`, `script -c` and `trap`. Pure over words, so the
 * extractor can apply it again to what it returns (`sudo env A=1 nice bash -c '...'`). `ssh host CMD` counts
 * too: a remote shell runs CMD, and a wiped remote disk is just as gone. So do sandboxes, debuggers and fakers
 * that start a command (`bwrap`, `gdb --args`, `valgrind`, `fakeroot`, `firejail`), `sg -c` and GNU `parallel`.
 */
import { firstOperandIndex, parseOptions, type OptionGrammar } from '../../domain/shell/commandOptions.ts';
import { programName } from '../../domain/shell/programName.ts';
import { isShell, shellMode } from '../../domain/shell/shellInvocation.ts';

export interface Run {
  /** How the command was reached, e.g. 'sudo -u bob', 'xargs', 'find -exec'. */
  readonly via: string;
  readonly words: readonly string[];
}

export interface Script {
  /** How the code was reached, e.g. 'bash -c', 'eval'. */
  readonly via: string;
  readonly source: string;
}

export interface Invocation {
  /** False for transparent wrappers (sudo, nohup, ...): only the command they run is reported. */
  readonly reportSelf: boolean;
  readonly runs: readonly Run[];
  readonly scripts: readonly Script[];
}

const plain: Invocation = { reportSelf: true, runs: [], scripts: [] };

export const describeInvocation = (words: readonly string[]): Invocation => {
  const first = words[0];
  if (first === undefined) return plain;
  const name = programName(first);
  const handler = handlers.get(name);
  if (handler) return handler(words.slice(1), name);
  if (isShell(name)) return shellScript(words.slice(1), name);
  return plain;
};

type Handler = (args: readonly string[], name: string) => Invocation;

interface WrapperShape {
  readonly grammar?: OptionGrammar;
  /** Options that make the wrapper report instead of run (`command -v rm`, `ionice -p 12`). */
  readonly queryShort?: string;
  readonly queryLong?: readonly string[];
  /** Operands before the command: `timeout 5 cmd`, `chroot /mnt cmd`. */
  readonly positional?: number;
  /** `sudo A=1 cmd`, `env A=1 cmd`. */
  readonly assignments?: boolean;
}

const assignment = /^[A-Za-z_][A-Za-z0-9_]*=/;
const envAssignment = /^[^=\-][^=]*=/;

/** Where the wrapped command starts, or undefined when the wrapper runs none. */
const wrappedCommandStart = (args: readonly string[], shape: WrapperShape): number | undefined => {
  let start = firstOperandIndex(args, 0, shape.grammar);
  if (shape.queryShort || shape.queryLong) {
    const options = parseOptions(args.slice(0, start), shape.grammar);
    if ([...options.short.keys()].some((letter) => shape.queryShort?.includes(letter))) return undefined;
    if ([...options.long.keys()].some((long) => shape.queryLong?.includes(long))) return undefined;
  }
  start += shape.positional ?? 0;
  if (shape.assignments) while (start < args.length && assignment.test(args[start]!)) start++;
  return start < args.length ? start : undefined;
};

const viaLabel = (name: string, options: readonly string[]): string => {
  const label = [name, ...options].join(' ');
  return label.length > 80 ? label.slice(0, 77) + '...' : label;
};

const wrapper =
  (shape: WrapperShape): Handler =>
  (args, name) => {
    const start = wrappedCommandStart(args, shape);
    if (start === undefined) return plain;
    return { reportSelf: false, runs: [{ via: viaLabel(name, args.slice(0, start)), words: args.slice(start) }], scripts: [] };
  };

const env: Handler = (args, name) => {
  const grammar: OptionGrammar = { shortWithValue: 'uCSaP', longWithValue: ['unset', 'chdir', 'split-string', 'argv0'] };
  const leading = args[0] === '-' ? 1 : 0; // `env -` is `env -i`
  let start = firstOperandIndex(args, leading, grammar);
  const options = parseOptions(args.slice(leading, start), grammar);
  // env takes any word holding '=' as NAME=VALUE, names bash could not spell too (`BASH_FUNC_x%%=() { … }`).
  while (start < args.length && envAssignment.test(args[start]!)) start++;
  const split = options.short.get('S') ?? options.long.get('split-string');
  if (typeof split === 'string') {
    const source = [split, ...args.slice(start).map(shellQuote)].join(' ');
    return { reportSelf: false, runs: [], scripts: [{ via: `${name} -S`, source }] };
  }
  if (start >= args.length) return plain;
  return { reportSelf: false, runs: [{ via: viaLabel(name, args.slice(0, start)), words: args.slice(start) }], scripts: [] };
};

const shellScript = (args: readonly string[], name: string): Invocation => {
  const mode = shellMode(args);
  if (mode.kind !== 'command-string' || mode.script === undefined) return plain;
  return { reportSelf: true, runs: [], scripts: [{ via: `${name} -c`, source: mode.script }] };
};

const evalHandler: Handler = (args, name) =>
  args.length === 0 ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: args.join(' ') }] };

/** `su [user] -c CMD`, `runuser -l user -c CMD`: the string is run by the target user's shell. */
const suHandler: Handler = (args, name) => {
  const options = parseOptions(args, { shortWithValue: 'csgGwu', longWithValue: ['command', 'session-command', 'shell', 'group', 'supp-group', 'whitelist-environment', 'user'] });
  const command = options.short.get('c') ?? options.long.get('command') ?? options.long.get('session-command');
  const user = options.short.get('u') ?? options.long.get('user');
  if (typeof command === 'string') return { reportSelf: true, runs: [], scripts: [{ via: `${name} -c`, source: command }] };
  if (name === 'runuser' && typeof user === 'string' && options.operands.length > 0)
    return { reportSelf: false, runs: [{ via: `${name} -u ${user}`, words: options.operands }], scripts: [] };
  return plain;
};

const xargs: Handler = (args, name) => {
  const grammar: OptionGrammar = {
    shortWithValue: 'adEILnPs',
    shortAttachedOnly: 'eil',
    longWithValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
  };
  const start = firstOperandIndex(args, 0, grammar);
  if (start >= args.length) return plain;
  return { reportSelf: true, runs: [{ via: name, words: args.slice(start) }], scripts: [] };
};

/** `find ... -exec CMD ARGS ;` (or `{} +`), also -execdir, -ok and -okdir, as many as are given. */
const find: Handler = (args, name) => {
  const runs: Run[] = [];
  for (let i = 0; i < args.length; i++) {
    const action = args[i]!;
    if (action !== '-exec' && action !== '-execdir' && action !== '-ok' && action !== '-okdir') continue;
    let end = i + 1;
    while (end < args.length && args[end] !== ';' && !(args[end] === '+' && args[end - 1] === '{}')) end++;
    if (end > i + 1) runs.push({ via: `${name} ${action}`, words: args.slice(i + 1, end) });
    i = end;
  }
  return { reportSelf: true, runs, scripts: [] };
};

/** `watch CMD...` runs its arguments joined as one `sh -c` string; `watch -x` runs them as words. */
const watch: Handler = (args, name) => {
  const grammar: OptionGrammar = { shortWithValue: 'nq', longWithValue: ['interval', 'equexit'] };
  const start = firstOperandIndex(args, 0, grammar);
  if (start >= args.length) return plain;
  const options = parseOptions(args.slice(0, start), grammar);
  if (options.short.has('x') || options.long.has('exec'))
    return { reportSelf: true, runs: [{ via: name, words: args.slice(start) }], scripts: [] };
  return { reportSelf: true, runs: [], scripts: [{ via: name, source: args.slice(start).join(' ') }] };
};

/** `flock [opts] FILE CMD...` or `flock [opts] FILE -c STRING`. */
const flock: Handler = (args, name) => {
  const options = parseOptions(args, { shortWithValue: 'wEc', longWithValue: ['timeout', 'conflict-exit-code', 'command'] });
  const command = options.short.get('c') ?? options.long.get('command');
  if (typeof command === 'string') return { reportSelf: false, runs: [], scripts: [{ via: `${name} -c`, source: command }] };
  return wrapper({ grammar: { shortWithValue: 'wE', longWithValue: ['timeout', 'conflict-exit-code'] }, positional: 1 })(args, name);
};

/** `script -c CMD [file]` records a terminal session of CMD run by the shell. */
const scriptHandler: Handler = (args, name) => {
  const options = parseOptions(args, { shortWithValue: 'cEIOBTm', longWithValue: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing', 'logging-format'] });
  const command = options.short.get('c') ?? options.long.get('command');
  return typeof command === 'string' ? { reportSelf: true, runs: [], scripts: [{ via: `${name} -c`, source: command }] } : plain;
};

/**
 * `tmux new -d "cmd"`, `tmux split-window 'cmd'`, `tmux run-shell 'cmd'`: the server runs the command words through
 * the shell, in a pane that outlives the call. `screen -dm cmd args` and `dtach -n SOCK cmd args` start the words.
 */
const tmuxCommands = new Set(['new-session', 'new', 'new-window', 'neww', 'split-window', 'splitw', 'respawn-pane', 'respawnp', 'respawn-window', 'respawnw', 'run-shell', 'run', 'display-popup', 'popup', 'pipe-pane', 'pipep', 'if-shell', 'if']);
const tmuxValueOptions = new Set(['-c', '-e', '-F', '-l', '-n', '-s', '-t', '-x', '-y', '-f', '-L', '-S', '-T', '-d', '-w', '-h', '-b', '-E', '-B', '-p', '-P', '-k', '-Z', '-I', '-o']);
const tmuxFlagOnly = new Set(['-d', '-P', '-E', '-h', '-v', '-b', '-f', '-k', '-Z', '-I', '-o', '-A', '-D', '-X']);
const tmux: Handler = (args, name) => {
  const at = args.findIndex((a) => tmuxCommands.has(a));
  if (at < 0) return plain;
  const rest = args.slice(at + 1);
  const words: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    // `\;` ends this tmux command; the next is tmux's own (send-keys, source-file), judged on the tmux words.
    if (a === ';' || a === '\\;') break;
    if (words.length === 0 && a.startsWith('-') && a !== '--') { if (tmuxValueOptions.has(a) && !tmuxFlagOnly.has(a)) i++; continue; }
    if (a === '--' && words.length === 0) continue;
    words.push(a);
  }
  return words.length === 0 ? plain : { reportSelf: true, runs: [], scripts: [{ via: `${name} ${args[at]}`, source: words.join(' ') }] };
};
const screenStart: Handler = (args, name) => {
  // screen's own options come first; the first other word starts the command (whose options are its own).
  let at = 0;
  while (at < args.length && args[at]!.startsWith('-')) at += /^-[cehpsSTtL]$/.test(args[at]!) ? 2 : 1;
  const words = args.slice(at);
  return words.length === 0 || args.some((a) => a === '-r' || a === '-x' || a === '-ls' || a === '-list') ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: quotedWords(words) }] };
};
const dtach: Handler = (args, name) => {
  const mode = args.findIndex((a) => /^-[ancAN]$/.test(a));
  if (mode < 0 || args[mode] === '-a') return plain;
  const words = args.slice(mode + 2).filter((a, i, all) => !(i === 0 && a.startsWith('-')) || all.slice(0, i).some((w) => !w.startsWith('-')));
  return words.length === 0 ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: quotedWords(words) }] };
};
/** Words started directly (no shell between): each quoted, so the reading keeps them whole. */
const quotedWords = (words: readonly string[]): string => words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' ');

/** `trap 'CMD' SIGNAL...`: CMD runs later, in this shell, when the signal (or EXIT) arrives. */
const trap: Handler = (args, name) => {
  const rest = args[0] === '--' ? args.slice(1) : args;
  const [action, ...signals] = rest;
  if (action === undefined || action === '-' || action.startsWith('-') || signals.length === 0) return plain;
  return { reportSelf: true, runs: [], scripts: [{ via: name, source: action }] };
};

/** `ssh [options] HOST CMD...`: the remote shell runs the command words joined by spaces. */
const ssh: Handler = (args, name) => {
  const grammar: OptionGrammar = { shortWithValue: 'BbcDEeFIiJLlmOoPpQRSWw' };
  const host = firstOperandIndex(args, 0, grammar);
  // `ssh HOST -- CMD`: the `--` after the host is ssh's, not the remote command's.
  const command = args[host + 1] === '--' ? host + 2 : host + 1;
  if (command >= args.length) return plain;
  return { reportSelf: true, runs: [], scripts: [{ via: `${name} ${args[host]}`, source: args.slice(command).join(' ') }] };
};

/** `sg GROUP -c CMD`, `sg GROUP CMD...`: the command runs through /bin/sh with the group's id. */
const sg: Handler = (args, name) => {
  const rest = args[0] === '-' ? args.slice(1) : args;
  const [group, ...after] = rest;
  if (group === undefined || after.length === 0) return plain;
  const source = after[0] === '-c' ? after[1] : after.join(' ');
  return source === undefined ? plain : { reportSelf: true, runs: [], scripts: [{ via: `${name} ${group}`, source }] };
};

/** bubblewrap's options by the number of words they take; the command follows the last one. */
const bwrapArity = new Map<string, number>([
  ...['--args', '--argv0', '--userns', '--userns2', '--pidns', '--uid', '--gid', '--hostname', '--chdir', '--unsetenv', '--lock-file', '--sync-fd', '--remount-ro',
    '--proc', '--dev', '--tmpfs', '--mqueue', '--dir', '--seccomp', '--add-seccomp-fd', '--info-fd', '--json-status-fd', '--block-fd', '--userns-block-fd', '--cap-add',
    '--cap-drop', '--perms', '--size', '--exec-label', '--file-label', '--overlay-src', '--tmp-overlay', '--ro-overlay'].map((o) => [o, 1] as const),
  ...['--setenv', '--bind', '--bind-try', '--dev-bind', '--dev-bind-try', '--ro-bind', '--ro-bind-try', '--bind-fd', '--ro-bind-fd', '--symlink', '--file', '--bind-data',
    '--ro-bind-data', '--chmod'].map((o) => [o, 2] as const),
  ['--overlay', 3],
]);
const bwrap: Handler = (args, name) => {
  let i = 0;
  while (i < args.length && args[i]!.startsWith('--')) {
    if (args[i] === '--') { i++; break; }
    i += 1 + (bwrapArity.get(args[i]!) ?? 0);
  }
  // Reported too: its binds are judged (shellOperands reads `--bind SRC DST`).
  return i < args.length ? { reportSelf: true, runs: [{ via: name, words: args.slice(i) }], scripts: [] } : plain;
};

/** `gdb --args PROG ARGS`: the program gdb starts (`-ex run`); without --args gdb only loads a file. */
const gdbArgs: Handler = (args, name) => {
  const at = args.findIndex((a) => a === '--args' || a === '-args');
  return at < 0 || at + 1 >= args.length ? plain : { reportSelf: true, runs: [{ via: `${name} --args`, words: args.slice(at + 1) }], scripts: [] };
};

/**
 * GNU parallel (and `sem`): `parallel [opts] CMD ::: A B` runs `CMD A`, `CMD B` through a shell; with no
 * command, each argument after ::: is itself a command line. Arguments from files (::::, -a) are not read here.
 */
const parallelSeparators = new Set([':::', ':::+', '::::', '::::+']);
const parallelGrammar: OptionGrammar = {
  shortWithValue: 'aCdEIjLlNnPsSX',
  longWithValue: ['arg-file', 'colsep', 'delimiter', 'eof', 'replace', 'jobs', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'sshlogin', 'sshloginfile', 'joblog', 'results', 'res',
    'tmpdir', 'workdir', 'wd', 'basefile', 'transferfile', 'return', 'env', 'timeout', 'delay', 'load', 'memfree', 'nice', 'tag-string', 'tagstring', 'header', 'retries', 'halt',
    'semaphorename', 'id', 'ssh', 'shebang-wrap', 'tee', 'pipe-part', 'block', 'block-size', 'recstart', 'recend', 'regexp', 'sqlandworker', 'sqlmaster', 'sqlworker', 'termseq', 'limit', 'profile'],
};
const parallel: Handler = (args, name) => {
  const start = firstOperandIndex(args, 0, parallelGrammar);
  const split = args.findIndex((a, i) => i >= start && parallelSeparators.has(a));
  const command = args.slice(start, split < 0 ? args.length : split);
  const inputs: string[] = [];
  if (split >= 0) {
    for (let i = split; i < args.length; i++) if (!parallelSeparators.has(args[i]!) && args[i - 1] !== '::::' && args[i - 1] !== '::::+') inputs.push(args[i]!);
  }
  const lines = command.length === 0 ? inputs : inputs.length === 0 ? [command.join(' ')] : inputs.map((input) => `${command.join(' ')} ${input}`);
  return lines.length === 0 ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: lines.join('\n') }] };
};

/**
 * Development runners that start the command after their subcommand (`poetry run CMD`, `conda run -n env CMD`,
 * `op run -- CMD`, `perf stat CMD`): the outer program is reported too, the command is analysed as any other.
 */
const runnerAfter = (subcommands: readonly string[], shape: WrapperShape = {}, toolsBeforeDashes = false): Handler => (args, name) => {
  if (!subcommands.includes(args[0] ?? '')) return plain;
  const rest = args.slice(1);
  // `mise exec node@20 -- CMD`: tool names come first, the command after `--`; elsewhere a later `--` is the command's own.
  const dashes = toolsBeforeDashes ? rest.indexOf('--') : -1;
  let start = dashes >= 0 ? dashes + 1 : wrappedCommandStart(rest, shape);
  if (start !== undefined && rest[start] === '--') start++; // `aws-vault exec PROFILE -- CMD`
  if (start === undefined || start >= rest.length) return plain;
  return { reportSelf: true, runs: [{ via: viaLabel(`${name} ${args[0]}`, rest.slice(0, start)), words: rest.slice(start) }], scripts: [] };
};

/** `nix-shell --run STR`, `nix develop -c CMD...`: a string for the shell, or words after -c. */
const nixShell: Handler = (args, name) => {
  const options = parseOptions(args, { shortWithValue: 'pIAE', longWithValue: ['run', 'command', 'packages', 'attr', 'arg', 'argstr', 'expr', 'include'] });
  const run = options.long.get('run') ?? options.long.get('command');
  return typeof run === 'string' ? { reportSelf: true, runs: [], scripts: [{ via: `${name} --run`, source: run }] } : plain;
};
const nix: Handler = (args, name) => {
  if (!['develop', 'shell', 'env'].includes(args[0] ?? '')) return plain;
  const at = args.findIndex((a, i) => i > 0 && (a === '-c' || a === '--command'));
  return at < 0 || at + 1 >= args.length ? plain : { reportSelf: true, runs: [{ via: `${name} ${args[0]} -c`, words: args.slice(at + 1) }], scripts: [] };
};

/** hyperfine: every operand, and its --prepare, --setup and --cleanup, is a command line for the shell. */
const hyperfine: Handler = (args, name) => {
  const grammar: OptionGrammar = { shortWithValue: 'wrmMpcsnPLSuDN', longWithValue: ['warmup', 'runs', 'min-runs', 'max-runs', 'prepare', 'conclude', 'cleanup', 'setup', 'command-name', 'parameter-scan', 'parameter-list', 'shell', 'time-unit', 'export-asciidoc', 'export-csv', 'export-json', 'export-markdown', 'export-orgmode', 'output', 'input', 'reference', 'style', 'sort'] };
  const options = parseOptions(args, grammar);
  const hooks = ['p', 'c', 's'].map((l) => options.short.get(l)).concat(['prepare', 'conclude', 'cleanup', 'setup', 'reference'].map((l) => options.long.get(l)));
  const lines = [...options.operands, ...hooks.filter((h): h is string => typeof h === 'string')];
  return lines.length === 0 ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: lines.join('\n') }] };
};

/** `watchexec [opts] [--] CMD...`: run through a shell on every change; `chokidar GLOB -c STR`. */
const watchexec: Handler = (args, name) => {
  const dashes = args.indexOf('--');
  const start = dashes >= 0 ? dashes + 1 : firstOperandIndex(args, 0, { shortWithValue: 'wWefisdEjp', longWithValue: ['watch', 'exts', 'filter', 'ignore', 'signal', 'debounce', 'env', 'shell', 'project-origin', 'workdir', 'on-busy-update', 'delay-run', 'poll'] });
  return start >= args.length ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: args.slice(start).join(' ') }] };
};
const chokidar: Handler = (args, name) => {
  const command = parseOptions(args, { shortWithValue: 'cdipt', longWithValue: ['command', 'debounce', 'ignore', 'polling-interval', 'throttle'] });
  const source = command.short.get('c') ?? command.long.get('command');
  return typeof source === 'string' ? { reportSelf: true, runs: [], scripts: [{ via: `${name} -c`, source }] } : plain;
};

/** `lldb -- PROG ARGS` (then `-o run`), as gdb's --args. */
const lldb: Handler = (args, name) => {
  const at = args.indexOf('--');
  return at < 0 || at + 1 >= args.length ? plain : { reportSelf: true, runs: [{ via: `${name} --`, words: args.slice(at + 1) }], scripts: [] };
};

/**
 * `dotenv [-e FILE] [--] CMD` (dotenv-cli) and `dotenv [-f FILE] run CMD` (python-dotenv, whose set, get, list and
 * unset edit or print the file and run nothing). Reported too: writing a .env is judged as such.
 */
const dotenvGrammar: OptionGrammar = { shortWithValue: 'ecvf', longWithValue: ['file', 'quote', 'export'] };
const dotenv: Handler = (args, name) => {
  let start = firstOperandIndex(args, 0, dotenvGrammar);
  if (['set', 'get', 'list', 'unset'].includes(args[start] ?? '')) return plain;
  if (args[start] === 'run') start = firstOperandIndex(args, start + 1, dotenvGrammar);
  return start >= args.length ? plain : { reportSelf: true, runs: [{ via: viaLabel(name, args.slice(0, start)), words: args.slice(start) }], scripts: [] };
};

const shellQuote = (word: string): string => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

const noOptions = wrapper({});

/** `coproc NAME { cmd; }`: the grammar reads the group as words of a command named NAME; the command is after the `{`. */
const coprocess: Handler = (args, name) => {
  const open = args[0] === '{' ? 0 : args[1] === '{' ? 1 : -1;
  if (open < 0) return noOptions(args, name);
  const words = args.slice(open + 1).filter((w) => w !== '}');
  return words.length === 0 ? plain : { reportSelf: false, runs: [{ via: open === 1 ? `${name} ${args[0]}` : name, words }], scripts: [] };
};

const handlers = new Map<string, Handler>([
  ['sudo', wrapper({
    grammar: { shortWithValue: 'CDghpRrtTUu', longWithValue: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'type', 'command-timeout', 'other-user', 'user'] },
    queryShort: 'lveVK', queryLong: ['list', 'validate', 'edit', 'version', 'remove-timestamp'], assignments: true,
  })],
  ['doas', wrapper({ grammar: { shortWithValue: 'uC' }, queryShort: 'C' })],
  ['pkexec', wrapper({ grammar: { longWithValue: ['user'] } })],
  ['env', env],
  ['command', wrapper({ queryShort: 'vV' })],
  ['builtin', noOptions],
  ['exec', wrapper({ grammar: { shortWithValue: 'a' } })],
  ['nohup', noOptions],
  ['setsid', noOptions],
  ['unbuffer', noOptions],
  ['tmux', tmux],
  ['screen', screenStart],
  ['dtach', dtach],
  // Wrappers that start the command after their own options (red team 12: `rlwrap tollgate approve`).
  ['rlwrap', wrapper({ grammar: { shortWithValue: 'bCDfHlOpPqsStwzeMgN', longWithValue: ['break-chars', 'command-name', 'history-no-dupes', 'file', 'history-filename', 'logfile', 'only-cook', 'prompt-colour', 'pre-given', 'quote-characters', 'histsize', 'substitute-prompt', 'set-term-name', 'polling', 'filter', 'extra-char-after-completion', 'multi-line-ext', 'forget-matching'] } })],
  ['eatmydata', noOptions],
  ['nocache', noOptions],
  ['chronic', wrapper({ grammar: {} })],
  ['sshpass', wrapper({ grammar: { shortWithValue: 'pfdP' } })],
  ['winpty', noOptions],
  ['daemonize', wrapper({ grammar: { shortWithValue: 'ceEopluE' } })],
  ['coproc', coprocess],
  ['busybox', noOptions],
  ['toybox', noOptions],
  ['time', wrapper({ grammar: { shortWithValue: 'fo', longWithValue: ['format', 'output'] } })],
  ['nice', wrapper({ grammar: { shortWithValue: 'n', longWithValue: ['adjustment'] } })],
  ['ionice', wrapper({ grammar: { shortWithValue: 'cn', longWithValue: ['class', 'classdata'] }, queryShort: 'pPu', queryLong: ['pid', 'pgid', 'uid'] })],
  ['stdbuf', wrapper({ grammar: { shortWithValue: 'ioe', longWithValue: ['input', 'output', 'error'] } })],
  ['timeout', wrapper({ grammar: { shortWithValue: 'sk', longWithValue: ['signal', 'kill-after'] }, positional: 1 })],
  ['chroot', wrapper({ grammar: { longWithValue: ['userspec', 'groups'] }, positional: 1 })],
  ['chrt', wrapper({ grammar: { shortWithValue: 'TPD' }, queryShort: 'pm', queryLong: ['pid', 'max'], positional: 1 })],
  ['taskset', wrapper({ queryShort: 'p', queryLong: ['pid'], positional: 1 })],
  ['caffeinate', wrapper({ grammar: { shortWithValue: 'tw' } })],
  ['systemd-run', wrapper({
    grammar: { shortWithValue: 'pEuMHs', longWithValue: ['property', 'setenv', 'unit', 'machine', 'host', 'slice', 'description', 'uid', 'gid', 'working-directory', 'nice', 'on-calendar', 'on-active', 'timer-property', 'path-property', 'socket-property', 'service-type'] },
  })],
  ['strace', wrapper({ grammar: { shortWithValue: 'abeEIoOpPsSUXu' }, queryShort: 'p' })],
  ['ltrace', wrapper({ grammar: { shortWithValue: 'aAeDFlnosuxp' }, queryShort: 'p' })],
  ['unshare', wrapper({ grammar: { shortWithValue: 'SGRw', longWithValue: ['setuid', 'setgid', 'root', 'wd', 'propagation', 'map-user', 'map-group', 'map-users', 'map-groups', 'setgroups', 'load-interp'] } })],
  ['nsenter', wrapper({ grammar: { shortWithValue: 'tSGrwT', longWithValue: ['target', 'setuid', 'setgid', 'root', 'wd'] } })],
  ['torsocks', wrapper({ grammar: { shortWithValue: 'uapP' } })],
  ['proxychains', wrapper({ grammar: { shortWithValue: 'f' } })],
  ['proxychains4', wrapper({ grammar: { shortWithValue: 'f' } })],
  ['script', scriptHandler],
  ['flock', flock],
  ['xargs', xargs],
  ['find', find],
  ['watch', watch],
  ['eval', evalHandler],
  ['su', suHandler],
  ['trap', trap],
  ['ssh', ssh],
  ['runuser', suHandler],
  ['sg', sg],
  ['parallel', parallel],
  ['sem', parallel],
  // Sandboxes, debuggers and fakers that start the command they are given (red team 5).
  ['bwrap', bwrap],
  ['gdb', gdbArgs],
  ['valgrind', wrapper({ queryLong: ['version', 'help'] })],
  ['fakeroot', wrapper({ grammar: { shortWithValue: 'lisb', longWithValue: ['lib', 'faked'] }, queryShort: 'hv', queryLong: ['help', 'version'] })],
  ['firejail', wrapper({ queryLong: ['version', 'help', 'list', 'tree', 'top'] })],
  ['proot', wrapper({ grammar: { shortWithValue: 'rbmwvkq', longWithValue: ['rootfs', 'bind', 'mount', 'pwd', 'cwd', 'verbose', 'kernel-release', 'qemu'] } })],
  ['faketime', wrapper({ grammar: { shortWithValue: 'm' }, positional: 1 })],
  ['setpriv', wrapper({ grammar: { longWithValue: ['reuid', 'regid', 'ruid', 'euid', 'rgid', 'egid', 'groups', 'inh-caps', 'ambient-caps', 'bounding-set', 'securebits', 'pdeathsig', 'selinux-label', 'apparmor-profile', 'landlock-access', 'landlock-rule'] }, queryShort: 'd', queryLong: ['dump'] })],
  ['setarch', wrapper({ positional: 1 })],
  ['linux32', noOptions],
  ['linux64', noOptions],
  ['prlimit', wrapper({ queryShort: 'p', queryLong: ['pid'] })],
  ['numactl', wrapper({ grammar: { shortWithValue: 'NmCpPi', longWithValue: ['cpunodebind', 'membind', 'physcpubind', 'preferred', 'interleave', 'localalloc'] }, queryShort: 'Hs', queryLong: ['hardware', 'show'] })],
  ['cgexec', wrapper({ grammar: { shortWithValue: 'g' } })],
  ['catchsegv', noOptions],
  ['chpst', wrapper({ grammar: { shortWithValue: 'uUbeglmdofpcrt' } })],
  ['lldb', lldb],
  ['rr', runnerAfter(['record', 'r'], { grammar: { shortWithValue: 'bcehnpquvw', longWithValue: ['output-trace-dir', 'env', 'bind-to-cpu'] } })],
  ['heaptrack', wrapper({ grammar: { shortWithValue: 'o', longWithValue: ['output'] }, queryShort: 'pa', queryLong: ['pid', 'analyze'] })],
  ['perf', runnerAfter(['stat', 'record', 'trace', 'mem', 'c2c', 'kmem', 'lock', 'sched', 'ftrace', 'kvm'], {
    grammar: { shortWithValue: 'eoprCGFcmIDxjLtuTb', longWithValue: ['event', 'output', 'pid', 'repeat', 'cpu', 'cgroup', 'freq', 'count', 'mmap-pages', 'delay', 'tid', 'uid', 'call-graph', 'field-separator', 'filter', 'post', 'pre', 'control'] },
    queryShort: 'pa', queryLong: ['pid', 'all-cpus'] })],
  // Development runners that start a command (their own tasks aside).
  ['flatpak-spawn', wrapper({})],
  ['cross-env', wrapper({ assignments: true })],
  ['cross-env-shell', (args, name) => (args.length === 0 ? plain : { reportSelf: true, runs: [], scripts: [{ via: name, source: args.filter((a) => !assignment.test(a)).join(' ') }] })],
  ['dotenv', dotenv],
  ['env-cmd', wrapper({ grammar: { shortWithValue: 'fer', longWithValue: ['file', 'environments', 'rc-file'] } })],
  ['poetry', runnerAfter(['run'])],
  ['pipenv', runnerAfter(['run'])],
  ['pdm', runnerAfter(['run'])],
  ['hatch', runnerAfter(['run'])],
  ['rye', runnerAfter(['run'])],
  ['bundle', runnerAfter(['exec'])],
  ['bundler', runnerAfter(['exec'])],
  ['asdf', runnerAfter(['exec'], {}, true)],
  ['mise', runnerAfter(['exec', 'x'], { grammar: { shortWithValue: 'Cj', longWithValue: ['cd', 'jobs'] } }, true)],
  ['rtx', runnerAfter(['exec', 'x'], {}, true)],
  ['conda', runnerAfter(['run'], { grammar: { shortWithValue: 'np', longWithValue: ['name', 'prefix', 'cwd'] } })],
  ['mamba', runnerAfter(['run'], { grammar: { shortWithValue: 'np', longWithValue: ['name', 'prefix', 'cwd'] } })],
  ['micromamba', runnerAfter(['run'], { grammar: { shortWithValue: 'np', longWithValue: ['name', 'prefix', 'cwd'] } })],
  ['op', runnerAfter(['run'], { grammar: { longWithValue: ['env-file', 'account', 'config'] } })],
  ['doppler', runnerAfter(['run'], { grammar: { shortWithValue: 'pc', longWithValue: ['project', 'config', 'token', 'command', 'fallback'] } })],
  ['aws-vault', runnerAfter(['exec'], { positional: 1, grammar: { longWithValue: ['duration', 'mfa-token', 'region'] } })],
  ['direnv', runnerAfter(['exec'], { positional: 1 })],
  ['nix-shell', nixShell],
  ['nix', nix],
  ['hyperfine', hyperfine],
  ['watchexec', watchexec],
  ['chokidar', chokidar],
]);
