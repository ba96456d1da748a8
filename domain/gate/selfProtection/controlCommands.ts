/**
 * Commands that would switch tollgate or Hermes off or change how they decide, however they are invoked:
 * tollgate's own mutating subcommands, `hermes plugins|config|hooks …`, uninstalls, signals to the daemon or the
 * gateway, and clients of tollgate's socket or loopback port.
 */
import { unguardingAssignment } from './unguardingVariables.ts';
import { firstOperandIndex, parseOptions } from '../../shell/commandOptions.ts';
import { programName } from '../../shell/programName.ts';
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import { withArithmeticFolded } from './constantArithmetic.ts';
import { removesRuntimeByManager, removesRuntimeFiles } from './runtimeRemovals.ts';

/** tollgate subcommands that only read (everything else answers, serves, installs or hooks). */
export const tollgateReadOnlySubcommands: ReadonlySet<string> = new Set([
  'verify', 'audit', 'tail', 'classify', 'doctor', 'eval', 'replay', 'approvals', 'policy', 'help',
]);
const helpFlags = new Set(['--help', '-h', '--version', '-V']);
const nodeGrammar = { shortWithValue: 're', longWithValue: ['import', 'require', 'loader', 'experimental-loader', 'eval', 'input-type', 'conditions'] };

const isTollgateScript = (word: string): boolean =>
  /(?:^|\/)tollgate(?:\.mjs|\.js)?$/.test(word) || /(?:^|\/)ops\/cli\/main\.ts$/.test(word);

/** The arguments after the tollgate program, or null when the command does not run tollgate. */
export const tollgateArguments = (command: SimpleCommand): readonly string[] | null => {
  const { program, programPath, args } = command;
  if (program === 'tollgate' || program === 'tollgate.mjs' || isTollgateScript(programPath)) return args;
  if (/^(?:node|nodejs|bun|deno|tsx)$/.test(program)) {
    const at = firstOperandIndex(args, program === 'deno' && args[0] === 'run' ? 1 : 0, nodeGrammar);
    // `deno run -A npm:tollgate approve …`: Deno fetches and runs the npm package's bin.
    if (args[at] !== undefined && (isTollgateScript(args[at]!) || /^npm:tollgate(?:@[^/]*)?(?:\/.*)?$/.test(args[at]!))) return args.slice(at + 1);
    if (program !== 'bun') return null;
  }
  const runner = packageRunnerTarget(command);
  if (runner !== null && /^tollgate(?:@.*)?$/.test(runner.name)) return runner.args;
  // `npx tsx ops/cli/main.ts approve …`: a runner that starts a TypeScript/JS runtime on tollgate's entry point.
  if (runner !== null && /^(?:tsx|ts-node|node|bun)(?:@.*)?$/.test(runner.name)) {
    const at = firstOperandIndex(runner.args, 0, nodeGrammar);
    return runner.args[at] !== undefined && isTollgateScript(runner.args[at]!) ? runner.args.slice(at + 1) : null;
  }
  // `parallel tollgate approve ::: a b`: GNU parallel runs the words before ::: as a command.
  if (program === 'parallel' || program === 'rush') {
    const end = args.findIndex((a) => /^:::+\+?$/.test(a));
    const words = (end < 0 ? args : args.slice(0, end)).filter((a, i, all) => !a.startsWith('-') || all.slice(0, i).some((w) => !w.startsWith('-')));
    if (words.length === 0) return null;
    return tollgateArguments({ ...command, program: programName(words[0]!), programPath: words[0]!, args: words.slice(1), via: [...command.via, 'parallel'] });
  }
  return null;
};

/** `npx X …`, `npm exec X`, `npm x X`, `pnpm exec|dlx X`, `yarn [dlx|exec] X`, `bunx X`: the package it runs. */
export const packageRunnerTarget = ({ program, args }: SimpleCommand): { name: string; args: readonly string[] } | null => {
  const grammar = { shortWithValue: 'pc', longWithValue: ['package', 'call', 'prefix', 'workspace'] };
  let start: number;
  if (program === 'npx' || program === 'bunx' || program === 'pnpx') start = 0;
  else if ((program === 'npm' || program === 'pnpm' || program === 'yarn' || program === 'bun') && ['exec', 'x', 'dlx'].includes(args[0] ?? '')) start = 1;
  // `yarn tollgate …`, `pnpm tollgate …`: a word that is not one of theirs runs the package's bin.
  else if ((program === 'yarn' || program === 'pnpm') && args[0] !== undefined && !args[0].startsWith('-')) start = 0;
  else return null;
  const options = parseOptions(args.slice(start, firstOperandIndex(args, start, grammar)), grammar);
  const pkg = options.short.get('p') ?? options.long.get('package');
  const at = firstOperandIndex(args, start, grammar);
  // `npx -p . tollgate approve`: with a package given, the operand is the command it runs (a bin of that package).
  if (typeof pkg === 'string') return args[at] === undefined ? { name: programName(pkg), args: [] } : { name: programName(args[at]!), args: args.slice(at + 1) };
  return args[at] === undefined ? null : { name: programName(args[at]!), args: args.slice(at + 1) };
};

/** A tollgate command that is not one of the read-only ones (a bare `tollgate` and `--help` only print help). */
export const isTollgateControl = (command: SimpleCommand): boolean => {
  const args = tollgateArguments(command);
  if (args === null) return false;
  const at = firstOperandIndex(args, 0, { shortWithValue: 'c', longWithValue: ['config'] });
  const sub = args[at];
  if (sub === undefined || args.some((a) => helpFlags.has(a))) return false;
  if (sub === 'approvals') return !(args[at + 1] === undefined || args[at + 1] === 'list' || args[at + 1]!.startsWith('-'));
  return !tollgateReadOnlySubcommands.has(sub);
};

/**
 * The command as the link it runs leads (`/tmp/tg approve x` where /tmp/tg -> <clone>/bin/tollgate.mjs): `real`
 * gives a word's real path when a symlink is on the way (the call's path facts), else null.
 */
export const throughLink = (command: SimpleCommand, real: (word: string) => string | null): SimpleCommand | null => {
  const target = command.programPath.includes('/') ? real(command.programPath) : null;
  return target === null ? null : { ...command, programPath: target, program: programName(target) };
};

/**
 * Hermes subcommands (hermes_cli/main.py, 0.19) known to change nothing of its configuration, plugins, hooks,
 * credentials or gateway, with the actions of each that only look ('*': every action). Every other subcommand
 * (`import`, `mcp add`, `migrate`, `fallback`, `dashboard`, one added by a later version…) counts as control.
 */
export const hermesReadOnlySubcommands: ReadonlyMap<string, ReadonlySet<string> | '*'> = new Map<string, ReadonlySet<string> | '*'>([
  // A new agent: its tool calls reach this guard through the plugin (unguarding flags are startsUnguardedHermes').
  ['chat', '*'],
  ['version', '*'], ['help', '*'], ['status', '*'], ['insights', '*'], ['logs', '*'], ['prompt-size', '*'],
  ['doctor', '*'], ['dump', '*'],
  ['gateway', new Set(['status', 'list'])],
  ['sessions', new Set(['list', 'stats'])],
  ['profile', new Set(['list', 'show'])],
  ['plugins', new Set(['list', 'ls'])],
  ['tools', new Set(['list'])],
  ['hooks', new Set(['list'])],
  ['config', new Set(['show', 'path', 'env-path', 'check'])],
  ['cron', new Set(['list', 'status'])],
  ['skills', new Set(['list'])],
  ['mcp', new Set(['list', 'ls'])],
  ['memory', new Set(['status'])],
  ['auth', new Set(['list'])],
  ['pairing', new Set(['list'])],
]);
/** Flags that turn a read-only subcommand into one that writes (`doctor --fix`) or prints Hermes' keys. */
const hermesWritingFlags = new Set(['--fix', '--ack', '--show-keys']);
// Top-level options that take a value (hermes_cli/_parser.py): their value is not the subcommand.
const hermesGrammar = { shortWithValue: 'pzmtrsc', longWithValue: ['profile', 'oneshot', 'model', 'provider', 'toolsets', 'resume', 'skills', 'usage-file', 'continue'] };

/** A hermes command that is not known to only look: a bare `hermes`, `-z`, `--version` and `--help` are chat or print. */
export const isHermesControl = (command: SimpleCommand): boolean => {
  const args = hermesArguments(command);
  if (args === null) return false;
  if (resumesSession(args)) return true;
  const at = firstOperandIndex(args, 0, hermesGrammar);
  const sub = args[at];
  // argparse prints the help and exits before any subcommand runs.
  if (sub === undefined || args.includes('--help') || args.includes('-h')) return false;
  const actions = hermesReadOnlySubcommands.get(sub);
  if (actions === undefined || args.some((a) => hermesWritingFlags.has(a.replace(/=.*$/, '')))) return true;
  if (actions === '*') return false;
  // An option before the action may take a value the grammar does not know: the word found must be a looking one.
  const action = args[firstOperandIndex(args, at + 1)];
  return action === undefined ? !actions.has('') : !actions.has(action);
};

/**
 * `--resume S`, `-r S`, `--continue [name]`, `-c`: a Hermes started by the agent that takes up the user's session. While
 * the user's Hermes runs the daemon refuses the claim; one left waiting in the background (`sleep 60; hermes -c`)
 * would claim it once the user's Hermes exits. argparse also accepts a long option's unambiguous prefix (`--resu`)
 * and `-r` or `-c` at the end of a bundle of flags (`-Qc`).
 */
const resumesSession = (args: readonly string[]): boolean => {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg.startsWith('--')) {
      const name = arg.slice(2).replace(/=.*$/s, '');
      if (name.length > 0 && ('resume'.startsWith(name) || 'continue'.startsWith(name))) return true;
    } else if (/^-[A-Za-z]/.test(arg)) {
      for (const letter of arg.slice(1)) {
        if (letter === 'r' || letter === 'c') return true;
        // The rest of the word is that option's value (`-qcheck`: the query "check").
        if (shortOptionsWithValue.includes(letter) || !/[A-Za-z]/.test(letter)) break;
      }
    }
  }
  return false;
};
/** Hermes' short options that take a value, chat's `-q` (the query) included. */
const shortOptionsWithValue = `${hermesGrammar.shortWithValue}q`;

/** `$(which hermes)`, `` `command -v claude` ``: a program word that looks the runtime up by name at run time. */
export const lookedUpProgram = (word: string): string | null =>
  /^(?:\$\(|`)\s*(?:which|command\s+-[vV]|type\s+-[pPa]+|whereis\s+-b)\s+['"]?([\w.-]+)['"]?\s*(?:\)|`)$/.exec(word)?.[1] ?? null;

const hermesArguments = (command: SimpleCommand): readonly string[] | null => {
  const { program, args } = command;
  if (program === 'hermes' || program === 'hermes-agent') return args;
  const looked = lookedUpProgram(command.programPath);
  if (looked === 'hermes' || looked === 'hermes-agent') return args;
  if (/^python[0-9.]*$/.test(program) && args[0] === '-m' && /^hermes(?:_cli|_agent)?(?:\.main)?$/.test(args[1] ?? '')) return args.slice(2);
  const inner = pythonRunnerCommand(command);
  return inner === null ? null : hermesArguments(inner);
};

const pythonRunnerGrammar = { shortWithValue: 'pw', longWithValue: ['from', 'with', 'with-requirements', 'with-editable', 'python', 'spec', 'index-url', 'index', 'directory', 'project', 'package', 'env-file', 'extra', 'group'] };

/** `uv run X`, `uv tool run X`, `uvx X`, `uvx --from hermes-agent hermes`, `pipx run X`: the command the Python runner starts. */
export const pythonRunnerCommand = (command: SimpleCommand): SimpleCommand | null => {
  const { program, args } = command;
  const start = program === 'uvx' ? 0 : program === 'uv' && args[0] === 'run' ? 1 : program === 'uv' && args[0] === 'tool' && args[1] === 'run' ? 2
    : program === 'pipx' && args[0] === 'run' ? 1 : -1;
  if (start < 0) return null;
  const at = firstOperandIndex(args, start, pythonRunnerGrammar);
  const word = args[at];
  return word === undefined ? null : { ...command, program: programName(word.replace(/[=<>@~!].*$/, '')), programPath: word, args: args.slice(at + 1) };
};

/** `npx npm start`, `pnpm exec npm start`, `corepack pnpm@9 start`: the package manager a runner starts, or null. */
export const packageManagerCommand = (command: SimpleCommand): SimpleCommand | null => {
  const corepack = command.program === 'corepack' ? { name: command.args[0] ?? '', args: command.args.slice(1) } : null;
  const runner = corepack ?? packageRunnerTarget(command);
  const name = runner === null ? null : /^(npm|pnpm|yarn|bun)(?:@.*)?$/.exec(programName(runner.name))?.[1] ?? null;
  return name == null || runner === null ? null : { ...command, program: name, programPath: name, args: runner.args };
};

/** A pip or python inside Hermes' checkout or a Hermes home (its venv). */
const hermesVenvProgram = /(?:^|\/)(?:\.hermes|hermes-agent)\/(?:[^/]+\/)*bin\/(?:pip|python)[0-9.]*$/;

const guardedPackages = /^(?:tollgate|hermes-agent|hermes_agent|hermes)(?:[=<>@~!].*)?$/i;

/** pip / pip3 / python -m pip / uv pip / pipx / uv tool uninstall, npm/pnpm/yarn uninstall, unlink or remove. */
export const uninstallsGuard = (command: SimpleCommand): boolean => {
  const { program, programPath, args } = command;
  // The interpreters themselves: their files, their managers' folders and removal verbs (runtimeRemovals.ts).
  if (removesRuntimeFiles(command) || removesRuntimeByManager(command)) return true;
  let rest: readonly string[] | null = null;
  if (/^pip[0-9.]*$/.test(program) || program === 'pipx') rest = args;
  else if (/^python[0-9.]*$/.test(program) && args[0] === '-m' && args[1] === 'pip') rest = args.slice(2);
  else if (program === 'uv' && (args[0] === 'pip' || args[0] === 'tool')) rest = args.slice(1);
  if (rest !== null) {
    const at = firstOperandIndex(rest, 0);
    // Installing another version replaces the running one (an old Hermes lets a failing plugin through).
    // A local folder, archive or URL with Hermes' or tollgate's name replaces it as surely as a version does.
    if (rest[at] !== 'uninstall' && rest[at] !== 'install') return false;
    // `~/.hermes/hermes-agent/venv/bin/pip install X`: Hermes' own venv, whatever the package, changes the code that runs it.
    if (hermesVenvProgram.test(programPath)) return true;
    // `pip uninstall -r list.txt`: the packages are in a file the floor does not read.
    if (rest[at] === 'uninstall' && rest.some((a) => a === '-r' || a.startsWith('--requirement') || /^-r./.test(a))) return true;
    return rest.slice(at + 1).some((a) => guardedPackages.test(a) || (/[/.]|:\/\//.test(a) && /hermes|tollgate/i.test(a)));
  }
  // `yarn global remove tollgate`: yarn's `global` comes before the verb.
  if (program === 'yarn' && args[0] === 'global') return ['remove', 'unlink', 'upgrade', 'add'].includes(args[1] ?? '') && args.slice(2).some((a) => /^tollgate(?:@.*)?$/.test(a));
  // pacman's verb is an option (`-R`, `-Rns`); nvm removes a Node version by number, perhaps the daemon's.
  if (program === 'pacman') return args.some((a) => /^-R[a-z]*$/.test(a) || a === '--remove') && args.some((a) => !a.startsWith('-') && guardPackagesAndRuntimes.test(a));
  // nix-env's verb is an option too (`-e`, `--uninstall`).
  if (program === 'nix-env') return args.some((a) => a === '--uninstall' || /^-[a-zA-Z]*e$/.test(a)) && args.some((a) => !a.startsWith('-') && guardPackagesAndRuntimes.test(a.replace(/[-_][\d_.x]+$/, '')));
  if (program === 'npm' || program === 'pnpm' || program === 'yarn' || program === 'bun') {
    const at = firstOperandIndex(args, 0, { longWithValue: ['prefix'] });
    const verb = args[at];
    const targets = args.slice(at + 1).filter((a) => !a.startsWith('-'));
    const global = args.includes('-g') || args.includes('--global') || args.includes('--location=global');
    // `npm link` in any form can repoint the global `tollgate` command the hooks run.
    if (['link', 'ln'].includes(verb ?? '')) return true;
    if (global && ['install', 'i', 'add', 'update', 'up'].includes(verb ?? '')) return targets.some((a) => /^tollgate(?:@.*)?$/.test(a) || (/[/.]/.test(a) && /tollgate/i.test(a)));
    if (!['uninstall', 'un', 'unlink', 'remove', 'rm', 'r'].includes(verb ?? '')) return false;
    return verb === 'unlink' && targets.length === 0 ? true : targets.some((a) => /^tollgate(?:@.*)?$/.test(a));
  }
  // System and other package managers: tollgate, Hermes, or the runtimes they run on (node, python).
  const removal = systemRemovals.get(program);
  if (removal !== undefined) {
    const at = firstOperandIndex(args, 0, { shortWithValue: removal.valueOptions });
    if (!removal.verbs.has(args[at] ?? '')) return false;
    return args.slice(at + 1).some((a) => !a.startsWith('-') && guardPackagesAndRuntimes.test(a));
  }
  return false;
};

/** Package managers whose removal (or replacement) verbs take the guard's packages or its runtimes away. */
const systemRemovals: ReadonlyMap<string, { readonly verbs: ReadonlySet<string>; readonly valueOptions: string }> = new Map([
  ['apt', { verbs: new Set(['remove', 'purge', 'autoremove']), valueOptions: 'oct' }],
  ['apt-get', { verbs: new Set(['remove', 'purge', 'autoremove']), valueOptions: 'oct' }],
  ['dnf', { verbs: new Set(['remove', 'erase', 'autoremove']), valueOptions: 'c' }],
  ['yum', { verbs: new Set(['remove', 'erase', 'autoremove']), valueOptions: 'c' }],
  ['zypper', { verbs: new Set(['remove', 'rm']), valueOptions: '' }],
  ['apk', { verbs: new Set(['del']), valueOptions: '' }],
  ['brew', { verbs: new Set(['uninstall', 'remove', 'rm', 'unlink']), valueOptions: '' }],
  ['conda', { verbs: new Set(['remove', 'uninstall']), valueOptions: 'np' }],
  ['mamba', { verbs: new Set(['remove', 'uninstall']), valueOptions: 'np' }],
  ['micromamba', { verbs: new Set(['remove', 'uninstall']), valueOptions: 'np' }],
  ['snap', { verbs: new Set(['remove']), valueOptions: '' }],
  ['nix-env', { verbs: new Set(['-e', '--uninstall']), valueOptions: '' }],
  ['port', { verbs: new Set(['uninstall']), valueOptions: '' }],
  ['volta', { verbs: new Set(['uninstall']), valueOptions: '' }],
  ['asdf', { verbs: new Set(['uninstall']), valueOptions: '' }],
]);
const guardPackagesAndRuntimes = /^(?:tollgate|hermes-agent|hermes|nodejs|node|python3?(?:\.\d+)?(?:-minimal)?|libpython3[.\d]*|python3-venv)(?:[=@:].*)?$/i;

/** Process names and command lines a signal must not reach: the daemon (node … tollgate serve) and Hermes. */
const guardedNames = ['node', 'tollgate', 'hermes', 'hermes-agent', 'gateway', 'python', 'python3'];
const guardedCommandLines = ['node /usr/lib/node_modules/tollgate/bin/tollgate.mjs serve', 'node bin/tollgate.mjs serve', 'tollgate serve', 'hermes gateway run', 'hermes chat',
  'python3 -m hermes_cli.main gateway run', 'python -m hermes_cli.main'];
// $PPID from the agent's terminal is the runtime itself. A pid file counts when its name is the guard's or a
// glob (`/run/*.pid`): `kill $(cat app.pid)` in another project is ordinary work.
// `ps -o ppid= -p $$`, `awk '{print $4}' /proc/$$/stat`, `grep PPid /proc/self/status`: the runtime's pid, read another way.
const guardedWords = /tollgate|hermes|gateway|\bnode\b|[*?\]]\.pid\b|pgrep|pidof|PPID|(?<!--)\bppid\b|PPid|\/proc\/(?:\$\$|self|\$BASHPID)\/stat\b/;

const pkillGrammar = { shortWithValue: 'gGPstuUF', longWithValue: ['signal', 'pgroup', 'group', 'parent', 'session', 'terminal', 'euid', 'uid', 'pidfile', 'ns', 'nslist'] };
const killallGrammar = { shortWithValue: 'sunoyZ', longWithValue: ['signal', 'user', 'older-than', 'younger-than', 'context'] };
const stopVerbs = new Set(['stop', 'kill', 'restart', 'try-restart', 'reload-or-restart', 'try-reload-or-restart', 'disable', 'mask', 'isolate', 'reload', 'freeze', 'clean', 'revert']);

/**
 * pkill's and killall's arguments without a leading signal (`-STOP`, `-SIGTSTP`, `-19`): read as bundled letters,
 * `-STOP` would end in -P taking the pattern as its value. Pausing a process stops it as surely as killing it.
 */
const withoutSignal = (args: readonly string[]): readonly string[] => (signalOption.test(args[0] ?? '') ? args.slice(1) : args);
const signalOption = /^-(?:\d+|(?:SIG)?(?:HUP|INT|QUIT|ILL|TRAP|ABRT|IOT|BUS|FPE|KILL|USR[12]|SEGV|PIPE|ALRM|TERM|STKFLT|CHLD|CLD|CONT|STOP|TSTP|TTIN|TTOU|URG|XCPU|XFSZ|VTALRM|PROF|WINCH|IO|POLL|PWR|SYS|RTMIN|RTMAX)(?:[+-]\d+)?)$/i;

/** `systemctl stop 'tollgat?.service'`, `hermes-*`: systemctl matches a unit glob against the loaded units. */
export const unitGlobMatchesGuard = (word: string): boolean => {
  if (!/[*?[]/.test(word)) return false;
  const pattern = word.replace(/\.(?:service|socket|timer|target)$/, '').replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  try {
    const glob = new RegExp(`^${pattern}$`, 'i');
    return ['tollgate', 'hermes', 'hermes-gateway', 'hermes-agent'].some((n) => glob.test(n));
  } catch {
    return true;
  }
};

/** A signal or service-manager command aimed at tollgate's daemon or at Hermes. */
export const killsGuard = (command: SimpleCommand, analysis: ShellAnalysis, pid: number | null, port: number | null = null): boolean => {
  const { program, args } = command;
  switch (program) {
    case 'kill': {
      // Signals are options (-9, -KILL, -s KILL); a negative number after them is a process group.
      const targets = args.filter((a, i) => !(a.startsWith('-') && i === 0) && !['-s', '-n'].includes(args[i - 1] ?? '') && !/^-(?:[A-Za-z]+|-)$/.test(a));
      // `kill $(ss -ltnp | grep 8787 …)`, `kill $(lsof -t -i :8787)`: the pid of whatever holds tollgate's port.
      if (port !== null && targets.some((t) => /[$`]/.test(t) && /\b(?:ss|netstat|lsof|fuser|sockstat)\b/.test(t) && new RegExp(`(?<![0-9])${port}(?![0-9])`).test(t))) return true;
      // `kill -9 -1` (and `kill -- -1`): every process the user may signal, the daemon among them.
      // `$(pgrep -f vite)` is judged by its pattern (searchesForGuard), not by the word pgrep.
      // Pid 1 in a container is its entry point, which may be the daemon or Hermes' gateway. Pid 0 is the caller's
      // own process group: Hermes, and a daemon started beside it from one script, when the terminal shares it.
      if (targets.some((t) => /^-?0*[01]$/.test(t) || namesPid(t, pid) || (/[$`]/.test(t) && guardedWords.test(t.replace(/\b(?:pgrep|pidof)\b/g, ''))))) return true;
      // `for p in /proc/[0-9]*; do grep -q tollgate …&& kill ${p#/proc/}`: a pid found at run time by a search for the guard.
      if (targets.some((t) => /[$`]/.test(t)) && (searchesForGuard(analysis) || listsEveryProcess(analysis))) return true;
      if (!command.via.some((v) => v.startsWith('xargs'))) return false;
      if (listsEveryProcess(analysis)) return true;
      // `echo 4242 | xargs kill`: the pids are the static text xargs reads.
      if (analysis.commands.some((c) => c.program === 'xargs' && c.stdin !== undefined && c.stdin.split(/[\s,]+/).some((t) => namesPid(t, pid)))) return true;
      // `pgrep -f tollgate | xargs kill`, `ps aux | grep '[t]ollgate' | awk '{print $2}' | xargs kill`: the pids come from a search for the guard.
      return searchesForGuard(analysis);
    }
    case 'skill': case 'snice':
      // skill's expressions are names, users, pids and terminals, in any order.
      return args.some((a) => !a.startsWith('-') && (namesPid(a, pid) || guardedNames.includes(programName(a)) || /[$`]/.test(a)));
    case 'gdb': case 'strace': case 'ltrace': case 'gcore': case 'renice': case 'prlimit': case 'perf': case 'lldb': case 'pstack': case 'eu-stack':
    case 'taskset': case 'ionice': case 'chrt': case 'cpulimit':
    // Profilers and injectors that attach to a running Python or Node (py-spy dump reads Hermes' memory), and
    // tools that take a process over: its terminal (reptyr), its namespaces (nsenter), a dump that ends it (criu).
    case 'py-spy': case 'pyrasite': case 'pystack': case 'austin': case 'memray': case 'rbspy': case 'frida': case 'frida-trace':
    case 'gdbserver': case 'bpftrace': case 'nsenter': case 'criu': case 'reptyr': {
      // Attaching a debugger or tracer, renicing or starving it of CPU or I/O stops or changes the process it names.
      const values = args.flatMap((a) => a.replace(/^--?[a-z-]+=/, '').split(','));
      // `cpulimit -l 1 -e node`: a process named by its program.
      if (program === 'cpulimit' && args.some((a, i) => (a === '-e' || a === '--exe') && guardedNames.includes(programName(args[i + 1] ?? '')) || /^--exe=/.test(a) && guardedNames.includes(programName(a.slice(6))))) return true;
      // `gdb -p $(pgrep -f myapp)`: a pid search is judged by its pattern (searchesForGuard), not by the word pgrep.
      return values.some((v) => namesPid(v, pid) || (/[$`]/.test(v) && (guardedWords.test(v.replace(/\b(?:pgrep|pidof)\b/g, '')) || searchesForGuard(analysis))));
    }
    case 'tmux': case 'screen':
      // The daemon or Hermes may run inside the agent's tmux/screen server: the whole server, the current or
      // most recent session, or one whose name the floor cannot read. A session named otherwise (`-t build`) is not theirs.
      return endsSessionOfGuard(program, args);
    case 'supervisorctl': {
      const words = args.filter((a) => !a.startsWith('-'));
      return ['stop', 'restart', 'remove', 'shutdown', 'signal'].includes(words[0] ?? '') && (words[0] === 'shutdown' || words.slice(1).some((w) => /tollgate|hermes|^all$/i.test(w)));
    }
    case 'pkill': {
      const options = parseOptions(withoutSignal(args), pkillGrammar);
      if (options.short.has('F') || options.long.has('pidfile')) return true;
      // `pkill -P 1`: children of init, where a daemon started with nohup … & ends up.
      const parents = [options.short.get('P'), options.long.get('parent')].filter((v): v is string => typeof v === 'string').flatMap((v) => v.split(','));
      if (parents.some((p) => /^0*1$/.test(p) || /[$`]/.test(p) || namesPid(p, pid))) return true;
      const pattern = options.operands[0];
      // `pkill -t pts/0`, `pkill -g 0`, `pkill -s 0`: with no pattern, every process the selection holds.
      if (pattern === undefined) return ['g', 'G', 's', 't'].some((o) => options.short.has(o)) || ['pgroup', 'group', 'session', 'terminal', 'ns'].some((o) => options.long.has(o));
      const flags = options.short.has('i') || options.long.has('ignore-case') ? 'i' : '';
      return matchesAny(pattern, options.short.has('f') || options.long.has('full') ? [...guardedCommandLines, ...guardedNames] : guardedNames, flags);
    }
    case 'killall': {
      const options = parseOptions(withoutSignal(args), killallGrammar);
      const regex = options.short.has('r') || options.long.has('regexp');
      // -I (--ignore-case) matches `NODE` as node.
      const caseless = options.short.has('I') || options.long.has('ignore-case');
      // `killall python3.11`, `killall node20`: a versioned name of an interpreter the guard or Hermes runs on.
      const versioned = (name: string) => guardedNames.includes(name.replace(/[\d.]+$/, ''));
      return options.operands.some((name) => regex ? matchesAny(name, guardedNames, caseless ? 'i' : '') : /[$`]/.test(name) || guardedNames.includes(caseless ? programName(name).toLowerCase() : programName(name)) || versioned(programName(name)));
    }
    case 'systemctl': case 'service': case 'launchctl': case 'rc-service': case 'sv': {
      const words = args.filter((a) => !a.startsWith('-'));
      const verb = program === 'service' || program === 'rc-service' ? words[1] : words[0];
      // `systemctl edit`, `set-property`, `revert`, `kill`, `freeze` change or stop the unit as surely as `stop`.
      const stopping = verb !== undefined && (stopVerbs.has(verb) || ['unload', 'bootout', 'remove', 'disable', 'down', 'edit', 'set-property', 'revert', 'kill', 'freeze'].includes(verb));
      // `isolate rescue.target` stops every unit the target does not pull in, the daemon's among them.
      if (verb === 'isolate' && program === 'systemctl') return true;
      return stopping && words.some((w) => /tollgate|hermes/i.test(w) || unitGlobMatchesGuard(w));
    }
    // A container sharing the host's process table (`--pid=host`, `--privileged`) signals the host's processes.
    case 'docker': case 'podman': {
      if (!args.some((a) => a === '--pid=host' || a === '--privileged' || (a === '--pid' && args[args.indexOf(a) + 1] === 'host'))) return false;
      const at = args.findIndex((a) => /^(?:kill|pkill|killall|skill)$/.test(a));
      return at >= 0 && killWordsReachGuard(args.slice(at), pid);
    }
    case 'fuser': return args.includes('-k') && args.some((a) => guardedWords.test(a));
    default: return false;
  }
};

const sessionEnders: Record<string, ReadonlySet<string>> = { tmux: new Set(['kill-session', 'kill-ses']), screen: new Set(['quit', 'kill']) };
const sessionOption: Record<string, string> = { tmux: '-t', screen: '-S' };

/** `tmux kill-server`, `tmux kill-session` (no -t), `screen -X quit`, or one aimed at a session named for the guard. */
const endsSessionOfGuard = (program: string, args: readonly string[]): boolean => {
  if (program === 'tmux' && args.includes('kill-server')) return true;
  if (!args.some((a) => sessionEnders[program]!.has(a))) return false;
  const at = args.indexOf(sessionOption[program]!);
  const target = at >= 0 ? args[at + 1] : args.find((a) => a.startsWith(sessionOption[program]!) && a.length > 2)?.slice(2);
  return target === undefined || target === '' || /[$`*?[\]]/.test(target) || /tollgate|hermes|gateway|agent/i.test(target);
};

/** A kill command given as words (a command line inside code, `['pkill','-f','serve']`), judged as killsGuard judges it. */
export const killWordsReachGuard = (words: readonly string[], pid: number | null): boolean => {
  const [path, ...args] = words;
  if (path === undefined) return false;
  const command: SimpleCommand = { program: programName(path), programPath: path, args, redirects: [], pipedFrom: [], via: [], text: words.join(' ') };
  return killsGuard(command, { source: command.text, parsed: true, problems: [], commands: [command] }, pid);
};

/** A kill target that is the daemon's pid or its process group, written as bash reads a number (`09889`, ` 9889`, `+9889`). */
const namesPid = (word: string, pid: number | null): boolean => {
  if (pid === null) return false;
  const number = /^\s*[+-]?0*([0-9]+)\s*$/.exec(word);
  if (number !== null) return Number(number[1]) === pid;
  // `kill -9 $((4000+242))`, `$((16#1092))`, `$(expr 4000 + 242)`: constant arithmetic, folded as the port's is.
  const folded = withArithmeticFolded(word.trim());
  const value = /^-?\d+$/.test(folded) ? Number(folded) : null;
  return value !== null && Math.abs(value) === pid;
};

/** Programs that find pids by name, and whether one on the line searches for the guard (as a regex, the way they match). */
const pidSearchers = new Set(['pgrep', 'pidof', 'ps', 'grep', 'egrep', 'fgrep', 'awk', 'gawk', 'mawk', 'lsof', 'fuser', 'cat', 'sed', 'find']);
const searchesForGuard = (analysis: ShellAnalysis): boolean =>
  analysis.commands.some((c) => openProcessSearch(c)) || analysis.commands.some((c) => pidSearchers.has(c.program) && c.args.some((a) => guardedWords.test(a)
    || (['grep', 'egrep', 'pgrep', 'awk', 'gawk', 'mawk'].includes(c.program) && !a.startsWith('-') && !/[$`]/.test(a) && a.length >= 3 && /[a-z]/i.test(a) && matchesAny(a.replace(/^\/|\/.*$/g, ''), [...guardedCommandLines, ...guardedNames], ''))
    // `awk '/ser[v]e/{print $1}'`, `awk '$2=="serve"{print $1}'`: the program's regexes and strings, whatever else it holds.
    || (/^[gm]?awk$/.test(c.program) && !a.startsWith('-') && awkPatterns(a).some((p) => p.length >= 3 && matchesAny(p, [...guardedCommandLines, ...guardedNames], '')))));

/** pgrep or pidof whose pattern is unknown, absent (`pgrep -u agent`), inverted or one matching the guard: its pids may be the daemon's. */
const openProcessSearch = (c: SimpleCommand): boolean => {
  if (c.program === 'pidof') return c.args.some((a) => !a.startsWith('-') && (/[$`]/.test(a) || guardedNames.includes(programName(a))));
  if (c.program !== 'pgrep') return false;
  const options = parseOptions(c.args, pkillGrammar);
  const pattern = options.operands[0];
  if (pattern === undefined || options.short.has('v') || options.long.has('inverse')) return true;
  const full = options.short.has('f') || options.long.has('full');
  return matchesAny(pattern, full ? [...guardedCommandLines, ...guardedNames] : guardedNames, options.short.has('i') || options.long.has('ignore-case') ? 'i' : '');
};

/** `ps -eo pid | xargs kill`, `ps aux | grep -v grep | awk '{print $2}'`: a process list no pattern narrows (every pid, the daemon's too). */
const listsEveryProcess = (analysis: ShellAnalysis): boolean => {
  const lists = analysis.commands.filter((c) => c.program === 'ps' && (adoptedByInit(c) || !c.args.some((a) => /^-[a-zA-Z]*[pqC]|^--(?:pid|quick-pid|ppid|sid)\b/.test(a))));
  if (lists.length === 0) return false;
  const narrows = analysis.commands.some((c) =>
    (/^[ef]?grep$/.test(c.program) && !c.args.some((a) => /^-[a-zA-Z]*v/.test(a) || a === '--invert-match') && c.args.some((a) => !a.startsWith('-')))
    || (/^[gm]?awk$/.test(c.program) && c.args.some((a) => !a.startsWith('-') && awkPatterns(a).length > 0))
    || (c.program === 'sed' && c.args.includes('-n')) || c.program === 'pgrep');
  return !narrows;
};

/**
 * `ps -o pid= --ppid 1`: the children of init are every daemon started by systemd or detached from its shell,
 * tollgate's among them; so is a parent list the line does not spell out (`--ppid "$P"`).
 */
const adoptedByInit = (c: SimpleCommand): boolean => {
  for (let i = 0; i < c.args.length; i++) {
    const m = /^--ppid(?:=(.*))?$/.exec(c.args[i]!);
    if (m === null) continue;
    const list = m[1] ?? c.args[i + 1] ?? '';
    if (/[$`]/.test(list) || list.split(/[,\s]+/).some((pid) => /^0*1$/.test(pid))) return true;
  }
  return false;
};

/** The regexes (`/…/`) and string literals (as regexes matching them) of an awk program. */
const awkPatterns = (program: string): string[] => [
  ...[...program.matchAll(/(?:^|[~!(&|,;\s])\s*\/((?:\\.|[^/\\\n])+)\//g)].map((m) => m[1]!),
  ...[...program.matchAll(/"((?:\\.|[^"\\\n])*)"/g)].map((m) => m[1]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
];

/** Whether a pkill/killall pattern (an extended regex) matches one of the guarded names; an unknown one does. */
const matchesAny = (pattern: string, names: readonly string[], flags: string): boolean => {
  if (/[$`]/.test(pattern)) return true;
  try {
    const regex = new RegExp(pattern, flags);
    return names.some((name) => regex.test(name));
  } catch {
    return true;
  }
};

const unguardingVariables = new RegExp(`(?:^|\\s)${unguardingAssignment}`);
// --ignore-user-config drops config.yaml (the plugin list); --ignore-rules drops the protected AGENTS.md/SOUL.md.
const unguardingFlags = new Set(['--yolo', '--safe-mode', '--accept-hooks', '--ignore-user-config', '--ignore-rules']);

/** A Hermes started without its plugins, in yolo, with hooks accepted, or on another home: an agent the guard does not see. */
export const startsUnguardedHermes = (command: SimpleCommand): boolean => {
  const args = hermesArguments(command);
  return args !== null && (args.some(unguardingFlag) || command.via.some((v) => unguardingVariables.test(v) || homeAssignment.test(v)) || agentOnProfile(args));
};

/** `--safe-mode`, or any prefix of it argparse would accept (`--safe`, `--yo`): a unique prefix names the option. */
const unguardingFlag = (arg: string): boolean => {
  if (!arg.startsWith('--') || arg === '--') return false;
  const name = arg.replace(/=.*$/s, '');
  return unguardingFlags.has(name) || (name.length >= 4 && [...unguardingFlags].some((flag) => flag.startsWith(name)));
};

/** `HOME=/tmp/x hermes`: the Hermes started reads ~/.hermes (its plugins, the guard) from another home. */
const homeSet = /(?:^|\s)HOME\+?=(?!\$HOME(?:\s|$)|\$\{HOME\}(?:\s|$))/;
/**
 * `env -i hermes`, `env - claude`, `env -u HERMES_HOME hermes`: the runtime starts without the variables that name its
 * home (HOME, HERMES_HOME, CLAUDE_CONFIG_DIR), so it may read another profile's settings than the guarded one.
 */
const clearsHome = (via: string): boolean => {
  const words = via.trim().split(/\s+/);
  if (!/^(?:\S*\/)?env$/.test(words[0] ?? '')) return false;
  const homeName = /^(?:HOME|HERMES_HOME|CLAUDE_CONFIG_DIR)$/;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-' || w === '--ignore-environment' || /^--unset=/.test(w) && homeName.test(w.slice(8))) return true;
    if (w === '--unset' || w === '-u') { if (homeName.test(words[i + 1] ?? '')) return true; i++; continue; }
    if (/^-[a-zA-Z0-9]+$/.test(w)) {
      // Bundled short options: -i anywhere before a value-taking letter; -uNAME attached.
      const at = w.search(/[uCS]/);
      if (w.slice(1, at < 0 ? undefined : at).includes('i')) return true;
      if (at >= 0 && w[at] === 'u' && homeName.test(w.slice(at + 1) || words[i + 1] || '')) return true;
    }
  }
  return false;
};
/**
 * `sudo hermes`, `sudo -u other claude`, `su other -c hermes`, `runuser -u other -- hermes`, `doas`, `pkexec`: the
 * runtime runs as another user, with that user's home and settings, where tollgate's plugin and hooks may not be;
 * `exec -c` clears the environment as `env -i` does; `systemd-run --setenv=HERMES_HOME=…` (and `-E`) moves the home.
 */
const otherUserOrEnvironment = (via: string): boolean =>
  /^(?:\S*\/)?(?:sudo|doas|su|runuser|pkexec|setpriv|machinectl|sudoedit)(?:\s|$)/.test(via)
  || /^exec\s+(?:-[a-zA-Z]*c|-a\s+\S+\s+-c)\b/.test(via)
  || /(?:--setenv[= ]|--property[= ]Environment=|-E\s*)(?:HOME|HERMES_HOME|CLAUDE_CONFIG_DIR|HERMES_\w+)=/.test(via);
const homeAssignment = { test: (via: string): boolean => homeSet.test(via) || clearsHome(via) || otherUserOrEnvironment(via) };
export const runtimeHomeAssignment = homeAssignment;

/**
 * `hermes -p other chat`, `hermes chat -q x --profile other`: Hermes reads -p/--profile anywhere before `--`
 * (main._apply_profile_override) and runs the agent on that profile's home, whose plugins may not include the guard.
 */
const agentOnProfile = (args: readonly string[]): boolean => {
  const end = args.indexOf('--');
  const head = end < 0 ? args : args.slice(0, end);
  if (!head.some((a, i) => ((a === '-p' || a === '--profile') && i + 1 < head.length) || a.startsWith('--profile='))) return false;
  const sub = args[firstOperandIndex(args, 0, hermesGrammar)];
  return sub === undefined || sub === 'chat';
};

/** `hermes gateway run` sent to the background or detached: a second gateway outside the service manager. */
export const detachesGateway = (command: SimpleCommand): boolean => {
  const args = hermesArguments(command);
  return args !== null && args.includes('gateway') && args.includes('run')
    && (command.background === true || command.via.some((v) => /^(?:nohup|setsid|disown|daemonize|screen|tmux)\b/.test(v)));
};
