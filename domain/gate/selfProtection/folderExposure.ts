/**
 * Folders put where other names or other people reach them (red team 8): sandboxes that bind a host folder under
 * another path (`systemd-nspawn --bind=SRC:DST`, `proot -b SRC:DST`, `firejail --bind=SRC,DST`), where the
 * commands inside reach tollgate's data under a name the floor does not know, and file servers that publish a
 * folder (`python -m http.server -d DIR`, `busybox httpd -h DIR`, `php -S … -t DIR`, `git daemon --base-path=DIR`),
 * whose clients read the keys below it. Each program is a row: how it names its folders. Pure: words only.
 */
import { parseOptions } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { containsProtected, resolvePath, type PathHit } from './protectedPaths.ts';
import { contextOf, hitOf, wordHit, type LineScope } from './shellScope.ts';
import { readOnlyPrograms } from './shellOperands.ts';

/** A host folder a sandbox binds: writable or not, and the path it gets inside (null: the same path). */
export interface Binding {
  readonly source: string;
  readonly inside: string | null;
  readonly writable: boolean;
}

/** `SRC[:DST[:OPTS]]` (nspawn, proot) or `SRC,DST` (firejail): the source and where it lands. */
const splitBinding = (value: string, separator: string, writable: boolean): Binding => {
  const [source = '', inside] = value.split(separator);
  return { source, inside: inside === undefined || inside === '' || inside === source ? null : inside, writable };
};

/** Every `--name=VALUE` / `--name VALUE` / `-x VALUE` of a word list, for the option names given. */
const optionValues = (words: readonly string[], names: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const eq = w.indexOf('=');
    if (eq > 0 && names.includes(w.slice(0, eq))) out.push(w.slice(eq + 1));
    else if (names.includes(w) && words[i + 1] !== undefined) out.push(words[++i]!);
    // A short option with its value attached (`-b/tmp/x:/d`).
    else if (/^-[A-Za-z]./.test(w) && names.includes(w.slice(0, 2))) out.push(w.slice(2));
  }
  return out;
};

interface SandboxRow {
  readonly writable: readonly string[];
  readonly readOnly: readonly string[];
  readonly separator: string;
  /** Options naming the sandbox's root folder: the whole folder is writable from inside. */
  readonly root: readonly string[];
}

/** How each sandbox names its binds. bwrap and docker are shellOperands' (their binds are operands there). */
export const sandboxRows: ReadonlyMap<string, SandboxRow> = new Map<string, SandboxRow>([
  ['systemd-nspawn', { writable: ['--bind', '--overlay'], readOnly: ['--bind-ro', '--overlay-ro'], separator: ':', root: ['-D', '--directory'] }],
  ['proot', { writable: ['-b', '--bind', '-m', '--mount'], readOnly: [], separator: ':', root: ['-r', '--rootfs'] }],
  ['firejail', { writable: ['--bind'], readOnly: [], separator: ',', root: ['--chroot', '--overlay-named'] }],
]);

/** The sandbox's words: its own arguments, or, where the grammar unwrapped it, the `via` entry it left. */
const sandboxWords = (command: SimpleCommand): { program: string; words: readonly string[] }[] => {
  const out: { program: string; words: readonly string[] }[] = [];
  if (sandboxRows.has(command.program)) out.push({ program: command.program, words: command.args });
  for (const entry of command.via) {
    const words = entry.split(/\s+/);
    const program = (words[0] ?? '').split('/').pop() ?? '';
    if (sandboxRows.has(program)) out.push({ program, words: words.slice(1) });
  }
  return out;
};

/** Whether the folder is, holds or lies in a Hermes home or a `.claude` folder (what a runtime reads its guard from). */
const coversRuntimeHome = (folder: string, command: SimpleCommand, scope: LineScope): boolean => {
  const absolute = resolvePath(folder, contextOf(scope, command))?.absolute;
  if (absolute == null) return /\.hermes|\.claude/.test(folder);
  const homes = [...scope.index.facts.hermesHomes, ...(scope.index.facts.home === null ? [] : [`${scope.index.facts.home}/.claude`])];
  return homes.some((home) => home === absolute || home.startsWith(`${absolute.replace(/\/+$/, '')}/`) || absolute.startsWith(`${home}/`)) || /(?:^|\/)\.claude(?:\/|$)/.test(absolute);
};

/** Options that lay an empty or private folder over a path for the sandboxed program (the home, for firejail's --private). */
const coveringOptions: ReadonlyMap<string, readonly string[]> = new Map([
  ['firejail', ['--tmpfs', '--blacklist', '--private', '--overlay-tmpfs']], ['bwrap', ['--tmpfs', '--remount-ro']], ['proot', []], ['systemd-nspawn', ['--tmpfs', '--inaccessible']],
]);
const coveredFolders = (command: SimpleCommand): string[] => {
  const out: string[] = [];
  const entries = [{ program: command.program, words: command.args }, ...command.via.map((v) => { const w = v.split(/\s+/); return { program: (w[0] ?? '').split('/').pop() ?? '', words: w.slice(1) }; })];
  for (const { program, words } of entries) {
    // bwrap's `--bind SRC DST`: DST shows SRC's files inside (a bind of a path onto itself hides nothing).
    if (program === 'bwrap') words.forEach((word, i) => { if (/^--(?:ro-|dev-)?bind(?:-try)?$/.test(word) && words[i + 2] !== undefined && words[i + 2] !== words[i + 1]) out.push(words[i + 2]!); });
    const options = coveringOptions.get(program);
    if (options === undefined) continue;
    words.forEach((word, i) => {
      for (const option of options) {
        if (word === option && words[i + 1] !== undefined && !words[i + 1]!.startsWith('-')) out.push(words[i + 1]!);
        else if (word.startsWith(`${option}=`)) out.push(option === '--private' ? '~/.hermes' : word.slice(option.length + 1).split(':')[0]!);
        // `firejail --private` alone: a fresh home, so ~/.hermes (its plugins) is not the one the guard watches.
        else if (word === option && option === '--private') out.push('~/.hermes');
      }
    });
  }
  return out;
};

/** The host folders the command's sandboxes bind (roots count as writable binds under another name). */
export const sandboxBindings = (command: SimpleCommand): Binding[] =>
  sandboxWords(command).flatMap(({ program, words }) => {
    const row = sandboxRows.get(program)!;
    return [
      ...optionValues(words, row.writable).map((v) => splitBinding(v, row.separator, true)),
      ...optionValues(words, row.readOnly).map((v) => splitBinding(v, row.separator, false)),
      ...optionValues(words, row.root).map((v) => ({ source: v, inside: '/', writable: true })),
    ];
  });

// ---- file servers ----

type ServedFolders = (args: readonly string[]) => string[] | null;

const pythonServer: ServedFolders = (args) => {
  const at = args.indexOf('-m');
  const module = args[at + 1];
  if (at < 0 || (module !== 'http.server' && module !== 'SimpleHTTPServer' && module !== 'uploadserver')) return null;
  const rest = args.slice(at + 2);
  const dirs = optionValues(rest, ['-d', '--directory']);
  return dirs.length > 0 ? dirs : ['.'];
};
const firstOperandOr = (grammar: { shortWithValue?: string; longWithValue?: readonly string[] }) => (args: readonly string[]): string[] =>
  [parseOptions(args, grammar).operands[0] ?? '.'];

/** Each server: the folders it publishes (its default is the working directory), or null when the command serves none. */
export const fileServerRows: ReadonlyMap<string, ServedFolders> = new Map<string, ServedFolders>([
  ...['python', 'python2', 'python3'].map((p) => [p, pythonServer] as [string, ServedFolders]),
  // busybox httpd -h HOME (the grammar unwraps busybox).
  ['httpd', (args) => { const home = optionValues(args, ['-h']); return home.length > 0 ? home : ['.']; }],
  // php -S ADDR [-t DOCROOT].
  ['php', (args) => (args.includes('-S') || args.some((a) => a.startsWith('-S')) ? (optionValues(args, ['-t']).length > 0 ? optionValues(args, ['-t']) : ['.']) : null)],
  // ruby -run -e httpd [DIR] -p PORT (un.rb's httpd).
  ['ruby', (args) => {
    const e = args.findIndex((a, i) => a === '-ehttpd' || (a === '-e' && args[i + 1] === 'httpd'));
    if (e < 0 || !args.some((a) => a.startsWith('-run'))) return null;
    const rest = args.slice(args[e] === '-ehttpd' ? e + 1 : e + 2);
    return [parseOptions(rest, { shortWithValue: 'pb', longWithValue: ['port', 'bind-address'] }).operands[0] ?? '.'];
  }],
  ['http-server', firstOperandOr({ shortWithValue: 'pacdeC', longWithValue: ['port', 'address', 'ext', 'cert', 'key'] })],
  ['serve', firstOperandOr({ shortWithValue: 'lpc', longWithValue: ['listen', 'config', 'ssl-cert', 'ssl-key'] })],
  ['live-server', (args) => [args.find((a) => !a.startsWith('-')) ?? '.']],
  ['miniserve', firstOperandOr({ shortWithValue: 'pipaqtc', longWithValue: ['port', 'interfaces', 'auth', 'title', 'route-prefix'] })],
  ['darkhttpd', (args) => [args.find((a) => !a.startsWith('-')) ?? '.']],
  ['twistd', (args) => (args.includes('web') ? optionValues(args, ['--path']) : null)],
  ['caddy', (args) => (args[0] === 'file-server' ? (optionValues(args, ['--root', '-r']).length > 0 ? optionValues(args, ['--root', '-r']) : ['.']) : null)],
  // rclone serve http|webdav|ftp|sftp|dlna|s3 REMOTE:PATH (a local path serves this machine's folder).
  ['rclone', (args) => (args[0] === 'serve' && args[2] !== undefined ? [args[2]] : null)],
  // git daemon --base-path=DIR [DIR…]: every repository below is fetched (and pushed with receive-pack).
  ['git', (args) => (args[0] === 'daemon' ? [...optionValues(args.slice(1), ['--base-path']), ...args.slice(1).filter((a) => !a.startsWith('-'))] : null)],
]);

const runnerPrograms = new Set(['npx', 'bunx', 'pnpx']);

/** The folders the command publishes over the network (`npx http-server DIR` read through its runner), or []. */
export const servedFolders = (command: SimpleCommand): string[] => {
  let { program, args } = command;
  if (runnerPrograms.has(program) || ((program === 'pnpm' || program === 'yarn') && args[0] === 'dlx')) {
    const rest = program === 'pnpm' || program === 'yarn' ? args.slice(1) : args;
    const at = rest.findIndex((a) => !a.startsWith('-'));
    if (at < 0) return [];
    program = rest[at]!.replace(/@[^/]*$/, '');
    args = rest.slice(at + 1);
  }
  const row = fileServerRows.get(program);
  return row === undefined ? [] : row(args) ?? [];
};

// ---- the row ----

export interface ExposureFinding {
  readonly id: 'write-protected-path' | 'read-secret';
  readonly what: string;
}

/**
 * What a folder word holds of the guard's: the protected path it is in or names, or one below it (secrets only
 * when only reading counts). The root folder holds everything.
 */
const folderHolds = (word: string, command: SimpleCommand, scope: LineScope, secretsOnly: boolean, anywhere = false): PathHit | null => {
  const known = contextOf(scope, command);
  // A folder published by name where the terminal's folder is unknown (`-d data`): it may be the guard's, wherever it is.
  const context = anywhere && known.cwd === null && !/^[/~$]/.test(word) && !/^\.\/?$/.test(word) ? { ...known, lost: true } : known;
  const hit = hitOf(word, context, scope.index);
  if (hit !== null && (!secretsOnly || hit.kind === 'secret')) return hit;
  // Named by its tail only, the data folder is judged as holding its keys.
  if (hit !== null && context !== known && hit.kind === 'data') return hit;
  const absolute = resolvePath(word, context)?.absolute ?? null;
  if (absolute === null) return null;
  if (/^\/+$/.test(absolute)) return { kind: secretsOnly ? 'secret' : 'data', what: '/ (every protected path)' };
  return containsProtected(absolute, scope.index, secretsOnly);
};

/** A protected folder bound elsewhere in a sandbox, or published by a file server. */
export const exposureFindings = (command: SimpleCommand, scope: LineScope): ExposureFinding[] => {
  if (command.via.length === 0 && !sandboxRows.has(command.program) && !coveringOptions.has(command.program) && !fileServerRows.has(command.program) && !runnerPrograms.has(command.program)
    && command.program !== 'pnpm' && command.program !== 'yarn') return [];
  const out: ExposureFinding[] = [];
  for (const bind of sandboxBindings(command)) {
    // Bound at the same path, the commands inside name it as the floor does (and are judged as such).
    if (bind.inside === null) continue;
    // Bound over a protected path (`proot -b /tmp/x:/root/.hermes hermes`): what runs inside reads another config, plugins or code.
    const covered = bind.inside === '/' ? null : folderHolds(bind.inside, command, scope, false) ?? wordHit(scope, command, bind.inside);
    if (covered !== null) { out.push({ id: 'write-protected-path', what: `${covered.what}, hidden under ${bind.source} in a sandbox` }); continue; }
    const hit = folderHolds(bind.source, command, scope, !bind.writable);
    if (hit !== null) out.push(bind.writable ? { id: 'write-protected-path', what: `${hit.what}, bound at ${bind.inside} in a sandbox` } : { id: 'read-secret', what: `${hit.what}, bound at ${bind.inside} in a sandbox` });
  }
  // `firejail --tmpfs=~/.hermes hermes`, `bwrap --tmpfs ~/.hermes …`: the folder is emptied for what runs inside.
  // Only what a runtime started inside reads matters: a Hermes home, Claude Code's settings (hiding /tmp from a test hides nothing the guard needs).
  for (const folder of readOnlyPrograms.has(command.program) ? [] : coveredFolders(command)) {
    const covered = folderHolds(folder, command, scope, false) ?? wordHit(scope, command, folder);
    if (covered !== null && coversRuntimeHome(folder, command, scope)) out.push({ id: 'write-protected-path', what: `${covered.what}, hidden by an empty folder in a sandbox` });
  }
  for (const folder of servedFolders(command)) {
    const hit = folderHolds(folder, command, scope, true, true);
    if (hit !== null) out.push({ id: 'read-secret', what: `${hit.what}, published by ${command.program}` });
  }
  return out;
};

export const folderExposureExamples = {
  stops: [
    'systemd-nspawn --bind=/home/agent/project/data:/d -D /srv/c sh', 'systemd-nspawn --bind /home/agent/project:/p -D /srv/c', 'systemd-nspawn -D /home/agent/project/data',
    'systemd-nspawn --bind-ro=/home/agent/project/data/keys:/k -D /srv/c', 'proot -b /home/agent/project/data:/d sh', 'proot --bind=/home/agent/project/data:/mnt sh',
    'proot -r /home/agent/project sh', 'firejail --bind=/home/agent/project/data,/d sh', 'cd /home/agent/project && proot -b data:/d sh', 'proot -b /:/host sh',
    'python3 -m http.server -d /home/agent/project/data 8000', 'python -m http.server --directory=/home/agent/project/data/keys', 'python3 -m http.server 8000 --directory /home/agent/project',
    'cd /home/agent/project/data && python3 -m http.server', 'python3 -m http.server -d / 8000', 'busybox httpd -h /home/agent/project/data -p 8080', 'php -S 0.0.0.0:8000 -t /home/agent/project/data',
    'ruby -run -e httpd /home/agent/project/data -p 8000', 'npx http-server /home/agent/project/data -p 8000', 'npx serve /home/agent/project/data', 'twistd -n web --path /home/agent/project/data',
    'git daemon --base-path=/home/agent/project --export-all', 'cd /home/agent/project && git daemon --export-all --base-path=.',
    // Where the terminal's folder is unknown, a folder published by name may be the data folder.
    'python -m http.server -d data', 'busybox httpd -h data', 'caddy file-server --root data', 'npx serve -l 5000 data', 'rclone serve webdav /home/agent/project/data',
    // Red team 12: a folder bound over a protected one, for the program run inside.
    'proot -b /tmp/x:/home/agent/.hermes hermes', 'firejail --bind=/tmp/x,/home/agent/.hermes hermes', 'proot -b /tmp/t:/opt/tollgate/bin sh',
    'firejail --tmpfs=/home/agent/.hermes hermes', 'firejail --private hermes', 'firejail --private=/tmp/h hermes', 'bwrap --bind /tmp/x /home/agent/.hermes hermes',
  ],
  allows: [
    'systemd-nspawn --bind=/srv/data:/data -D /srv/c', 'proot -b /tmp/x:/x sh', 'firejail --bind=/tmp/a,/tmp/b sh', 'proot -b /home/agent/project/data sh',
    'python3 -m http.server -d /home/agent/project/docs 8000', 'python3 -m http.server 8000', 'busybox httpd -h /srv/www -p 8080', 'php -S localhost:8000 -t public', 'php -r "echo 1;"',
    'npx http-server dist', 'npx serve build', 'python3 -m http.server -d docs', 'rclone serve http /srv/www', 'systemd-nspawn --bind=data:/d -D /srv/c', 'git daemon --base-path=/srv/git --export-all', 'ruby -e "puts 1"', 'python3 -m pytest', 'git status',
  ],
};
