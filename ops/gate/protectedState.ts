/**
 * The facts the self-protection floor needs, computed once when the gate opens (they need the file system, the
 * environment and the process) and recorded in every ProposeToolCall: tollgate's config file, data folder, keys
 * and token, sockets and their folders, the code that runs it (a clone's bin/ and adapters/, or the installed
 * package; in a clone everything the daemon loads: bin/, adapters/, domain/, ops/, projections/, node_modules/ and
 * the package and TypeScript settings), every Hermes home (with its profiles), the configured extra paths and rules files, the agent's home,
 * the default paths of a system install (ops/install/systemLayout.ts), the daemon's pid and its HTTP port.
 */
import { existsSync, readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir, tmpdir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ProtectedKind, ProtectionFacts } from '../../domain/gate/selfProtection/protectionFacts.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { systemLayout } from '../install/systemLayout.ts';

export interface ProtectedStateOptions {
  /** The configuration file that was loaded; by default the one the command line or environment names. */
  readonly configFile?: string | null;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly pid?: number;
  /** Where tollgate's own code lives; by default this module's package root. */
  readonly codeRoot?: string;
}

/** Folders too shared to protect whole because a socket or file of tollgate's sits in them. */
const sharedFolders = new Set(['/', '/tmp', '/var/tmp', '/run', '/var/run', '/dev/shm', '/home', '/root', '/usr', '/etc', '/var', '/opt', '/srv']);

/**
 * What a clone's daemon loads when it starts (tsx runs the TypeScript as is): replacing any of it replaces the
 * guard. Docs, specs and the README are not loaded and stay writable.
 */
export const clonedCode: readonly string[] = [
  'bin', 'adapters', 'domain', 'ops', 'projections', 'node_modules', 'package.json', 'package-lock.json', 'tsconfig.json',
];

/** The files the daemon keeps in `<data.dir>/keys/` (ops/runtime/openRuntime.ts). */
export const keyFileNames: readonly string[] = ['runtime-registrations.json', 'checkpoint-hmac.key', 'payload-hmac.key', 'checkpoint.ed25519'];

export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));

export const protectedState = (config: TollgateConfig, options: ProtectedStateOptions = {}): ProtectionFacts => {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const home = env['HOME'] || homedir() || null;
  const abs = (path: string): string => normalizePath(isAbsolute(path) ? path : resolve(cwd, expandHome(path, home)));
  const paths = new Map<string, ProtectedKind>();
  const add = (path: string, kind: ProtectedKind) => {
    const normal = abs(path);
    if (!paths.has(normal) || kind === 'secret' || kind === 'socket') paths.set(normal, kind);
  };

  for (const file of configFiles(options.configFile, env, cwd)) add(file, 'config');
  const dataDir = abs(config.data.dir);
  if (!sharedFolders.has(dataDir) && dataDir !== home) add(dataDir, 'data');
  for (const secret of ['keys', 'http-token']) add(join(dataDir, secret), 'secret');
  // The key files by name too: their names are tollgate's own, so `cat runtime-registrations.json` is judged a read of
  // the keys even when the terminal's directory is not known (a `cd` the gate could not follow).
  for (const key of keyFileNames) add(join(dataDir, 'keys', key), 'secret');
  add(config.server.http.token_file, 'secret');
  const ledgerFile = /^sqlite:(.+)$/.exec(config.ledger.url)?.[1];
  if (ledgerFile !== undefined) add(ledgerFile, 'data');
  for (const socket of socketsOf(config)) {
    add(socket, 'socket');
    const folder = dirname(abs(socket));
    if (!sharedFolders.has(folder) && folder !== home && !paths.has(folder)) add(folder, 'socket-dir');
  }
  const codeRoot = abs(options.codeRoot ?? packageRoot);
  if (existsSync(join(codeRoot, '.git'))) {
    for (const part of clonedCode) add(join(codeRoot, part), 'code');
  } else if (!sharedFolders.has(codeRoot)) add(codeRoot, 'code');
  // The test Hermes a clone's test run installs (.cache/hermes-venv-*): code a Hermes on this machine may run.
  if (existsSync(join(codeRoot, '.git'))) add(join(codeRoot, '.cache'), 'code');
  for (const path of runningCode(env, existsSync(join(codeRoot, '.git')) ? cachedVenvs(join(codeRoot, '.cache')) : [])) add(path, 'code');
  for (const extra of config.protection.paths) add(extra, 'extra');
  // Where `tollgate install system` puts a separate-principal install: the OS guards them there, yet a daemon of any
  // deployment on this machine refuses them too (an agent of a single-user gate may still reach a system install).
  for (const { path, kind } of systemInstallPaths()) add(path, kind);

  const hermesHome = env['HERMES_HOME'] ? abs(env['HERMES_HOME']) : null;
  const homes = new Set<string>();
  for (const candidate of [hermesHome, home === null ? null : join(home, '.hermes'), ...config.protection.hermes_homes.map(abs)]) {
    if (candidate === null) continue;
    const normal = normalizePath(candidate);
    homes.add(normal);
    for (const profile of profilesOf(normal)) homes.add(profile);
  }
  return {
    home, hermesHome, hermesHomes: [...homes],
    paths: [...paths].map(([path, kind]) => ({ path, kind })),
    rulesFiles: [...config.protection.rules_files],
    pid: options.pid ?? process.pid,
    httpPort: config.server.http.enabled ? config.server.http.port : null,
    ...daemonUser(), codeRoot,
  };
};

/** The default layout of a system install (ops/install/systemLayout.ts), each path with what it is. */
const systemInstallPaths = (): { path: string; kind: ProtectedKind }[] => {
  const layout = systemLayout();
  // The state folder's secrets count only where one exists: a walk from a folder the gate does not know is matched
  // at every folder above each secret (secretWalks.ts), and a secret that is not there would only add refusals.
  const state = existsSync(layout.stateDir)
    ? [{ path: layout.stateDir, kind: 'data' as const }, ...['keys', 'http-token'].map((name) => ({ path: join(layout.stateDir, name), kind: 'secret' as const }))]
    : [];
  return [
    { path: layout.etcDir, kind: 'config' },
    ...state,
    { path: layout.runDir, kind: 'socket-dir' },
    { path: layout.socket, kind: 'socket' },
    { path: layout.humanSocket, kind: 'socket' },
    ...[layout.codeDir, layout.binLink, layout.unitFile, layout.tmpfilesFile].map((path) => ({ path, kind: 'code' as const })),
  ];
};

/**
 * Code outside the clone that the daemon or Hermes runs: the Node binary running this daemon and the first on PATH,
 * Node's per-user module folders, tsx's compile cache
 * (a clone's daemon loads the TypeScript it transpiled there at its next start), and every Hermes install on PATH
 * that lives in a virtualenv (any package Hermes imports runs inside it, its plugins included).
 */
const runningCode = (env: NodeJS.ProcessEnv, moreVenvs: readonly string[] = []): string[] => {
  const out: string[] = [];
  const real = (path: string): string | null => { try { return realpathSync.native(path); } catch { return null; } };
  for (const node of [process.execPath, real(process.execPath)]) if (node !== null && !sharedFolders.has(node)) out.push(node);
  const uid = typeof process.geteuid === 'function' ? process.geteuid() : null;
  out.push(join(tmpdir(), `tsx-${uid ?? userInfo().username}`));
  // Node's per-user module folders, searched by require() after the clone's own node_modules.
  const home = env['HOME'] || homedir();
  if (home) out.push(join(home, '.node_modules'), join(home, '.node_libraries'));
  let nodeSeen = false;
  for (const dir of (env['PATH'] ?? '').split(':')) {
    if (!dir.startsWith('/')) continue;
    // The first `node` on PATH runs the hook client (`tollgate hook`) and whatever starts tollgate by name.
    const node = nodeSeen ? null : join(dir, 'node');
    if (node !== null && existsSync(node)) { nodeSeen = true; out.push(node); const target = real(node); if (target !== null) out.push(target); }
    const hermes = real(join(dir, 'hermes'));
    const root = hermes === null ? null : dirname(dirname(hermes));
    if (root !== null && !sharedFolders.has(root) && existsSync(join(root, 'pyvenv.cfg'))) out.push(root);
  }
  // A virtualenv runs on its base interpreter: that Python's standard library (hmac, json, site) runs inside Hermes too.
  for (const venv of [...out.filter((p) => existsSync(join(p, 'pyvenv.cfg'))), ...moreVenvs]) {
    const base = venvBase(venv);
    if (base !== null && !sharedFolders.has(base) && !/^\/usr(?:\/|$)/.test(base)) {
      out.push(base);
      // pyenv's shims and its global version file pick the interpreter `python3` and `hermes` run as.
      const pyenv = /\/versions\/[^/]+$/.test(base) ? dirname(dirname(base)) : null;
      if (pyenv !== null && existsSync(join(pyenv, 'shims'))) out.push(join(pyenv, 'shims'), join(pyenv, 'version'));
    }
  }
  return out;
};

/** The prefix of the interpreter a virtualenv runs on (`home = /x/versions/3.11.7/bin` → /x/versions/3.11.7). */
const venvBase = (venv: string): string | null => {
  try {
    const home = /^home\s*=\s*(.+?)\s*$/m.exec(readFileSync(join(venv, 'pyvenv.cfg'), 'utf8'))?.[1];
    return home === undefined || !home.startsWith('/') ? null : dirname(normalizePath(home));
  } catch {
    return null;
  }
};

/** The virtualenvs in a folder (`.cache/hermes-venv-0.19.0`). */
const cachedVenvs = (folder: string): string[] => {
  try {
    return readdirSync(folder).map((name) => join(folder, name)).filter((path) => existsSync(join(path, 'pyvenv.cfg')));
  } catch {
    return [];
  }
};

/** Who the daemon runs as: a signal to every process of that user reaches it. */
const daemonUser = (): { uid: number | null; user: string | null } => {
  try {
    const info = userInfo();
    return { uid: info.uid >= 0 ? info.uid : null, user: info.username || null };
  } catch {
    return { uid: typeof process.getuid === 'function' ? process.getuid() : null, user: null };
  }
};

const expandHome = (path: string, home: string | null): string =>
  home !== null && (path === '~' || path.startsWith('~/')) ? home + path.slice(1) : path;

/** The loaded file when known; otherwise every file the next start could load: --config, $TOLLGATE_CONFIG, ./tollgate.yaml. */
const configFiles = (loaded: string | null | undefined, env: NodeJS.ProcessEnv, cwd: string): string[] => {
  const files = [join(cwd, 'tollgate.yaml'), join(cwd, 'tollgate.yml')];
  if (env['TOLLGATE_CONFIG']) files.push(env['TOLLGATE_CONFIG']);
  if (loaded) files.push(loaded);
  const flag = configFlag(process.argv);
  if (flag !== null) files.push(flag);
  return files;
};

const configFlag = (argv: readonly string[]): string | null => {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if ((arg === '-c' || arg === '--config') && argv[i + 1] !== undefined) return argv[i + 1]!;
    if (arg.startsWith('--config=')) return arg.slice('--config='.length);
  }
  return null;
};

/** The runtime socket and the human channel's, whichever the configuration has. */
const socketsOf = (config: TollgateConfig): string[] => {
  const server = config.server as TollgateConfig['server'] & { human_socket?: string | null };
  return [server.socket, ...(typeof server.human_socket === 'string' ? [server.human_socket] : [])];
};

const profilesOf = (hermesHome: string): string[] => {
  const folder = join(hermesHome, 'profiles');
  try {
    return readdirSync(folder).map((name) => join(folder, name)).filter((path) => statSync(path).isDirectory());
  } catch {
    return [];
  }
};
