/**
 * Runs one real Hermes conversation: `hermes chat -q "<user text>" -Q`, with a hard timeout.
 *
 * Why the command line and not a Python driver around `AIAgent(...).run_conversation()`: `hermes chat -q` is
 * what a user (and `hermes cron`/kanban workers) actually runs, so the test covers the same start-up path — config
 * loading, plugin discovery (hermes_cli/plugins.py `discover_and_load`), shell-hook registration
 * (agent/shell_hooks.py `register_from_config`, called from cli.py), `HERMES_INTERACTIVE=1` (cli.py `main`) and the
 * CLI's own message handling. A driver would have to re-create each of those by hand and could silently skip one.
 * In 0.19 `-Q` (cli.py `main`, the `quiet` branch) passes the text straight to `run_conversation` and prints only
 * the final reply on stdout and `session_id: …` on stderr, which makes the result machine-readable. Without `-Q`
 * (`quiet: false`) the text goes through `HermesCLI.chat`, which expands `@file:` references into an
 * "Attached Context" block first — the test of the user-words capture uses that path.
 *
 * The child gets a clean environment: no provider keys from the caller, `HOME` inside the test folder, and
 * `HERMES_HOME` pointing at the generated home.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeModel, RecordedRequest } from './fakeModelServer.ts';
import type { HermesHome } from './hermesHome.ts';
import type { HermesInstall } from './hermesVenv.ts';

export interface RunHermesOptions {
  readonly install: HermesInstall;
  readonly home: HermesHome;
  readonly model: FakeModel;
  readonly userText: string;
  /** The agent's working folder (the terminal tool runs there). */
  readonly cwd: string;
  /** `-Q`: machine-readable output, text passed as typed. @defaultValue true */
  readonly quiet?: boolean;
  /** `--yolo` (process-wide approval bypass in Hermes). @defaultValue false */
  readonly yolo?: boolean;
  readonly env?: Readonly<Record<string, string>>;
  /** Written to Hermes' stdin (then closed): answers for its input() prompts. @defaultValue empty */
  readonly stdin?: string;
  /** @defaultValue 120_000 */
  readonly timeoutMs?: number;
}

export interface HermesRun {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly stdout: string;
  readonly stderr: string;
  readonly sessionId: string | null;
  readonly durationMs: number;
  /** The chat-completions requests the fake model received during this run. */
  readonly requests: readonly RecordedRequest[];
  /** Hermes' own log of this run (for failure messages). */
  agentLog(): string;
  /** Everything useful for a failed assertion. */
  describe(): string;
}

const passThroughEnv = ['PATH', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'SSL_CERT_FILE', 'REQUESTS_CA_BUNDLE'];

export const runHermes = (options: RunHermesOptions): Promise<HermesRun> => new Promise((done, fail) => {
  const home = join(options.home.path, '..', 'user-home');
  mkdirSync(home, { recursive: true });
  const env: Record<string, string> = {};
  for (const name of passThroughEnv) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, {
    HOME: home,
    HERMES_HOME: options.home.path,
    NO_COLOR: '1',
    TERM: 'dumb',
    PYTHONDONTWRITEBYTECODE: '1',
    PYTHONUNBUFFERED: '1',
    ...options.env,
  });
  const args = ['chat', '-q', options.userText, ...(options.quiet === false ? [] : ['-Q']), ...(options.yolo ? ['--yolo'] : [])];
  const firstRequest = options.model.requests.length;
  const started = Date.now();
  const child = spawn(options.install.hermes, args, { cwd: options.cwd, env, stdio: 'pipe', detached: true });
  // Not a terminal either way; without answers Hermes reads end-of-file at once.
  child.stdin.end(options.stdin ?? '');
  let stdout = '';
  let stderr = '';
  let timedOut = false;
  const killGroup = (signal: NodeJS.Signals) => {
    try { if (child.pid) process.kill(-child.pid, signal); } catch { /* already gone */ }
  };
  const timer = setTimeout(() => { timedOut = true; killGroup('SIGKILL'); }, options.timeoutMs ?? 120_000);
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  child.on('error', (error) => { clearTimeout(timer); fail(error); });
  child.on('close', (exitCode, signal) => {
    clearTimeout(timer);
    // Whatever the agent started in the background goes with it.
    killGroup('SIGKILL');
    const requests = options.model.requests.slice(firstRequest);
    const logPath = join(options.home.path, 'logs', 'agent.log');
    const agentLog = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '(no agent.log)');
    // -Q prints `session_id: <id>` on stderr; the full CLI prints `Session:        <id>` in its exit summary.
    const sessionId = /session_id:\s*(\S+)/.exec(stderr)?.[1] ?? /^Session:\s+(\S+)/m.exec(stdout)?.[1] ?? null;
    done({
      exitCode, signal, timedOut, stdout, stderr, sessionId, durationMs: Date.now() - started, requests, agentLog,
      describe: () => [
        `hermes ${args.map((a) => JSON.stringify(a)).join(' ')} → exit ${exitCode}${signal ? ` (${signal})` : ''}${timedOut ? ' TIMED OUT' : ''} in ${Date.now() - started} ms`,
        `--- stdout ---\n${stdout.trim()}`,
        `--- stderr ---\n${stderr.trim().split('\n').slice(-30).join('\n')}`,
        `--- tool results the model received ---\n${JSON.stringify(options.model.toolResults(), null, 1)}`,
        `--- agent.log (tail) ---\n${agentLog().trim().split('\n').slice(-40).join('\n')}`,
      ].join('\n'),
    });
  });
});
