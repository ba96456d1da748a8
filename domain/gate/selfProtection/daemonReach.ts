/**
 * Stopping or opening the daemon by routes other than a kill or a socket client (red team 8): the service manager
 * and the login manager driven over D-Bus (`busctl call … StopUnit`, `dbus-send`, `gdbus call`, `qdbus`), the
 * user manager told to exit or a slice holding the daemon stopped, the OOM killer pointed at it
 * (`/proc/PID/oom_score_adj`, `choom`), and Node's inspector attached to it (`node inspect -p PID`). Pure: each
 * judgement reads the command's words; who a pid is, is judged as a kill's target is (killsGuard).
 */
import { parseOptions } from '../../shell/commandOptions.ts';
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import { killsGuard, unitGlobMatchesGuard } from './controlCommands.ts';
import { namesLoopbackPort } from './loopbackHosts.ts';
import { wordHit, type LineScope } from './shellScope.ts';

/** One D-Bus method call as a bus tool spells it: the service, object, interface and method, and the argument values. */
export interface BusCall {
  readonly service: string;
  readonly path: string;
  readonly iface: string;
  readonly method: string;
  readonly values: readonly string[];
}

const dynamic = (word: string): boolean => /[$`]/.test(word);

// ---- the bus tools' grammars ----

/** Programs that call D-Bus methods: their words are names on the bus, not files they write. */
export const busTools: ReadonlySet<string> = new Set(['busctl', 'dbus-send', 'gdbus', 'qdbus', 'qdbus6', 'qdbus-qt5', 'qdbus-qt6']);

const busctlGrammar = { shortWithValue: 'HM', longWithValue: ['host', 'machine', 'address', 'timeout', 'expect-reply', 'auto-start', 'allow-interactive-authorization', 'augment-creds', 'watch-bind', 'json', 'destination'] };
const gdbusGrammar = { shortWithValue: 'adomt', longWithValue: ['address', 'dest', 'object-path', 'method', 'timeout'] };

/** `IFACE.METHOD` split at its last dot. */
const splitMember = (member: string): { iface: string; method: string } => {
  const at = member.lastIndexOf('.');
  return at < 0 ? { iface: '', method: member } : { iface: member.slice(0, at), method: member.slice(at + 1) };
};

/** dbus-send's typed contents (`string:x`, `array:string:a,b`, `dict:string:string:k,v`): their values. */
const typedValues = (word: string): string[] => {
  const m = /^(?:(?:array|dict|variant):)?(?:(?:string|objpath|int\d+|uint\d+|byte|boolean|double):)+(.*)$/.exec(word);
  return m === null ? [word] : m[1]!.split(',');
};

/** gdbus' GVariant texts (`"'tollgate.service'"`, `['a', 'b']`, `@s 'x'`): the strings inside, or the word itself. */
const variantValues = (word: string): string[] => {
  const strings = [...word.matchAll(/'((?:\\.|[^'\\])*)'|"((?:\\.|[^"\\])*)"/g)].map((m) => m[1] ?? m[2] ?? '');
  return strings.length > 0 ? strings : [word];
};

/** The method call a bus tool makes, or null when the command calls no method. */
export const busCallOf = ({ program, args }: SimpleCommand): BusCall | null => {
  if (program === 'busctl') {
    // The verb is found by its name: an option the grammar misreads before it (`--json short`) cannot hide it.
    const at = args.indexOf('call');
    const words = at < 0 ? [] : parseOptions(args.slice(at + 1), busctlGrammar).operands;
    if (words.length < 4) return null;
    // After the signature come its values (`ss tollgate.service replace`).
    return { service: words[0]!, path: words[1]!, iface: words[2]!, method: words[3]!, values: words.slice(5) };
  }
  if (program === 'dbus-send') {
    const dest = args.find((a) => a.startsWith('--dest='))?.slice(7) ?? '';
    const words = args.filter((a) => !a.startsWith('--'));
    if (words.length < 2) return null;
    return { service: dest, path: words[0]!, ...splitMember(words[1]!), values: words.slice(2).flatMap(typedValues) };
  }
  if (program === 'gdbus') {
    const options = parseOptions(args, gdbusGrammar);
    if (options.operands[0] !== 'call') return null;
    const value = (short: string, long: string): string => {
      const v = options.short.get(short) ?? options.long.get(long);
      return typeof v === 'string' ? v : '';
    };
    return { service: value('d', 'dest'), path: value('o', 'object-path'), ...splitMember(value('m', 'method')), values: options.operands.slice(1).flatMap(variantValues) };
  }
  if (/^qdbus(?:6|-qt[56])?$/.test(program)) {
    const words = args.filter((a) => !a.startsWith('-'));
    if (words.length < 3) return null;
    const member = splitMember(words[2]!);
    return { service: words[0]!, path: words[1]!, ...member, values: words.slice(3) };
  }
  return null;
};

// ---- what a call does to the daemon ----

/** Manager methods that stop, kill, restart, freeze, mask, disable, reconfigure or signal the unit they name. */
export const unitStoppingMethods: ReadonlySet<string> = new Set([
  'StopUnit', 'KillUnit', 'RestartUnit', 'TryRestartUnit', 'ReloadOrRestartUnit', 'ReloadOrTryRestartUnit', 'FreezeUnit', 'CleanUnit',
  'MaskUnitFiles', 'DisableUnitFiles', 'DisableUnitFilesWithFlags', 'DisableUnitFilesWithFlagsAndInstallInfo', 'RevertUnitFiles',
  'SetUnitProperties', 'QueueSignalUnit', 'EnqueueUnitJob', 'BindMountUnit', 'MountImageUnit', 'AbandonScope', 'AttachProcessesToUnit',
]);
/** Manager methods that end every unit at once (the user manager's `Exit` ends every user service). */
export const managerEndingMethods: ReadonlySet<string> = new Set(['Exit', 'Reboot', 'SoftReboot', 'PowerOff', 'Halt', 'KExec', 'SwitchRoot']);
/** Methods of a unit's own object that stop or change it (`/org/freedesktop/systemd1/unit/tollgate_2eservice`). */
export const unitObjectMethods: ReadonlySet<string> = new Set([
  'Stop', 'Kill', 'Restart', 'TryRestart', 'ReloadOrRestart', 'ReloadOrTryRestart', 'Freeze', 'Clean', 'SetProperties', 'QueueSignal', 'Abandon', 'BindMount', 'MountImage',
]);
/** Starting units that take the others down with them (`StartUnit exit.target`). */
const startingMethods: ReadonlySet<string> = new Set(['StartUnit', 'StartUnitReplace', 'EnqueueUnitJob', 'RestartUnit']);
/** logind's methods that end a user's processes, a session, the seat or the machine, or drop the user's lingering manager. */
export const loginEndingMethods: ReadonlySet<string> = new Set([
  'TerminateUser', 'KillUser', 'TerminateSession', 'KillSession', 'TerminateSeat', 'Terminate', 'Kill', 'SetUserLinger',
  'PowerOff', 'Reboot', 'Halt', 'KExec', 'SoftReboot', 'ScheduleShutdown',
]);

/** Targets whose start stops the rest of the manager's units. */
const endingTargets = /^(?:exit|shutdown|poweroff|reboot|halt|kexec|soft-reboot|rescue|emergency)\.target$/;

/**
 * A unit that is, or holds, the daemon or Hermes: named for them, one the floor cannot read (`$U`, a glob that
 * matches them), a slice (every unit in it stops with it) or the user's manager itself.
 */
export const unitHoldsGuard = (unit: string): boolean =>
  dynamic(unit) || /tollgate|hermes/i.test(unit) || unitGlobMatchesGuard(unit) || /\.slice$/.test(unit) || /^user@/.test(unit);

/** A unit object path's unit name: systemd escapes each byte outside [A-Za-z0-9] as _XX (`tollgate_2eservice`). */
const unitOfPath = (path: string): string | null => {
  const m = /^\/org\/freedesktop\/systemd1\/unit\/([^/]+)$/.exec(path);
  if (m === null) return null;
  return m[1]!.replace(/_([0-9a-fA-F]{2})/g, (_x, hex: string) => String.fromCharCode(parseInt(hex, 16)));
};

/** What a D-Bus method call does to the daemon, or null. */
export const busCallStopsGuard = (call: BusCall): string | null => {
  const { service, path, method } = call;
  const systemd = /systemd1/.test(service) || /systemd1/.test(call.iface) || dynamic(service);
  const login = /login1/.test(service) || /login1/.test(call.iface) || dynamic(service);
  const label = `${call.iface === '' ? '' : `${call.iface}.`}${method}`;
  if (dynamic(method)) return systemd || login ? `a D-Bus method the floor cannot read (${method}) of ${service}` : null;
  if (systemd) {
    if (managerEndingMethods.has(method) && !unitObjectMethods.has(method)) return `${label}: every unit of the manager, the daemon's too`;
    if (unitStoppingMethods.has(method)) {
      const unit = call.values.find((v) => unitHoldsGuard(v)) ?? (call.values.length === 0 ? '(no unit)' : undefined);
      if (unit !== undefined) return `${label} ${unit}`;
    }
    if (startingMethods.has(method) && call.values.some((v) => endingTargets.test(v) || dynamic(v))) return `${label} ${call.values.join(' ')}`;
    if (unitObjectMethods.has(method)) {
      const unit = unitOfPath(path);
      if (dynamic(path) || (unit !== null && unitHoldsGuard(unit))) return `${label} of ${unit ?? path}`;
    }
  }
  if (login && loginEndingMethods.has(method)) return `${label}: the processes of a user or session, the daemon's among them`;
  return null;
};

// ---- the service manager's own command line, beyond the verbs killsGuard reads ----

/** systemctl verbs that end the manager (with --user: every user service) or isolate a target that stops the rest. */
const managerEndingVerbs: ReadonlySet<string> = new Set(['exit', 'poweroff', 'reboot', 'halt', 'kexec', 'soft-reboot', 'switch-root', 'rescue', 'emergency', 'default']);
const unitStoppingVerbs: ReadonlySet<string> = new Set(['stop', 'kill', 'restart', 'try-restart', 'reload-or-restart', 'try-reload-or-restart', 'freeze', 'clean', 'mask', 'disable', 'set-property', 'revert']);
const systemctlGrammar = { shortWithValue: 'tpsHMPn', longWithValue: ['type', 'property', 'signal', 'host', 'machine', 'lines', 'output', 'job-mode', 'kill-whom', 'kill-value', 'what', 'root', 'state', 'message', 'timestamp', 'boot-loader-entry', 'reboot-argument', 'drop-in', 'when', 'image', 'image-policy'] };

/** `systemctl --user exit`, `stop app.slice`, `kill user@1000.service`, `start exit.target`: the daemon ends with the rest. */
const systemctlEndsGuard = ({ program, args }: SimpleCommand): string | null => {
  if (program !== 'systemctl') return null;
  const [verb, ...units] = parseOptions(args, systemctlGrammar).operands;
  if (verb === undefined) return null;
  if (managerEndingVerbs.has(verb)) return `systemctl ${verb}: every unit of the manager, the daemon's too`;
  if (unitStoppingVerbs.has(verb)) {
    const unit = units.find((u) => unitHoldsGuard(u));
    if (unit !== undefined) return `systemctl ${verb} ${unit}`;
  }
  if (['start', 'restart', 'isolate', 'reload-or-restart'].includes(verb) && units.some((u) => endingTargets.test(u) || (dynamic(u) && verb === 'isolate')))
    return `systemctl ${verb} ${units.join(' ')}`;
  return null;
};

/** `loginctl terminate-user|kill-user|terminate-session|kill-session|terminate-seat`: every process of a user or session. */
const loginctlEndsGuard = ({ program, args }: SimpleCommand): string | null => {
  if (program !== 'loginctl') return null;
  const verb = parseOptions(args, { shortWithValue: 'sHMpn', longWithValue: ['signal', 'kill-whom', 'host', 'machine', 'property', 'lines', 'output'] }).operands[0];
  return verb !== undefined && /^(?:terminate|kill)-(?:user|session|seat)$/.test(verb) ? `loginctl ${verb}: the processes of a user or session, the daemon's among them` : null;
};

// ---- the OOM killer and Node's inspector, aimed at a pid ----

/** `/proc/PID/oom_score_adj` (and the older oom_adj): a score of 1000 makes PID the first process the kernel kills. */
// The pid part may be an expansion with slashes in it (`/proc/$(cat data/tollgate.pid)/oom_score_adj`).
const oomFile = /^\/proc\/(.+?)\/(?:task\/[^/]+\/)?oom_(?:score_)?adj$/;
/** The same file after `>` in the command's text: a backquoted pid is split off the redirect by the grammar. */
const oomInText = />\|?\s*\/proc\/([^\n;&|]+?)\/(?:task\/[^/]+\/)?oom_(?:score_)?adj\b/g;
const ownProcess = /^(?:self|thread-self|\$\$|\$\{\$\}|\$BASHPID|\$\{BASHPID\})$/;

/** The pids whose OOM score the command writes: redirects and tee/dd/cp targets. */
const oomTargets = (command: SimpleCommand): string[] => {
  const written = [...command.redirects.filter((r) => /^(?:\d*>>?|>\||&>>?|<>)$/.test(r.op)).map((r) => r.target),
    ...(['tee', 'dd', 'cp', 'install'].includes(command.program) ? command.args.map((a) => a.replace(/^of=/, '')) : [])];
  // `> /proc/`pgrep x`/oom_score_adj`: the grammar keeps `/proc/` as the target and the rest as an argument.
  const split = command.redirects.some((r) => r.target === '/proc/') ? command.args.filter((a) => /oom_(?:score_)?adj$/.test(a)).map((a) => `/proc/${a}`) : [];
  const named = [...[...written, ...split].flatMap((t) => oomFile.exec(t)?.[1] ?? []),
    ...(command.text.includes('oom_') ? [...command.text.matchAll(oomInText)].map((m) => m[1]!) : [])];
  return named.filter((who) => !ownProcess.test(who));
};

/** `choom -n 1000 -p PID`: the pid given a new score (without -n it only prints). */
const choomTargets = ({ program, args }: SimpleCommand): string[] => {
  if (program !== 'choom') return [];
  const options = parseOptions(args, { shortWithValue: 'np', longWithValue: ['adjust', 'pid'] });
  if (!options.short.has('n') && !options.long.has('adjust')) return [];
  const pid = options.short.get('p') ?? options.long.get('pid');
  return typeof pid === 'string' && !ownProcess.test(pid) ? [pid] : [];
};

/** `node inspect -p PID`: the inspector turned on in a running Node (the daemon is one) and driven from here. */
const inspectorTargets = ({ program, args }: SimpleCommand): string[] => {
  if (!/^(?:node|nodejs)$/.test(program) || args[0] !== 'inspect') return [];
  const options = parseOptions(args.slice(1), { shortWithValue: 'p', longWithValue: ['pid', 'port'] });
  const pid = options.short.get('p') ?? options.long.get('pid');
  return typeof pid === 'string' ? [pid] : [];
};

/** `pkill -v x`: every process but the ones matching, the daemon's among them. */
const killsInverted = ({ program, args }: SimpleCommand): boolean =>
  program === 'pkill' && args.some((a) => a === '--inverse' || /^-[a-zA-Z]*v/.test(a));

/** Debuggers and injectors that attach to a process found by name (`lldb -n node`, `frida -n node`). */
const attachByName: ReadonlyMap<string, readonly string[]> = new Map([
  ['lldb', ['-n', '--attach-name']], ['frida', ['-n', '--attach-name', '-N', '--attach-identifier']], ['frida-trace', ['-n', '--attach-name']],
  ['gdb', ['--attach-name']], ['py-spy', ['--name']],
]);
const guardedProcessNames = /^(?:node|nodejs|tollgate|hermes|hermes-agent|python[0-9.]*|gateway)$|tollgate|hermes|[$`*?]/i;
const attachesByName = ({ program, args }: SimpleCommand): string | null => {
  const options = attachByName.get(program);
  if (options === undefined) return null;
  for (let i = 0; i < args.length; i++) {
    const [name, value] = args[i]!.includes('=') ? args[i]!.split('=', 2) as [string, string] : [args[i]!, args[i + 1]];
    if (options.includes(name) && value !== undefined && guardedProcessNames.test(value)) return `${program} attached to ${value}`;
  }
  return null;
};

/**
 * Process managers other than systemd that may run the daemon or Hermes, with the verbs that stop, remove or
 * restart what they name, and the verbs that end every process they manage (`pm2 kill`).
 */
export const processManagers: ReadonlyMap<string, { readonly stops: ReadonlySet<string>; readonly all: ReadonlySet<string> }> = new Map([
  ['pm2', { stops: new Set(['stop', 'delete', 'del', 'restart', 'reload', 'signal', 'sendSignal', 'scale']), all: new Set(['kill', 'flush-all']) }],
  ['forever', { stops: new Set(['stop', 'restart']), all: new Set(['stopall', 'restartall']) }],
  ['docker', { stops: new Set(['stop', 'kill', 'rm', 'pause', 'restart', 'update']), all: new Set() }],
  ['podman', { stops: new Set(['stop', 'kill', 'rm', 'pause', 'restart', 'update']), all: new Set() }],
  ['initctl', { stops: new Set(['stop', 'restart']), all: new Set() }],
  ['circusctl', { stops: new Set(['stop', 'restart', 'rm', 'signal']), all: new Set(['quit']) }],
  ['s6-svc', { stops: new Set(['-d', '-k', '-t', '-x', '-r']), all: new Set() }],
]);
const managedGuard = /tollgate|hermes|^all$|[$`*?]/i;

/** `pm2 stop tollgate`, `pm2 delete all`, `pm2 kill`, `docker stop tollgate`, `s6-svc -d /run/service/tollgate`. */
const managerStopsGuard = ({ program, args }: SimpleCommand): string | null => {
  const row = processManagers.get(program);
  if (row === undefined) return null;
  if (program === 's6-svc') return args.some((a) => row.stops.has(a) || /^-[a-z]*[dktxr]/.test(a)) && args.some((a) => !a.startsWith('-') && managedGuard.test(a)) ? `s6-svc ${args.join(' ')}` : null;
  const words = args.filter((a) => !a.startsWith('-'));
  const verb = words[0];
  if (verb === undefined) return null;
  if (row.all.has(verb)) return `${program} ${verb}: every process it manages`;
  return row.stops.has(verb) && words.slice(1).some((w) => managedGuard.test(w)) ? `${program} ${verb} ${words.slice(1).join(' ')}` : null;
};

/** Programs that end every process of the machine. */
const machineEnders: ReadonlySet<string> = new Set(['reboot', 'poweroff', 'halt', 'shutdown']);
const endsMachine = ({ program, args }: SimpleCommand): string | null => {
  if (machineEnders.has(program) && !args.some((a) => a === '--help' || a === '-c' || a === '--show' || a === '--wtmp-only' || a === '-w')) return `${program}: every process, the daemon's too`;
  if ((program === 'init' || program === 'telinit') && /^[06sS1]$/.test(args[0] ?? '')) return `${program} ${args[0]}: every process, the daemon's too`;
  return null;
};

/**
 * Tunnels that publish a local port to the internet (`ngrok http 8787`, `lt --port 8787`, `tailscale funnel 8787`):
 * anyone out there becomes a client of tollgate's approval API.
 */
const tunnelPrograms: ReadonlySet<string> = new Set(['ngrok', 'lt', 'localtunnel', 'tailscale', 'bore', 'zrok', 'cloudflared', 'pagekite', 'pagekite.py', 'loophole', 'telebit', 'expose', 'devtunnel']);
const runnerPrograms = new Set(['npx', 'bunx', 'pnpx']);
const tunnelsGuardPort = (command: SimpleCommand, port: number | null): string | null => {
  if (port === null) return null;
  let { program, args } = command;
  if (runnerPrograms.has(program) || ((program === 'pnpm' || program === 'yarn') && args[0] === 'dlx')) {
    const rest = program === 'pnpm' || program === 'yarn' ? args.slice(1) : args;
    const at = rest.findIndex((a) => !a.startsWith('-'));
    program = at < 0 ? '' : rest[at]!.replace(/@[^/]*$/, '');
    args = at < 0 ? [] : rest.slice(at + 1);
  }
  if (!tunnelPrograms.has(program)) return null;
  const p = String(port);
  const named = args.some((a) => {
    const value = a.replace(/^--?[a-z-]+=/, '');
    return value === p || new RegExp(`(?:^|[:/])${p}(?:/|$)`).test(value) || dynamic(value);
  });
  return named ? `${program} publishing port ${p}` : null;
};

/** Whether a pid word is the daemon's, judged as a debugger's target is (its pid, or a search for it on the line). */
const pidIsGuard = (pids: readonly string[], command: SimpleCommand, analysis: ShellAnalysis, pid: number | null): boolean =>
  pids.length > 0 && killsGuard({ ...command, program: 'gdb', programPath: 'gdb', args: pids }, analysis, pid);

// ---- the row ----

let routeProgramSet: ReadonlySet<string> | null = null;
/** Every program a route of this file starts from (built once, after the tables above exist). */
const routePrograms = (): ReadonlySet<string> => routeProgramSet ??= new Set([
  ...busTools, 'systemctl', 'loginctl', 'init', 'telinit', 'pkill', 'choom', 'node', 'nodejs', 'pnpm', 'yarn',
  ...machineEnders, ...attachByName.keys(), ...tunnelPrograms, ...runnerPrograms, ...processManagers.keys(),
]);

/** A finding of this row: a stop of the daemon (kill-guard) or a way into its process (reaches-guard-process). */
export interface DaemonReach {
  readonly id: 'kill-guard' | 'reaches-guard-process' | 'socket-client';
  readonly what: string;
}

/** What the command does to the daemon by one of these routes, or null. */
export const daemonReach = (command: SimpleCommand, analysis: ShellAnalysis, pid: number | null, port: number | null = null): DaemonReach | null => {
  // Cheap precondition: one of the programs these routes use, or an OOM file on the line.
  if (!routePrograms().has(command.program) && !command.redirects.some((r) => r.target.includes('oom_')) && !command.args.some((a) => a.includes('oom_'))) return null;
  const tunnel = tunnelsGuardPort(command, port);
  if (tunnel !== null) return { id: 'socket-client', what: tunnel };
  const call = busCallOf(command);
  const stop = (call === null ? null : busCallStopsGuard(call)) ?? systemctlEndsGuard(command) ?? loginctlEndsGuard(command) ?? endsMachine(command) ?? managerStopsGuard(command)
    ?? (killsInverted(command) ? 'pkill -v: every process but the ones named, the daemon among them' : null);
  if (stop !== null) return { id: 'kill-guard', what: stop };
  const oom = [...oomTargets(command), ...choomTargets(command)];
  if (pidIsGuard(oom, command, analysis, pid)) return { id: 'kill-guard', what: `the OOM killer's first choice made of process ${oom.join(' ')}` };
  const named = attachesByName(command);
  if (named !== null) return { id: 'reaches-guard-process', what: named };
  const inspected = inspectorTargets(command);
  if (pidIsGuard(inspected, command, analysis, pid)) return { id: 'reaches-guard-process', what: `Node's inspector attached to process ${inspected.join(' ')}` };
  return null;
};

/** A command read out of code or a script's text (no line around it): judged alone, a kill or a stop as killsGuard judges it too. */
export const textCommandReach = (command: SimpleCommand, pid: number | null, port: number | null = null): DaemonReach | null => {
  const analysis: ShellAnalysis = { source: command.text, parsed: true, problems: [], commands: [command] };
  return daemonReach(command, analysis, pid, port) ?? (killsGuard(command, analysis, pid) ? { id: 'kill-guard', what: `${command.text}: a stop of the daemon or Hermes` } : null);
};

/**
 * `npm exec --package=tollgate -- sh -c "tollgate approve a1"`, `npx -p . bash -c …`: a package runner starting a
 * shell on a command string. The string is a command line (the grammar does not unwrap these runners).
 */
export const runnerShellText = ({ program, args }: SimpleCommand): string | null => {
  const start = runnerPrograms.has(program) ? 0 : ['npm', 'pnpm', 'yarn', 'bun'].includes(program) && ['exec', 'x', 'dlx'].includes(args[0] ?? '') ? 1 : -1;
  if (start < 0) return null;
  const shell = args.findIndex((a, i) => i >= start && /^(?:ba|z|da|k)?sh$/.test(a.split('/').pop() ?? a));
  if (shell < 0) return null;
  const c = args.findIndex((a, i) => i > shell && /^-[a-zA-Z]*c$/.test(a));
  return c < 0 ? null : args[c + 1] ?? null;
};

/** Network and socket clients: what xargs feeds them may be tollgate's URL or socket. */
const clientPrograms: ReadonlySet<string> = new Set(['curl', 'wget', 'http', 'https', 'xh', 'nc', 'ncat', 'netcat', 'socat', 'telnet', 'aria2c', 'lynx', 'w3m']);

/**
 * `echo http://127.0.0.1:8787/v1/approvals/a1 | xargs curl -d …`: the words xargs reads (its here-string, or what
 * the line pipes into it) are arguments of the client it runs, judged as if written there.
 */
export const xargsFedClient = (command: SimpleCommand, scope: LineScope): DaemonReach[] => {
  if (!clientPrograms.has(command.program) || !command.via.some((v) => v.startsWith('xargs'))) return [];
  const port = scope.index.facts.httpPort;
  for (const feeder of scope.analysis.commands) {
    if (feeder.program !== 'xargs' || feeder.stdin === undefined) continue;
    for (const word of feeder.stdin.split(/[\s\0]+/)) {
      if (word === '') continue;
      if (port !== null && namesLoopbackPort(word, port)) return [{ id: 'socket-client', what: `${word}, fed to ${command.program} by xargs` }];
      const kind = wordHit(scope, command, word)?.kind;
      if (kind === 'socket' || kind === 'socket-dir') return [{ id: 'socket-client', what: `${word}, fed to ${command.program} by xargs` }];
    }
  }
  return [];
};

// ---- the same, from code (python-dbus, Gio, dbus-next, pystemd; a /proc file opened for writing) ----

const methodNames = [...unitStoppingMethods, ...managerEndingMethods, ...unitObjectMethods, ...loginEndingMethods].filter((m) => m.length > 4 || m === 'Exit' || m === 'Kill' || m === 'Stop');
const codeMethod = new RegExp(`(?:\\.|['"])(${methodNames.join('|')})\\b`, 'g');

/**
 * Code calling systemd's or logind's stopping methods (`m.StopUnit('tollgate.service', …)`, `call_sync(…, 'KillUnit', …)`),
 * or writing another process's OOM score (`open(f'/proc/{pid}/oom_score_adj', 'w')`): judged by the words the code holds.
 */
export const codeStopsDaemon = (code: string): DaemonReach | null => {
  if (/oom_(?:score_)?adj/.test(code) && /\/proc\/(?!self\b|thread-self\b)/.test(code) && /\bwrite|['"][wa]\+?['"]|>|writeFileSync|appendFile|File\.write/.test(code))
    return { id: 'kill-guard', what: "another process's OOM score written from code" };
  if (!/systemd1|login1/.test(code)) return null;
  for (const m of code.matchAll(codeMethod)) {
    const method = m[1]!;
    if (/login1/.test(code) && loginEndingMethods.has(method)) return { id: 'kill-guard', what: `logind's ${method} called from code` };
    if (managerEndingMethods.has(method) && !unitObjectMethods.has(method)) return { id: 'kill-guard', what: `systemd's ${method} called from code` };
    // The unit may be any string of the code: one naming the guard, a slice, or none readable at all.
    const units = [...code.matchAll(/['"]([\w@.:*?-]+\.(?:service|slice|scope|socket|target))['"]/g)].map((u) => u[1]!);
    if (units.length === 0 || units.some((u) => unitHoldsGuard(u)) || /tollgate|hermes/i.test(code)) return { id: 'kill-guard', what: `systemd's ${method} called from code` };
  }
  return null;
};

const SD = 'org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager';
const DS = 'dbus-send --session --dest=org.freedesktop.systemd1 --type=method_call /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager';
const GD = 'gdbus call --session --dest org.freedesktop.systemd1 --object-path /org/freedesktop/systemd1 --method org.freedesktop.systemd1.Manager';

/** The same routes from inline code (found by the inline-code row through codeStopsDaemon and textCommandReach). */
export const codeDaemonReachExamples = {
  stops: [
    "python3 -c \"import dbus; m=dbus.Interface(dbus.SessionBus().get_object('org.freedesktop.systemd1','/org/freedesktop/systemd1'),'org.freedesktop.systemd1.Manager'); m.StopUnit('tollgate.service','replace')\"",
    "python3 -c \"from gi.repository import Gio; Gio.bus_get_sync(Gio.BusType.SESSION).call_sync('org.freedesktop.systemd1','/org/freedesktop/systemd1','org.freedesktop.systemd1.Manager','KillUnit',v,None,0,-1)\"",
    "python3 -c \"import os; p=os.popen('pidof node').read().split()[0]; open(f'/proc/{p}/oom_score_adj','w').write('1000')\"",
    "python3 -c \"import subprocess; subprocess.run(['systemctl','--user','stop','tollgate'])\"",
  ],
  allows: [
    "python3 -c \"import dbus; dbus.SessionBus().get_object('org.freedesktop.Notifications','/org/freedesktop/Notifications')\"", "python3 -c \"open('/proc/self/oom_score_adj','w').write('500')\"",
    "python3 -c \"print(open('/proc/1/oom_score_adj').read())\"",
  ],
};

export const daemonReachExamples = {
  stops: [
    `busctl --user call ${SD} StopUnit ss tollgate.service replace`, `busctl call --user ${SD} StopUnit ss tollgate replace`, `busctl --user call ${SD} KillUnit ssi tollgate.service all 9`,
    `busctl --user call ${SD} RestartUnit ss hermes-gateway.service replace`, `busctl --user call ${SD} MaskUnitFiles asbb 1 tollgate.service false true`,
    `busctl --user call ${SD} StopUnit ss "$U" replace`, `busctl --user call ${SD} StopUnit ss 'tollgat*' replace`, `busctl --user call ${SD} KillUnit ssi app.slice all 9`,
    `busctl --user call ${SD} Exit`, `busctl --user call ${SD} StartUnit ss exit.target replace`, `busctl --user call ${SD} SetUnitProperties sba\\(sv\\) tollgate.service true 1 CPUQuotaPerSecUSec t 1000`,
    'busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/tollgate_2eservice org.freedesktop.systemd1.Unit Stop s replace',
    'busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/tollgate_2eservice org.freedesktop.systemd1.Unit Kill si all 9',
    `${DS}.StopUnit string:tollgate.service string:replace`, `${DS}.KillUnit string:tollgate.service string:all int32:9`,
    `${DS}.MaskUnitFiles array:string:tollgate.service boolean:false boolean:true`, `${DS}.DisableUnitFiles array:string:x.service,hermes-gateway.service boolean:false`,
    `${GD}.StopUnit tollgate.service replace`, `gdbus call -e -d org.freedesktop.systemd1 -o /org/freedesktop/systemd1 -m org.freedesktop.systemd1.Manager.RestartUnit "'tollgate.service'" "'replace'"`,
    'qdbus org.freedesktop.systemd1 /org/freedesktop/systemd1 org.freedesktop.systemd1.Manager.StopUnit tollgate.service replace',
    'busctl --user call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager TerminateUser u 1000',
    'gdbus call --system -d org.freedesktop.login1 -o /org/freedesktop/login1 -m org.freedesktop.login1.Manager.KillUser 1000 9',
    'busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager SetUserLinger ubb 1000 false false',
    'systemctl --user exit', 'systemctl --user stop app.slice', 'systemctl stop user@1000.service', 'systemctl --user kill app.slice', 'systemctl --user start exit.target',
    'systemctl --user --no-block stop "$UNIT"',
    "echo 1000 > /proc/$(pgrep -f 'tollgate serve')/oom_score_adj", 'echo 1000 | sudo tee /proc/$(pidof node)/oom_score_adj', 'echo 15 > /proc/$(pgrep -f tollgate)/oom_adj',
    'P=$(pgrep -f tollgate); echo 1000 > /proc/$P/oom_score_adj', 'echo 1000 > /proc/4242/oom_score_adj', 'choom -n 1000 -p $(pgrep -f tollgate)', 'choom --adjust 1000 --pid 4242',
    'node inspect -p $(pgrep -f tollgate)', 'node inspect --port=9230 -p 4242', 'node inspect --pid=$(pidof node)',
    'loginctl terminate-user agent', 'loginctl kill-session 3', 'pkill -v xyz', 'pkill -9 --inverse -f foo', 'lldb -n node', 'lldb --attach-name tollgate', 'frida -n node',
    'ngrok http 8787', 'ngrok tcp 127.0.0.1:8787', 'npx localtunnel --port 8787', 'lt --port=8787', 'tailscale funnel 8787', 'tailscale serve --bg 8787', 'bore local 8787 --to bore.pub',
    'sudo reboot', 'shutdown -h now', 'poweroff', 'init 0', 'halt -f', 'pm2 stop tollgate', 'pm2 delete all', 'pm2 kill', 'forever stopall', 'docker stop tollgate',
    'podman kill hermes-gateway', 'docker rm -f $(docker ps -q)', 'initctl stop tollgate', 's6-svc -d /run/service/tollgate', 'circusctl quit', 'npm exec --package=tollgate -- sh -c "tollgate approve a1"', "pnpm dlx -p x bash -c 'tollgate approve a1'", `busctl --json short --user call ${SD} StopUnit ss tollgate.service replace`,
    `busctl --user --timeout 5 call ${SD} StopUnit ss tollgate.service replace`,
    'echo http://127.0.0.1:8787/v1/approvals/a1 | xargs curl -d x', "printf '%s\\n' http://localhost:8787/v1/approvals/a1 | xargs -I{} curl -X POST {}",
    'xargs curl -d x <<< http://127.1:8787/v1/approvals/a1', 'echo /home/agent/project/data/tollgate.sock | xargs -I@ curl --unix-socket @ http://x/',
  ],
  allows: [
    'busctl --user list', 'busctl --user status', `busctl --user introspect ${SD}`, `busctl --user call ${SD} GetUnit s tollgate.service`, `busctl --user call ${SD} ListUnits`,
    `busctl --user call ${SD} StopUnit ss myapp.service replace`, `busctl --user call ${SD} StartUnit ss tollgate.service replace`,
    'dbus-send --session --dest=org.freedesktop.Notifications /org/freedesktop/Notifications org.freedesktop.Notifications.Notify string:hi',
    `${GD}.GetUnit tollgate.service`, 'gdbus introspect --session --dest org.freedesktop.systemd1 --object-path /org/freedesktop/systemd1',
    'busctl --user call org.freedesktop.systemd1 /org/freedesktop/systemd1/unit/myapp_2eservice org.freedesktop.systemd1.Unit Stop s replace',
    'busctl call org.freedesktop.login1 /org/freedesktop/login1 org.freedesktop.login1.Manager ListSessions',
    'systemctl --user status tollgate', 'systemctl --user stop myapp', 'systemctl --user list-units', 'systemctl --user start myapp.target', 'systemctl --user daemon-reload',
    'cat /proc/$(pgrep node)/oom_score_adj', 'echo 500 > /proc/self/oom_score_adj', 'echo 500 > /proc/1234/oom_score_adj', 'choom -p $$', 'choom -n 500 -- python3 app.py', 'choom -p 4242',
    'node inspect app.js', 'node inspect 127.0.0.1:9229', 'node inspect -p 1234', 'node --inspect app.js',
    'loginctl list-sessions', 'loginctl show-user agent', 'pkill -f vite', 'lldb ./a.out', 'frida-ps -U', 'pm2 stop api', 'pm2 list', 'docker stop web', 'docker ps', 's6-svc -u /run/service/tollgate', 'forever list', 'npm exec -- sh -c "npm test"', 'ngrok http 3000', 'lt --port 3000', 'tailscale status', 'shutdown -c',
    'echo https://example.com | xargs curl -s', 'echo http://127.0.0.1:3000/ | xargs curl',
  ],
};
