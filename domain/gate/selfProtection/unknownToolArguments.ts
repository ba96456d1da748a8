/**
 * What an MCP or plugin tool the floor does not know may do with its arguments, whatever they are called (red team
 * 12): run them as a command (`{"argv": ["tollgate", "approve", …]}`, `{"executable": "pkill", "params": "-f
 * tollgate"}`, `{"run": "…"}`), write a file named in parts (`{"dir": "~/.hermes", "name": "config.yaml"}`,
 * `{"path": ["/root", ".hermes", "config.yaml"]}`), signal a process named by a field (`mcp_process_kill {"name":
 * "node"}`), or reach a host and port given apart (`{"host": "127.0.0.1", "port": 8787}`). The server's code is not
 * known, so each reading that could be the one it uses is judged.
 */

type Args = Readonly<Record<string, unknown>>;

/** How many readings of one call are judged: arguments past this are still read by the unknown-tool path rule. */
const maxReadings = 64;
const maxDepth = 4;

const leaves = (value: unknown, depth = 0): string[] => {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value.trim()];
  if (typeof value === 'number' && Number.isFinite(value)) return [String(value)];
  if (depth >= maxDepth || typeof value !== 'object' || value === null) return [];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap((v) => leaves(v, depth + 1));
};

/** Keys a program's name is given by; the other arguments may be its argv. */
const programKey = /^(?:program|executable|exe|binary|bin|cmd|command|tool|name|path|file)$/i;

/**
 * Lines a server may run: each text argument, each list of words joined, the program key's value followed by every
 * other argument, and every argument in order (`{"tool": "pkill", "flags": ["-f"], "target": "tollgate"}`).
 */
export const commandReadings = (args: Args): string[] => {
  const out = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (out.size >= maxReadings || depth >= maxDepth) return;
    if (typeof value === 'string') { if (value.trim() !== '') out.add(value.trim()); return; }
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      const words = value.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String);
      if (words.length > 1) out.add(words.join(' '));
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [key, item] of entries) {
      if (!programKey.test(key) || typeof item !== 'string') continue;
      const rest = entries.filter(([k]) => k !== key).flatMap(([, v]) => leaves(v, depth + 1));
      if (rest.length > 0) out.add([item, ...rest].join(' '));
    }
    const all = entries.flatMap(([, v]) => leaves(v, depth + 1));
    if (all.length > 1) out.add(all.join(' '));
    for (const [, item] of entries) visit(item, depth + 1);
  };
  visit(args, 0);
  return [...out].slice(0, maxReadings);
};

const folderKey = /(?:^|_|[a-z])(?:dir|directory|folder|parent|root|base|location|cwd)$|^(?:dir|directory|folder|parent|root|base|location|cwd)/i;
const nameKey = /(?:^|_|[a-z])(?:name|file|filename|basename|target|dest|destination|path)$|^(?:name|file|filename|basename|target|dest|destination|path)/i;

/** Object keys that are paths (`{"writes": {"/root/.hermes/config.yaml": "x"}}`): a server may write each. */
export const keyPaths = (args: Args): string[] => {
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth >= maxDepth || typeof value !== 'object' || value === null || out.length >= maxReadings) return;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (/^(?:\/|~\/|\.{1,2}\/)/.test(key)) out.push(key);
      visit(item, depth + 1);
    }
  };
  visit(args, 0);
  return out;
};

/**
 * The tool's own name as a command (`mcp_tollgate_approve {"id": "a1"}` reads `tollgate approve a1`, `mcp_hermes_config`
 * `{"key": …, "value": …}` reads `hermes config KEY VALUE`, `mcp_git_config` reads `git config KEY VALUE`).
 */
export const toolNameReading = (tool: string, args: Args): string | null => {
  const words = tool.replace(/^mcp_/, '').split(/[_\-.]+/).filter((w) => w !== '');
  if (words.length < 2) return null;
  const name = words.map((w) => w.toLowerCase());
  // Only a server named for a guarded program reads as that program (`mcp_github_search` is not `github …`).
  if (!guardedToolServers.has(name[0]!)) return null;
  if (containerServers.has(name[0]!) && (name.includes('run') || name.includes('create'))) return containerRunReading(name[0]!, args);
  const verb = name.includes('config') || name.includes('settings') ? ['set'] : [];
  const leafWords = Object.entries(args).flatMap(([key, value]) => (typeof value === 'boolean' ? [key, String(value)] : leaves(value)));
  // `mcp_claude_settings {"disableAllHooks": true}`: Claude's settings are its `config`.
  const named = name.filter((w) => w !== 'set').map((w) => (w === 'settings' && name[0] === 'claude' ? 'config' : w));
  return [...named, ...(name[0] === 'git' ? [] : verb), ...leafWords].join(' ');
};

const containerServers: ReadonlySet<string> = new Set(['docker', 'podman', 'nerdctl']);
const guardedToolServers: ReadonlySet<string> = new Set(['tollgate', 'hermes', 'claude', 'systemctl', 'pkill', 'kill', 'killall', 'git', ...containerServers]);

/**
 * `mcp_docker_run {"image": "alpine", "volumes": ["/h:/h"], "command": "rm /h/x"}`: the `docker run` it makes, its
 * mounts, ports, environment, privileges and command in their CLI spelling, so the container rows judge it.
 */
const containerRunReading = (program: string, args: Args): string => {
  const list = (v: unknown): string[] => (Array.isArray(v) ? v.flatMap((x) => leaves(x)) : typeof v === 'object' && v !== null ? Object.entries(v).map(([k, x]) => `${k}:${leaves(x).join(',')}`) : leaves(v));
  const words: string[] = [program, 'run'];
  for (const [key, value] of Object.entries(args)) {
    const k = key.toLowerCase();
    if (/^(?:volumes?|mounts?|binds?)$/.test(k)) for (const v of list(value)) words.push('-v', v);
    else if (/^(?:ports?|publish)$/.test(k)) for (const v of list(value)) words.push('-p', v);
    else if (/^(?:env|environment)$/.test(k)) for (const v of Array.isArray(value) ? leaves(value) : Object.entries(value as object ?? {}).map(([n, x]) => `${n}=${String(x)}`)) words.push('-e', v);
    else if (k === 'privileged' && value === true) words.push('--privileged');
    else if (/^(?:pid|pid_mode|pidmode)$/.test(k) && typeof value === 'string') words.push(`--pid=${value}`);
    else if (/^(?:network|network_mode|net)$/.test(k) && typeof value === 'string') words.push(`--network=${value}`);
  }
  const image = leaves(args['image'] ?? args['name'] ?? 'image')[0] ?? 'image';
  const command = args['command'] ?? args['cmd'] ?? args['args'];
  return [...words, image, ...(Array.isArray(command) ? leaves(command) : leaves(command))].join(' ');
};

/** Values that open a port here: `{"ports": ["8787:80"]}`, `{"ports": {"80/tcp": 8787}}`, `{"localPort": 8787}`, `{"listen": 8787}`. */
export const listenerPorts = (args: Args): number[] => {
  const out: number[] = [];
  const listenKey = /^(?:listen|listen_port|listenPort|local_?port|localPort|host_?port|hostPort|ports|publish|bind|expose|lport)$/i;
  const numberOf = (v: unknown): number | null => {
    const text = String(v).trim().replace(/\/(?:tcp|udp)$/, '');
    const parts = text.split(':');
    const local = parts.length >= 2 ? parts[parts.length - 2]! : parts[0]!;
    return /^\d{1,5}$/.test(local) ? Number(local) : null;
  };
  const visit = (value: unknown, depth: number, keyed: boolean): void => {
    if (depth >= maxDepth) return;
    if (typeof value === 'number' || typeof value === 'string') { if (keyed) { const n = numberOf(value); if (n !== null) out.push(n); } return; }
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) { for (const item of value) visit(item, depth + 1, keyed); return; }
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) visit(item, depth + 1, keyed || listenKey.test(key));
  };
  visit(args, 0, false);
  return out;
};

/** Paths a server may build from parts: a folder key joined with a name key, and a list of segments joined. */
export const pathReadings = (args: Args): string[] => {
  const out = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (depth >= maxDepth || typeof value !== 'object' || value === null || out.size >= maxReadings) return;
    if (Array.isArray(value)) {
      const parts = value.filter((v): v is string => typeof v === 'string' && v !== '');
      if (parts.length > 1 && parts.length === value.length) out.add(parts.join('/').replace(/\/{2,}/g, '/'));
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const entries = Object.entries(value as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '');
    for (const [folderName, folder] of entries.filter(([k]) => folderKey.test(k))) {
      for (const [nameName, name] of entries.filter(([k]) => nameKey.test(k) && k !== folderName)) {
        if (!/\s/.test(name) && !name.startsWith('/')) out.add(`${folder.replace(/\/+$/, '')}/${name}`);
        void nameName;
      }
    }
    for (const item of Object.values(value as Record<string, unknown>)) visit(item, depth + 1);
  };
  visit(args, 0);
  return [...out].slice(0, maxReadings);
};

const signalWord = /kill|signal|terminat|stop|end_process|endprocess/i;
const processKey = /^(?:names?|patterns?|process(?:es)?|process_names?|processNames?|proc|procs|targets?|pids?|match|query|image|comm|services?|units?|service_name|serviceName)$/i;

/**
 * `mcp_process_kill {"name": "node"}`, `{"process_name": "tollgate", "action": "kill"}`: a tool whose name or action
 * says it signals a process, read as `pkill -f VALUE` and `kill VALUE` for each process field.
 */
export const signalReadings = (tool: string, args: Args): string[] => {
  const action = ['action', 'operation', 'op', 'signal', 'method'].map((k) => args[k]).find((v) => typeof v === 'string');
  if (!signalWord.test(tool) && !(typeof action === 'string' && signalWord.test(action))) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (!processKey.test(key)) continue;
    for (const word of leaves(value)) out.push(`pkill -f ${word}`, `kill ${word}`);
  }
  return out.slice(0, maxReadings);
};

const portKey = /^(?:port|server_port|serverPort|target_port|targetPort|dport|remote_port|remotePort)$/i;
const hostKey = /^(?:host|hostname|address|addr|server|ip|remote_host|remoteHost|target|target_host)$/i;

/** `{"host": "127.0.0.1", "port": 8787}` (or the port alone: a client's default host is this machine), as one address. */
export const addressReadings = (args: Args): string[] => {
  const out: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (depth >= maxDepth || typeof value !== 'object' || value === null) return;
    const entries = Object.entries(value as Record<string, unknown>);
    const ports = entries.filter(([k, v]) => portKey.test(k) && (typeof v === 'number' || typeof v === 'string')).map(([, v]) => String(v).trim());
    const hosts = entries.filter(([k, v]) => hostKey.test(k) && typeof v === 'string').map(([, v]) => String(v).trim());
    for (const port of ports) for (const host of hosts.length > 0 ? hosts : ['127.0.0.1']) out.push(`${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`);
    for (const [, item] of entries) visit(item, depth + 1);
  };
  visit(args, 0);
  return out.slice(0, maxReadings);
};

/** Words of a tool's name that say it runs what it is given (`mcp_shell_run`, `mcp_ops_do`, `mcp_box_exec`). */
const runningToolWords: ReadonlySet<string> = new Set(['run', 'exec', 'execute', 'shell', 'bash', 'sh', 'zsh', 'cmd', 'command', 'commands', 'terminal', 'process',
  'spawn', 'do', 'ops', 'script', 'eval', 'invoke', 'launch', 'start', 'task', 'job', 'runner', 'system', 'os', 'sandbox', 'box', 'container', 'kill', 'signal']);
/** Argument names that hold something to run, at any depth. */
const runningKey = /^(?:cmds?|commands?|command_?(?:str|string|line|text)?|cmd_?line|cmdline|exec|executable|run|shell|bash|sh|zsh|script|inline|argv|args|arguments|params|flags|line|lines|input|stdin|program|binary|bin|exe|code|source|snippet|expression|statement)$/i;

const hasRunningKey = (value: unknown, depth = 0): boolean => {
  if (depth >= maxDepth || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((v) => hasRunningKey(v, depth + 1));
  return Object.entries(value as Record<string, unknown>).some(([k, v]) => runningKey.test(k) || hasRunningKey(v, depth + 1));
};

/** Whether an unknown tool may run its arguments: its name or an argument's name says so (a search's `query` does not). */
export const mayRunArguments = (tool: string, args: Args): boolean =>
  tool.toLowerCase().split(/[_\-.]+/).some((w) => runningToolWords.has(w)) || hasRunningKey(args);
