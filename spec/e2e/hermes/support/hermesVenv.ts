/**
 * The pinned Hermes Agent in a virtualenv the test run creates once: `<repo>/.cache/hermes-venv-<version>`.
 *
 * `python3 -m venv`, then `pip install hermes-agent==<version>`; pip's own cache makes a re-install on the same
 * machine fast. An existing venv is reused when `bin/hermes` exists and `pip show hermes-agent` reports the pinned
 * version. A lock file beside the venv keeps two test processes from installing at once (the second waits and
 * reuses). When Python or the registry is unavailable the suite fails with the reason under `CI=true` and is
 * skipped, with the reason printed, everywhere else.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERMES_VERSION = '0.19.0';
export const repoRoot = resolve(fileURLToPath(new URL('../../../../', import.meta.url)));
/** `TOLLGATE_E2E_VENV` moves the venv (for a CI cache folder, or to try a fresh install). */
export const venvDir = process.env.TOLLGATE_E2E_VENV ? resolve(process.env.TOLLGATE_E2E_VENV) : join(repoRoot, '.cache', `hermes-venv-${HERMES_VERSION}`);

export interface HermesInstall {
  /** The venv's Python (runs Hermes' own functions in tests). */
  readonly python: string;
  /** The venv's `hermes` console script. */
  readonly hermes: string;
  /** The installed package folder (for reading Hermes' source in failure messages). */
  readonly venv: string;
}

export type HermesAvailability = { readonly ok: true; readonly install: HermesInstall } | { readonly ok: false; readonly reason: string };

interface Run { readonly code: number | null; readonly out: string }

const run = (command: string, args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<Run> =>
  new Promise((done) => {
    let out = '';
    let child;
    try {
      child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      done({ code: null, out: String(error) });
      return;
    }
    const timer = setTimeout(() => { out += `\n(killed after ${timeoutMs} ms)`; child.kill('SIGKILL'); }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { out += chunk.toString(); });
    child.on('error', (error) => { clearTimeout(timer); done({ code: null, out: `${out}${String(error)}` }); });
    child.on('close', (code) => { clearTimeout(timer); done({ code, out }); });
  });

const tail = (text: string, lines = 25) => text.trim().split('\n').slice(-lines).join('\n');

/** Hermes 0.19 declares `requires-python >=3.11,<3.14`. `TOLLGATE_E2E_PYTHON` names the interpreter to use (only that one). */
const findPython = async (): Promise<string | { reason: string }> => {
  const chosen = process.env.TOLLGATE_E2E_PYTHON;
  const candidates = chosen ? [chosen] : ['python3.11', 'python3.12', 'python3.13', 'python3'];
  const seen: string[] = [];
  for (const candidate of candidates) {
    const probe = await run(candidate, ['-c', 'import sys, venv, ensurepip; print("%d.%d" % sys.version_info[:2])'], 20_000);
    const version = probe.out.trim().split('\n').pop() ?? '';
    seen.push(`${candidate}: ${probe.code === 0 ? version : 'unavailable'}`);
    const match = /^3\.(\d+)$/.exec(version);
    if (probe.code === 0 && match && Number(match[1]) >= 11 && Number(match[1]) <= 13) return candidate;
  }
  return { reason: `no Python 3.11–3.13 with venv and ensurepip found (${seen.join('; ')}); set TOLLGATE_E2E_PYTHON to one` };
};

const venvPython = join(venvDir, 'bin', 'python');
const venvHermes = join(venvDir, 'bin', 'hermes');

const installedVersion = async (): Promise<string | null> => {
  if (!existsSync(venvHermes) || !existsSync(venvPython)) return null;
  const show = await run(venvPython, ['-m', 'pip', 'show', 'hermes-agent'], 60_000);
  return show.code === 0 ? (/^Version:\s*(\S+)/m.exec(show.out)?.[1] ?? null) : null;
};

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const pidAlive = (pid: number): boolean => {
  try { process.kill(pid, 0); return true; } catch (error) { return (error as NodeJS.ErrnoException).code === 'EPERM'; }
};

/** An exclusive lock file holding our pid; a lock left by a dead process (or older than `staleMs`) is taken over. */
const withLock = async <T>(path: string, waitMs: number, work: () => Promise<T>): Promise<T> => {
  const staleMs = 20 * 60_000;
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = NaN;
      let age = 0;
      try { holder = Number(readFileSync(path, 'utf8')); age = Date.now() - statSync(path).mtimeMs; } catch { continue; }
      if ((Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) || age > staleMs) { rmSync(path, { force: true }); continue; }
      if (Date.now() > deadline) throw new Error(`waited ${waitMs} ms for ${path} (held by pid ${holder})`);
      await sleep(500);
    }
  }
  try { return await work(); } finally { rmSync(path, { force: true }); }
};

const install = async (): Promise<HermesAvailability> => {
  if (await installedVersion() === HERMES_VERSION) return { ok: true, install: { python: venvPython, hermes: venvHermes, venv: venvDir } };
  const python = await findPython();
  if (typeof python !== 'string') return { ok: false, reason: python.reason };
  mkdirSync(dirname(venvDir), { recursive: true });
  return withLock(`${venvDir}.lock`, 15 * 60_000, async () => {
    // Another process may have finished the install while we waited for the lock.
    if (await installedVersion() === HERMES_VERSION) return { ok: true, install: { python: venvPython, hermes: venvHermes, venv: venvDir } };
    rmSync(venvDir, { recursive: true, force: true });
    const venv = await run(python, ['-m', 'venv', venvDir], 120_000);
    if (venv.code !== 0) return { ok: false, reason: `${python} -m venv ${venvDir} failed:\n${tail(venv.out)}` };
    const pip = await run(venvPython, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', `hermes-agent==${HERMES_VERSION}`], 15 * 60_000,
      { ...process.env, PIP_NO_INPUT: '1' });
    if (pip.code !== 0) {
      rmSync(venvDir, { recursive: true, force: true });
      return { ok: false, reason: `pip install hermes-agent==${HERMES_VERSION} failed (is the package registry reachable?):\n${tail(pip.out)}` };
    }
    const version = await installedVersion();
    if (version !== HERMES_VERSION) return { ok: false, reason: `after pip install, pip show hermes-agent reports ${version ?? 'nothing'}, expected ${HERMES_VERSION}` };
    return { ok: true, install: { python: venvPython, hermes: venvHermes, venv: venvDir } };
  });
};

let pending: Promise<HermesAvailability> | undefined;

/** The pinned Hermes, installed on first call in this process (later calls share the answer). */
export const ensureHermes = (): Promise<HermesAvailability> => {
  pending ??= install().catch((error: unknown) => ({ ok: false as const, reason: `installing Hermes failed: ${(error as Error).stack ?? String(error)}` }));
  return pending;
};

/**
 * Mocha: call inside `describe`. Installs (or reuses) Hermes in a `before` hook; without it the suite fails under
 * `CI=true` and is skipped elsewhere, printing why either way. Read `.current` in tests.
 */
export const useHermes = (): { readonly current: HermesInstall } => {
  let current: HermesInstall | undefined;
  before(async function () {
    this.timeout(20 * 60_000);
    const availability = await ensureHermes();
    if (availability.ok) { current = availability.install; return; }
    const message = `Hermes ${HERMES_VERSION} end-to-end tests need a real Hermes: ${availability.reason}`;
    if (['true', '1'].includes((process.env.CI ?? '').toLowerCase())) throw new Error(message);
    console.warn(`\n  SKIPPED: ${message}\n  (under CI=true this fails the run)\n`);
    this.skip();
  });
  return {
    get current() {
      if (!current) throw new Error('useHermes: Hermes is not available here');
      return current;
    },
  };
};
