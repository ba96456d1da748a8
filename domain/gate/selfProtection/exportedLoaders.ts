/**
 * Variables a line exports that make later programs load code the floor cannot read (red team 8): a command
 * variable whose command is a file (`EDITOR=/tmp/ed.sh`, `LESSOPEN='|/tmp/lp.sh %s'`, core.fsmonitor through
 * GIT_CONFIG_PARAMETERS or GIT_CONFIG_KEY_n), one whose value the analysis lost (read back from the line as
 * written), and a folder or file a program takes its startup files from (`ZDOTDIR`, `XDG_CONFIG_HOME`, `INPUTRC`,
 * `GIT_EXEC_PATH`): there the floor guards none of them. embeddedCommands.ts judges the commands' own text,
 * persistenceCommands.ts the language loaders (NODE_OPTIONS, PYTHONPATH); this adds what they leave to a file.
 */
import type { ShellAnalysis } from '../../shell/shellAnalysis.ts';
import type { CommandFinding } from './commandRules.ts';
import { commandVariables, isGitCommandKey } from './embeddedCommands.ts';
import { shellTextFindings } from './inlineCode.ts';
import { unreadFileRun } from './loaderFileTexts.ts';
import { loopbackPortUnknown, namesLoopbackPort } from './loopbackHosts.ts';
import { matchAbsolute, resolvePath } from './protectedPaths.ts';
import { runLaterPlace } from './placedCode.ts';
import { hitOf } from './shellScope.ts';
import type { LineScope } from './shellScope.ts';

/** Command variables whose value is a command line (not options or a prompt): its program may be a file. */
const commandLineVariables = /^(?:GIT_(?:PAGER|EDITOR|SEQUENCE_EDITOR|SSH_COMMAND|SSH|ASKPASS|EXTERNAL_DIFF|PROXY_COMMAND)|SSH_ASKPASS|(?:MAN|SYSTEMD_|GH_|PSQL_|BAT_|DELTA_)?PAGER|GH_EDITOR|EDITOR|VISUAL|SUDO_EDITOR|FCEDIT|SVN_EDITOR|HGEDITOR|LESSOPEN|LESSCLOSE|PROMPT_COMMAND|RSYNC_RSH|RSYNC_CONNECT_PROG|BROWSER|(?:CARGO_BUILD_)?RUSTC(?:_WORKSPACE)?_WRAPPER|RUSTC|SUDO_ASKPASS|(?:npm|NPM)_(?:config|CONFIG)_(?:script_shell|SCRIPT_SHELL|shell|SHELL)|SHELL|CONFIG_SHELL|CC|CXX|CPP|LD|AR)$/;

const temporaryFolder = /^\/(?:tmp|var\/tmp|dev\/shm)(?:\/|$)/;
/** Variables naming the file a shell or REPL writes its history to. */
const historyFileVariables: ReadonlySet<string> = new Set(['HISTFILE', 'LESSHISTFILE', 'NODE_REPL_HISTORY', 'PYTHON_HISTORY', 'SQLITE_HISTORY', 'MYSQL_HISTFILE', 'PSQL_HISTORY', 'REDISCLI_HISTFILE', 'IRB_HISTORY_FILE']);

/** make reads every makefile MAKEFILES names before the project's own (space-separated): rules the floor never read. */
const makefileListVariable = 'MAKEFILES';

/** Python calls PYTHONBREAKPOINT's module.function at each breakpoint(): importing a module the floor never read, unless a debugger's. */
const ownBreakpointHooks = /^(?:|0|pdb\.set_trace|ipdb\.set_trace|pudb\.set_trace|IPython\.embed|IPython\.core\.debugger\.set_trace|web_pdb\.set_trace|debugpy\.breakpoint|builtins\.breakpoint)$/;

/**
 * Variables naming where later clients send their requests: an HTTP proxy on tollgate's port, or a Docker host on
 * its port or socket, turns every later request into one to tollgate.
 */
const endpointVariables = /^(?:https?_proxy|HTTPS?_PROXY|all_proxy|ALL_PROXY|ftp_proxy|FTP_PROXY|DOCKER_HOST|CONTAINER_HOST|PODMAN_HOST|BUILDKIT_HOST)$/;


/**
 * Variables naming where a program finds its startup files or helper programs, each with the places that add
 * nothing (the system's folders; the home's own default). Elsewhere the files there are not the ones the floor
 * guards (`XDG_CONFIG_HOME=/tmp/c` makes /tmp/c/git/config git's config).
 */
const startupLocations: ReadonlyMap<string, readonly string[]> = new Map([
  ['ZDOTDIR', ['']], ['XDG_CONFIG_HOME', ['/.config']], ['XDG_DATA_HOME', ['/.local/share']], ['XDG_CONFIG_DIRS', []], ['XDG_DATA_DIRS', []],
  ['GIT_EXEC_PATH', []], ['GIT_TEMPLATE_DIR', []], ['IPYTHONDIR', ['/.ipython']], ['JUPYTER_CONFIG_DIR', ['/.jupyter']], ['INPUTRC', ['/.inputrc']], ['LESSKEY', ['/.less']],
  ['LESSKEYIN', ['/.lesskey']], ['WGETRC', ['/.wgetrc']], ['CURL_HOME', ['']], ['NPM_CONFIG_USERCONFIG', ['/.npmrc']], ['NPM_CONFIG_GLOBALCONFIG', []],
  // npm reads its settings from the environment whatever the case of the name.
  ['npm_config_userconfig', ['/.npmrc']], ['npm_config_globalconfig', []], ['STARSHIP_CONFIG', ['/.config/starship.toml']],
  ['PSQLRC', ['/.psqlrc']], ['JULIA_DEPOT_PATH', ['/.julia']], ['EMACSLOADPATH', []], ['MYVIMRC', ['/.vimrc']], ['SCREENRC', ['/.screenrc']], ['DOCKER_CONFIG', ['/.docker']],
  ['DIRENV_CONFIG', ['/.config/direnv']], ['IRBRC', ['/.irbrc']], ['R_PROFILE_USER', ['/.Rprofile']], ['R_PROFILE', []], ['JULIA_LOAD_PATH', []], ['TMUX_TMPDIR', []], ['GNUPGHOME', ['/.gnupg']],
  // glibc loads character-set converters (shared libraries) from GCONV_PATH: code in every program that calls iconv.
  ['GCONV_PATH', []], ['PYTHONUSERBASE', ['/.local']], ['PYENV_ROOT', ['/.pyenv']],
]);
/** Variables whose value is code a program runs at start (Vim's and ex's init commands, Lua's, the Perl debugger's). */
const startupCodeVariables = /^(?:VIMINIT|EXINIT|GVIMINIT|LUA_INIT(?:_5_\d)?|PERL5DB|PERLDB_OPTS|NODE_REPL_EXTERNAL_MODULE)$/;

const systemFolder = /^\/(?:usr|etc|lib|lib32|lib64|opt|nix|snap)(?:\/|$)/;

/** Whether a location value adds only the system's folders or the home's default (`~/.config`, `$HOME/.config`, the home). */
const ownLocation = (name: string, value: string, home: string | null): boolean => {
  const defaults = startupLocations.get(name)!;
  return value.split(':').every((part) => {
    if (part === '' || part === `$${name}` || part === `\${${name}}`) return true;
    if (part.startsWith('/') && systemFolder.test(part) && !part.includes('..')) return true;
    const homeWord = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(part);
    const rest = homeWord !== null ? part.slice(homeWord[0].length) : home !== null && (part === home || part.startsWith(`${home}/`)) ? part.slice(home.length) : null;
    return rest !== null && defaults.includes(rest.replace(/\/+$/, ''));
  });
};

/** The value as the line spells it, where the analysis could not know it; null when the line does not spell it. */
const writtenValue = (source: string, name: string): string | null => {
  const match = new RegExp(`(?:^|[\\s;&|(])${name}=("[^"]*"|'[^']*'|[^\\s;&|)]*)`).exec(source);
  return match === null ? null : match[1]!.replace(/^(["'])([\s\S]*)\1$/, '$2');
};

/** `'core.fsmonitor'='/tmp/x' 'alias.st'='!/tmp/y'`: git's own quoting of -c pairs. */
const gitParameterPairs = (value: string): { key: string; value: string }[] =>
  [...value.matchAll(/'([^']*)'(?:='([^']*)')?/g)].map((m) => (m[2] !== undefined ? { key: m[1]!, value: m[2] } : { key: m[1]!.replace(/=.*$/, ''), value: m[1]!.replace(/^[^=]*=?/, '') }));

const hidden = (what: string): CommandFinding => ({ id: 'hidden-command', what });

/** The finding for one exported variable, or null. */
const exportedFinding = (name: string, given: string | null, analysis: ShellAnalysis, scope: LineScope): CommandFinding | null => {
  const value = given ?? writtenValue(analysis.source, name);
  // `export PAGER` alone re-exports what the session inherited (a plain assignment of an earlier call is not
  // carried); `read PAGER; export PAGER` names it twice, and stays unknown.
  if (value === null && analysis.source.split(name).length === 2) return null;
  // `export GIT_PAGER=$PAGER`: another command variable's value, judged when that one was exported or inherited.
  if (value !== null && /^\$\{?[A-Z_]+\}?$/.test(value) && commandVariables.test(value.replace(/[${}]/g, ''))) return null;
  if (startupLocations.has(name)) {
    if (value === null) return hidden(`exported ${name}: startup files read from a place the floor cannot name`);
    return ownLocation(name, value, scope.index.facts.home) ? null : hidden(`exported ${name}=${value}: later programs load their startup files from there, unguarded`);
  }
  // `export HOME=/tmp/h`: every later Hermes, Claude Code and shell reads its home (~/.hermes and its plugins, ~/.claude) there.
  if (name === 'HOME') {
    const home = scope.index.facts.home;
    if (value === null) return { id: 'hermes-control', what: 'exported HOME with a value the floor cannot know: later Hermes starts read their home there' };
    if (/^(?:\$HOME|\$\{HOME\}|~)\/*$/.test(value)) return null;
    return home !== null && value.replace(/\/+$/, '') === home.replace(/\/+$/, '') ? null : { id: 'hermes-control', what: `exported HOME=${value}: later Hermes starts read ~/.hermes from there, without the guard` };
  }
  // `export PORT=8787; node server.js`: the next server started serves on tollgate's port.
  if (/^(?:[A-Z_]*_)?PORT$/.test(name) && value !== null && scope.index.facts.httpPort !== null && Number(value.trim()) === scope.index.facts.httpPort)
    return { id: 'socket-client', what: `exported ${name}=${value}: the next server started listens on tollgate's port` };
  // `export PATH=/tmp/evil:$PATH`: every later command name (hermes, git, node) may be a file planted there, unread.
  if (name === 'PATH' && value !== null) {
    const planted = value.split(':').find((folder) => temporaryFolder.test(folder));
    if (planted !== undefined) return hidden(`exported PATH with ${planted} in it: later commands may run files planted there, unread`);
  }
  // `export HISTFILE=~/.hermes/config.yaml`: the shell writes its history over that file when it exits.
  if (historyFileVariables.has(name)) {
    const context = scope.contexts[0] ?? { home: scope.index.facts.home, hermesHome: scope.index.facts.hermesHome, cwd: null, base: null };
    const hit = value === null ? null : hitOf(value, context, scope.index);
    if (hit !== null && hit.kind !== 'hermes-home') return { id: 'write-protected-path', what: `exported ${name}=${value}: the history is written over ${hit.what}` };
    if (value !== null && runLaterPlace(resolvePath(value, context)?.absolute ?? value, scope.index.facts.home) !== null) return hidden(`exported ${name}=${value}: history lines written into a file run later`);
  }
  if (name === makefileListVariable) {
    if (value === null) return hidden(`exported ${name}: makefiles read from a place the floor cannot name`);
    return value.trim() === '' ? null : hidden(`exported ${name}=${value}: every later make reads those rules first, unread`);
  }
  if (name === 'PYTHONBREAKPOINT') {
    if (value === null) return hidden(`exported ${name}: a hook module the floor cannot name`);
    return ownBreakpointHooks.test(value.trim()) ? null : hidden(`exported ${name}=${value}: every breakpoint() imports and runs it`);
  }
  if (endpointVariables.test(name)) return endpointFinding(name, value, scope);
  if (startupCodeVariables.test(name)) {
    if (value === null || value === '') return value === null ? hidden(`exported ${name}: start-up code the floor cannot read`) : null;
    const context = scope.contexts[0] ?? { home: scope.index.facts.home, hermesHome: scope.index.facts.hermesHome, cwd: null, base: null };
    const inner = shellTextFindings(value, scope.index, context);
    if (inner.length > 0) return { id: 'script-would-disable-guard', what: `exported ${name}: ${inner[0]!.what}` };
    // A file sourced or required (`so /tmp/x`, `@/tmp/x.lua`, `require'x'`) is code the floor never read.
    return /[/~$`@!]|\b(?:so(?:urce)?|runtime|require|dofile|loadfile|do)\b/.test(value) ? hidden(`exported ${name}: start-up code that loads ${value}`) : null;
  }
  if (!commandVariables.test(name)) return null;
  // `GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=/tmp/h`: every later git runs its hooks from that folder.
  if (/^GIT_CONFIG_VALUE_\d+$/.test(name) && gitKeyIs(name, analysis, /^(?:core\.hookspath|include\.path|includeif\..*\.path)$/i))
    return hidden(`exported ${name}: git's ${value === null ? 'hooks or included config' : `hooks or included config from ${value}`}, read by every later git, unguarded`);
  if (value === null) return hidden(`exported ${name}: a command the floor cannot read`);
  if (given === null) {
    const context = scope.contexts[0] ?? { home: scope.index.facts.home, hermesHome: scope.index.facts.hermesHome, cwd: null, base: null };
    const inner = shellTextFindings(value, scope.index, context);
    if (inner.length > 0) return { id: 'script-would-disable-guard', what: `exported ${name}: ${inner[0]!.what}` };
  }
  // `'core.hooksPath'='/tmp/h'` among git's -c pairs: hooks (or included config) from a folder the floor does not read.
  if (name === 'GIT_CONFIG_PARAMETERS' && gitParameterPairs(value).some((p) => /^(?:core\.hookspath|include\.path|includeif\..*\.path)$/i.test(p.key)))
    return hidden(`exported ${name}: git's hooks or included config from elsewhere, read by every later git`);
  const commands = name === 'GIT_CONFIG_PARAMETERS' ? gitParameterPairs(value).filter((p) => isGitCommandKey(p.key)).map((p) => p.value)
    : /^GIT_CONFIG_VALUE_\d+$/.test(name) ? gitKeyRuns(name, analysis) ? [value] : []
      : commandLineVariables.test(name) ? [value] : [];
  for (const command of commands) {
    const file = unreadFileRun(command);
    if (file !== null) return hidden(`exported ${name}: runs ${file}, a file the floor cannot read, in later programs`);
  }
  return null;
};

/** A proxy or container host on tollgate's loopback port or socket; one the line lost may be either. */
const endpointFinding = (name: string, value: string | null, scope: LineScope): CommandFinding | null => {
  const { httpPort, paths } = scope.index.facts;
  if (value === null) return httpPort === null && !paths.some((p) => p.kind === 'socket') ? null : hidden(`exported ${name}: an endpoint the floor cannot name`);
  const reach = (what: string): CommandFinding => ({ id: 'socket-client', what: `exported ${name}=${value}: ${what}` });
  if (httpPort !== null && (namesLoopbackPort(value, httpPort) || loopbackPortUnknown(value, httpPort))) return reach(`later requests go to tollgate's port ${httpPort}`);
  const socket = /^(?:unix|npipe):\/\/(.+)$/.exec(value.trim())?.[1];
  if (socket !== undefined) {
    const hit = matchAbsolute(socket.replace(/\/+$/, ''), scope.index);
    if (hit !== null && (hit.kind === 'socket' || hit.kind === 'socket-dir' || hit.kind === 'data')) return reach(`later requests go to tollgate's socket`);
    if (/[$`]/.test(socket)) return hidden(`exported ${name}=${value}: a socket the floor cannot name`);
  }
  return null;
};

const gitKeyIs = (name: string, analysis: ShellAnalysis, key: RegExp): boolean => {
  const keyName = name.replace('VALUE', 'KEY');
  const written = analysis.exports?.[keyName] ?? writtenValue(analysis.source, keyName);
  return typeof written === 'string' && key.test(written);
};

/** Whether GIT_CONFIG_VALUE_n's key (GIT_CONFIG_KEY_n, exported on the line) is one git runs as a command; unknown counts. */
const gitKeyRuns = (name: string, analysis: ShellAnalysis): boolean => {
  const keyName = name.replace('VALUE', 'KEY');
  const key = analysis.exports?.[keyName] ?? writtenValue(analysis.source, keyName);
  return key === null || key === undefined || isGitCommandKey(key);
};

/** A bare `PROMPT_COMMAND=…` or `PS1=…` (not exported): the interactive shell itself runs it before each prompt. */
const promptAssignment = /(?:^|[\s;&|(])(PROMPT_COMMAND|PS[0-4])=/;

/** Every finding for the line's exports (commandFindings calls it once per line). */
export const exportedLoaderFileFindings = (analysis: ShellAnalysis, scope: LineScope): CommandFinding[] => {
  const out: CommandFinding[] = [];
  for (const [name, value] of Object.entries(analysis.exports ?? {})) {
    const found = exportedFinding(name, value, analysis, scope);
    if (found !== null) out.push(found);
  }
  // `PATH=/tmp/evil:$PATH` alone: PATH is exported already, so the shell's later commands (and Hermes' next call) use it.
  const bare = /(?:^|[;&|]\s*)PATH=("[^"]*"|'[^']*'|[^\s;&|]+)\s*(?=;|&&|\|\||\n|$)/.exec(analysis.source);
  if (out.length === 0 && bare !== null && !('PATH' in (analysis.exports ?? {}))) {
    const found = exportedFinding('PATH', bare[1]!.replace(/^(["'])([\s\S]*)\1$/, '$2'), analysis, scope);
    if (found !== null) out.push(found);
  }
  if (out.length === 0 && (analysis.source.includes('PROMPT_COMMAND=') || analysis.source.includes('PS'))) {
    const match = promptAssignment.exec(analysis.source);
    const value = match === null ? null : writtenValue(analysis.source, match[1]!);
    if (value !== null) {
      const context = scope.contexts[0] ?? { home: scope.index.facts.home, hermesHome: scope.index.facts.hermesHome, cwd: null, base: null };
      const inner = shellTextFindings(value, scope.index, context);
      if (inner.length > 0) out.push({ id: 'script-would-disable-guard', what: `${match![1]} set for the shell's prompt: ${inner[0]!.what}` });
    }
  }
  return out;
};
