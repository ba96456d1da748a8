/**
 * The probes: real decisions through each path that guards Hermes, in a probe session of their own
 * (`tollgate-doctor-<random>`: a user message, `rm -rf /` which must be blocked, `echo tollgate-doctor` which must
 * be allowed, then the session ends). They are recorded in the ledger like any other session.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestOverSocket } from '../../adapters/http/socketClient.ts';
import { splitWords } from '../install/shellWords.ts';

export const hardlineProbe = 'rm -rf /';
export const plainProbe = 'echo tollgate-doctor';

export interface Spawned { readonly code: number | null; readonly stdout: string; readonly stderr: string; readonly timedOut: boolean; readonly error: string | null; readonly ms: number }

export const runProcess = (command: string, args: readonly string[], options: { input?: string; env?: NodeJS.ProcessEnv; timeoutMs: number; cwd?: string }): Promise<Spawned> =>
  new Promise((done) => {
    const started = performance.now();
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let child;
    try {
      child = spawn(command, args, { env: options.env, cwd: options.cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (error) {
      done({ code: null, stdout, stderr, timedOut, error: (error as Error).message, ms: 0 });
      return;
    }
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.stdin.on('error', () => undefined);
    child.on('error', (error) => { clearTimeout(timer); done({ code: null, stdout, stderr, timedOut, error: error.message, ms: performance.now() - started }); });
    child.on('close', (code) => { clearTimeout(timer); done({ code, stdout, stderr, timedOut, error: null, ms: performance.now() - started }); });
    child.stdin.end(options.input ?? '');
  });

// ---------------------------------------------------------------------------------------------------------------
// The daemon

export interface DaemonProbe {
  readonly reachable: boolean;
  readonly health: { ok: boolean; head?: number; version?: string; problems?: string[] } | null;
  readonly error: string | null;
  readonly hardline: { action: string | null; reasons: string[]; message: string | null } | null;
  readonly plain: { action: string | null; reasons: string[]; message: string | null } | null;
}

const hookPath = (hook: string) => `/v1/hooks/hermes/${hook}`;

const decisionOf = (json: unknown) => {
  const o = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return {
    action: typeof o['action'] === 'string' ? o['action'] : null,
    reasons: Array.isArray(o['reasons']) ? o['reasons'].filter((r): r is string => typeof r === 'string') : [],
    message: typeof o['message'] === 'string' ? o['message'] : null,
  };
};

export const probeDaemon = async (socket: string, session: string): Promise<DaemonProbe> => {
  const options = { timeoutMs: 5000, agent: false as const };
  let health;
  try {
    health = await requestOverSocket(socket, 'GET', '/v1/health', undefined, {}, options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { reachable: false, health: null, hardline: null, plain: null,
      error: code === 'ENOENT' || code === 'ECONNREFUSED' ? `no daemon listens on ${socket}` : (error as Error).message };
  }
  const body = (health.json ?? {}) as DaemonProbe['health'];
  if (health.status !== 200) return { reachable: true, health: body, hardline: null, plain: null, error: `health answered HTTP ${health.status}` };
  try {
    await requestOverSocket(socket, 'POST', hookPath('pre_llm_call'), { session_id: session, user_message: 'tollgate doctor: probe that the gate answers', platform: 'tollgate-doctor' }, {}, options);
    const call = (command: string, n: number) => requestOverSocket(socket, 'POST', hookPath('pre_tool_call'),
      { session_id: session, tool_name: 'terminal', args: { command }, tool_call_id: `${session}-${n}`, approve_directive: false }, {}, options);
    const hardline = decisionOf((await call(hardlineProbe, 1)).json);
    const plain = decisionOf((await call(plainProbe, 2)).json);
    await requestOverSocket(socket, 'POST', hookPath('on_session_end'), { session_id: session }, {}, options).catch(() => undefined);
    return { reachable: true, health: body, hardline, plain, error: null };
  } catch (error) {
    return { reachable: true, health: body, hardline: null, plain: null, error: (error as Error).message };
  }
};

// ---------------------------------------------------------------------------------------------------------------
// The plugin, loaded by Python (Hermes' own dispatch when Hermes is importable)

export const probeScript = fileURLToPath(new URL('./probe_plugin.py', import.meta.url));

export interface PluginProbe {
  readonly mode?: 'hermes' | 'plugin-only';
  readonly python?: string;
  readonly executable?: string;
  readonly hermes_version?: string | null;
  readonly loaded?: boolean;
  readonly load_error?: string | null;
  readonly plugins?: { key: string; name: string; source: string | null; enabled: boolean; error: string | null; hooks: string[]; path: string | null }[];
  readonly pre_tool_call_callbacks?: string[];
  readonly hardline?: { action: string | null; message: string | null };
  readonly plain?: { action: string | null; message: string | null };
  readonly status?: { state?: string; error?: string; settings?: { socket?: string; sources?: Record<string, string> }; first?: boolean };
  readonly error?: string;
  readonly trace?: string;
  readonly ms?: number;
}

export type PluginProbeResult = { readonly ran: true; readonly probe: PluginProbe } | { readonly ran: false; readonly reason: string };

export const probePlugin = async (python: string, pluginDir: string, session: string, env: NodeJS.ProcessEnv): Promise<PluginProbeResult> => {
  const run = await runProcess(python, [probeScript, pluginDir, session], { env, timeoutMs: 120_000, cwd: homedir() });
  if (run.error !== null) return { ran: false, reason: `cannot run ${python}: ${run.error}` };
  const line = run.stdout.split('\n').reverse().find((l) => l.startsWith('TOLLGATE-PROBE '));
  if (line === undefined) return { ran: false, reason: `${python} printed no probe result (exit ${run.code}${run.timedOut ? ', killed after 120 s' : ''}): ${(run.stderr || run.stdout).trim().split('\n').slice(-5).join(' | ')}` };
  return { ran: true, probe: JSON.parse(line.slice('TOLLGATE-PROBE '.length)) as PluginProbe };
};

/**
 * The Python that runs Hermes: the interpreter in the shebang of `hermes` on PATH (its virtualenv), else python3.
 */
export const findHermesPython = (env: NodeJS.ProcessEnv): { python: string; why: string } => {
  for (const dir of (env['PATH'] ?? '').split(delimiter)) {
    if (dir === '') continue;
    const hermes = join(dir, 'hermes');
    try {
      if (!statSync(hermes).isFile()) continue;
      const first = readFileSync(hermes, 'utf8').slice(0, 300).split('\n')[0] ?? '';
      const words = first.startsWith('#!') ? splitWords(first.slice(2).trim()) : null;
      if (words && words.length > 0) {
        const interpreter = words[0]!.endsWith('/env') ? words[1] : words[0];
        if (interpreter && (interpreter.includes('/') ? existsSync(interpreter) : true)) return { python: interpreter, why: `the interpreter of ${hermes}` };
      }
    } catch { /* not there */ }
  }
  return { python: 'python3', why: 'no `hermes` on PATH; python3 loads the plugin on its own' };
};

// ---------------------------------------------------------------------------------------------------------------
// A shell hook, run the way Hermes 0.19 runs it (agent/shell_hooks.py _spawn and _parse_response)

export interface ShellHookRun { readonly run: Spawned | null; readonly blocked: boolean; readonly message: string | null; readonly problem: string | null }

/** The stdin Hermes writes (`_serialize_payload`). */
export const shellHookPayload = (event: string, kwargs: Record<string, unknown>): string => {
  const top = new Set(['tool_name', 'args', 'session_id', 'parent_session_id']);
  const extra = Object.fromEntries(Object.entries(kwargs).filter(([k]) => !top.has(k)));
  const args = kwargs['args'];
  return JSON.stringify({
    hook_event_name: event, tool_name: kwargs['tool_name'] ?? null,
    tool_input: typeof args === 'object' && args !== null && !Array.isArray(args) ? args : null,
    session_id: kwargs['session_id'] || kwargs['parent_session_id'] || '', cwd: process.cwd(), extra,
  });
};

/** Hermes' reading of a pre_tool_call hook's stdout: a block, or nothing. */
export const parseHookStdout = (stdout: string): { blocked: boolean; message: string | null } => {
  const text = stdout.trim();
  if (text === '') return { blocked: false, message: null };
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return { blocked: false, message: null };
    const d = data as Record<string, unknown>;
    const pick = (...values: unknown[]) => values.find((v): v is string => typeof v === 'string' && v !== '') ?? 'Blocked by shell hook.';
    if (d['action'] === 'block') return { blocked: true, message: pick(d['message'], d['reason']) };
    if (d['decision'] === 'block') return { blocked: true, message: pick(d['reason'], d['message']) };
    return { blocked: false, message: null };
  } catch {
    return { blocked: false, message: null };
  }
};

export const runShellHook = async (command: string, event: string, kwargs: Record<string, unknown>, timeoutSeconds: number, env: NodeJS.ProcessEnv): Promise<ShellHookRun> => {
  const argv = splitWords(command.replace(/(^|\s)~(?=\/|\s|$)/g, `$1${homedir()}`));
  if (argv === null || argv.length === 0) return { run: null, blocked: false, message: null, problem: `Hermes cannot split the command ${JSON.stringify(command)}` };
  const run = await runProcess(argv[0]!, argv.slice(1), { input: shellHookPayload(event, kwargs), env, timeoutMs: timeoutSeconds * 1000 });
  if (run.error !== null) return { run, blocked: false, message: null, problem: `it cannot start (${run.error}); Hermes 0.19 then runs the call` };
  if (run.timedOut) return { run, blocked: false, message: null, problem: `it did not finish within its ${timeoutSeconds} s timeout; Hermes 0.19 then runs the call` };
  return { run, ...parseHookStdout(run.stdout), problem: null };
};
