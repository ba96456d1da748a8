/**
 * Pythons for the plugin's specs, and a driver that runs the real plugin in a Python process
 * (adapters/hermes/plugin/tests/driver.py: one JSON command per line).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const pluginRoot = join(repoRoot, 'adapters/hermes/plugin');

/** The Python the e2e harness installs the pinned Hermes into (spec/e2e/hermes; `TOLLGATE_E2E_VENV` moves it). */
export const e2eHermesPython = join(process.env['TOLLGATE_E2E_VENV'] ? resolve(process.env['TOLLGATE_E2E_VENV']) : join(repoRoot, '.cache/hermes-venv-0.19.0'), 'bin/python');

/** A plain Python 3 for the standard-library plugin. */
export const plainPython = (): string => process.env['TOLLGATE_PYTHON'] ?? 'python3';

let probed: { readonly python: string | null; readonly why: string } | undefined;

/**
 * A Python that imports hermes_cli: `TOLLGATE_HERMES_PYTHON`, else the e2e harness's venv when it exists;
 * null (with the reason) when there is none.
 */
export const hermesPython = (): { readonly python: string | null; readonly why: string } => {
  if (probed) return probed;
  const named = process.env['TOLLGATE_HERMES_PYTHON'];
  const candidate = named !== undefined && named !== '' ? named : existsSync(e2eHermesPython) ? e2eHermesPython : null;
  if (candidate === null) {
    probed = { python: null, why: 'no Hermes Python: set TOLLGATE_HERMES_PYTHON to a venv python with hermes-agent 0.19.0 (or let the e2e suite create .cache/hermes-venv-0.19.0)' };
    return probed;
  }
  const probe = spawnSync(candidate, ['-c', 'import hermes_cli'], { encoding: 'utf8', timeout: 60_000 });
  probed = probe.status === 0
    ? { python: candidate, why: '' }
    : { python: null, why: `${candidate} cannot import hermes_cli: ${(probe.stderr || probe.error?.message || '').trim().split('\n').pop() ?? ''}` };
  return probed;
};

export interface UnittestRun {
  readonly status: number | null;
  readonly output: string;
  readonly ran: number;
  readonly skipped: number;
  readonly failed: boolean;
}

/** `python -m unittest discover` over the plugin's tests, from the repository root (as CI runs it). */
export const runPluginUnittests = (python: string): UnittestRun => {
  const run = spawnSync(python, ['-m', 'unittest', 'discover', '-s', 'adapters/hermes/plugin/tests', '-t', 'adapters/hermes/plugin'],
    { cwd: repoRoot, encoding: 'utf8', timeout: 300_000, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}`;
  const ran = Number(/Ran (\d+) tests?/.exec(output)?.[1] ?? 0);
  const skipped = Number(/skipped=(\d+)/.exec(output)?.[1] ?? 0);
  return { status: run.status, output, ran, skipped, failed: /FAILED/.test(output) };
};

export class PluginDriver {
  private readonly lines: Interface;
  private readonly queue: ((line: string) => void)[] = [];
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    this.lines = createInterface({ input: child.stdout });
    this.lines.on('line', (line) => this.queue.shift()?.(line));
    child.stderr.on('data', (chunk: Buffer) => { this.stderr += chunk.toString('utf8'); });
  }

  static start(env: Record<string, string>, python = plainPython()): PluginDriver {
    const child = spawn(python, [join(pluginRoot, 'tests/driver.py')], {
      cwd: repoRoot, env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new PluginDriver(child);
  }

  /** What the hook returned to Hermes (null for None). */
  async hook(name: string, kwargs: Record<string, unknown>): Promise<unknown> {
    const answer = await this.send({ hook: name, kwargs });
    return answer['result'];
  }

  async bench(count: number, kwargs: Record<string, unknown>): Promise<number[]> {
    const answer = await this.send({ bench: count, kwargs });
    if (!Array.isArray(answer['ms'])) throw new Error(`bench failed: ${JSON.stringify(answer)}`);
    return answer['ms'] as number[];
  }

  /** What the recording stand-in for Hermes' prompt was shown (started with TOLLGATE_DRIVER_PROMPT). */
  async prompts(): Promise<[display: string, description: string][]> {
    return (await this.send({ prompts: true }))['prompts'] as [string, string][];
  }

  async status(): Promise<Record<string, unknown>> {
    return (await this.send({ status: true }))['status'] as Record<string, unknown>;
  }

  async stop(): Promise<void> {
    this.child.stdin.end();
    if (this.child.exitCode === null) await new Promise((done) => this.child.once('exit', done));
  }

  private send(command: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolveAnswer, reject) => {
      const timer = setTimeout(() => reject(new Error(`the plugin driver did not answer ${JSON.stringify(command).slice(0, 200)}; stderr: ${this.stderr.slice(-2000)}`)), 30_000);
      this.queue.push((line) => {
        clearTimeout(timer);
        const answer = JSON.parse(line) as Record<string, unknown>;
        if (typeof answer['error'] === 'string') reject(new Error(`driver: ${answer['error']}`));
        else resolveAnswer(answer);
      });
      this.child.stdin.write(`${JSON.stringify(command)}\n`);
    });
  }
}

/** The p-th percentile (0..100) of a sample, nearest rank. */
export const percentile = (sample: readonly number[], p: number): number => {
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
};
