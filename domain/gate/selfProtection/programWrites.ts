/**
 * Programs whose writes are not simply the words they are given (red team 5): a file named by an option
 * (`strace -o F`), by the operand minus its suffix (`gunzip x.gz` writes x), by a URL (`wget -N URL`), by an
 * archive or header the floor cannot read (`uudecode`, `pax -r`, `tar -P`), or a whole package folder (`npm
 * install`). And programs that only read what they are given unless a flag says otherwise (`tsc --noEmit`,
 * `eslint` without --fix, a script run by node). Each shape is a row of a table; shellOperands asks here first.
 */
import { parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import { interpreterCall, interpreterFamily } from '../../shell/interpreters.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { Operands } from './shellOperands.ts';
import { wordsIn } from './shellOperands.ts';
import { isLoopbackHost } from './loopbackHosts.ts';
import { busTools } from './daemonReach.ts';
import { folderRewrites } from './folderRewriters.ts';

type Shape = (command: SimpleCommand, words: readonly string[]) => Operands | null;

/** Reads its words and writes nothing: like the read-only list, only a secret read matters (and `xargs` feeding it writes nothing). */
const reading = (words: readonly string[]): Operands => ({ writes: [], reads: words, trees: [], code: [], readOnly: true });
const writing = (words: readonly string[]): Operands => ({ writes: words, reads: words, trees: [], code: [], readOnly: false });
const wordsOf = (args: readonly string[]): string[] => args.flatMap(wordsIn);

/**
 * Compressors: without -c (stdout), -t or -l they replace each operand with a file of the other name (`gunzip
 * -f tollgate.yaml.gz` writes tollgate.yaml; -S sets the suffix). Decompressing names strip the last extension.
 */
interface CompressorShape { readonly grammar: OptionGrammar; readonly output?: string }
const compressors: ReadonlyMap<string, CompressorShape> = new Map<string, CompressorShape>([
  ...['gzip', 'gunzip', 'pigz', 'unpigz'].map((p) => [p, { grammar: { shortWithValue: 'Sbp', longWithValue: ['suffix', 'blocksize', 'processes'] } }] as [string, CompressorShape]),
  ...['bzip2', 'bunzip2', 'pbzip2', 'lbzip2'].map((p) => [p, { grammar: { shortWithValue: 'p' } }] as [string, CompressorShape]),
  ...['xz', 'unxz', 'lzma', 'unlzma'].map((p) => [p, { grammar: { shortWithValue: 'SCFTM', longWithValue: ['suffix', 'check', 'format', 'threads', 'memlimit'] } }] as [string, CompressorShape]),
  ...['zstd', 'unzstd', 'zstdmt', 'lz4', 'unlz4', 'lzip', 'brotli'].map((p) => [p, { grammar: { shortWithValue: 'oDTSqB', longWithValue: ['output', 'suffix', 'dictionary', 'threads'] }, output: 'o' }] as [string, CompressorShape]),
]);
const compressorShape: Shape = (command, words) => {
  const shape = compressors.get(command.program);
  if (shape === undefined) return null;
  const options = parseOptions(command.args, shape.grammar);
  const has = (short: string, long: string) => options.short.has(short) || options.long.has(long);
  if (has('c', 'stdout') || has('t', 'test') || has('l', 'list') || options.long.has('to-stdout')) return reading(words);
  const output = shape.output === undefined ? undefined : options.short.get(shape.output) ?? options.long.get('output');
  const suffix = options.short.get('S') ?? options.long.get('suffix');
  const renamed = options.operands.flatMap((o) => {
    const out = [o.replace(/\.[^./]+$/, '')];
    if (typeof suffix === 'string' && suffix !== '' && o.endsWith(suffix)) out.push(o.slice(0, -suffix.length));
    return out;
  });
  return writing([...words, ...renamed, ...(typeof output === 'string' ? [output] : [])]);
};

/** Wrappers that write a log or trace where an option says; the command they run is reported on its own. */
const traceOutputs: ReadonlyMap<string, { readonly grammar: OptionGrammar; readonly short: string; readonly long: readonly string[] }> = new Map([
  ['strace', { grammar: { shortWithValue: 'abeEIoOpPsSUXu', longWithValue: ['output'] }, short: 'o', long: ['output'] }],
  ['ltrace', { grammar: { shortWithValue: 'aAeDFlnosuxp', longWithValue: ['output'] }, short: 'o', long: ['output'] }],
  ['time', { grammar: { shortWithValue: 'fo', longWithValue: ['format', 'output'] }, short: 'o', long: ['output'] }],
]);
const traceShape: Shape = (command) => {
  const shape = traceOutputs.get(command.program);
  if (shape === undefined) return null;
  // Only the wrapper's own options: they end at the command it runs.
  const own: string[] = [];
  for (let i = 0; i < command.args.length; i++) {
    const arg = command.args[i]!;
    if (!arg.startsWith('-') || arg === '--') break;
    own.push(arg);
    const letter = arg.length === 2 ? arg[1]! : '';
    if ((shape.grammar.shortWithValue ?? '').includes(letter) || (shape.grammar.longWithValue ?? []).includes(arg.slice(2))) own.push(command.args[++i] ?? '');
  }
  const options = parseOptions(own, shape.grammar);
  const outputs = [options.short.get(shape.short), ...shape.long.map((l) => options.long.get(l))].filter((v): v is string => typeof v === 'string');
  return { writes: outputs, reads: [], trees: [], code: [], readOnly: outputs.length === 0 };
};

/**
 * The same wrappers peeled off a command (`strace -f -o F rm x` reaches rm via 'strace -f -o F'): the label
 * keeps their options, so the file they write is read from it.
 */
export const wrapperWrites = (via: readonly string[]): string[] => {
  const out: string[] = [];
  for (const label of via) {
    const name = label.slice(0, label.indexOf(' '));
    if (!traceOutputs.has(name)) continue;
    const words = label.slice(name.length + 1).replace(/\.\.\.$/, '').split(' ');
    const shape = traceShape({ program: name, programPath: name, args: words, redirects: [], pipedFrom: [], via: [], text: label }, []);
    if (shape !== null) out.push(...shape.writes);
  }
  return out;
};

/**
 * `uudecode F` writes the file its header names: any name, relative to the working directory or absolute
 * (`begin 644 /x/tollgate.yaml`), so anywhere; `-o F` names it instead.
 */
const uudecodeShape: Shape = (command, words) => {
  const options = parseOptions(command.args, { shortWithValue: 'o', longWithValue: ['output-file'] });
  const output = options.short.get('o') ?? options.long.get('output-file');
  return typeof output === 'string' ? writing([...words, output]) : { ...writing(words), fills: ['/'] };
};

/**
 * wget and `curl -O` save a URL under its last name, in the working directory or wget's -P folder, unless
 * -O / -o name the file (those are words, written anyway).
 */
const urlName = (url: string): string | null => {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*(\/[^?#]*)/i.exec(url)?.[1];
  const name = path?.split('/').pop();
  return name === undefined || name === '' || name === '.' || name === '..' ? null : name;
};
const wgetShape: Shape = (command, words) => {
  const options = parseOptions(command.args, { shortWithValue: 'OoaPeiBtTwUY', longWithValue: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'execute', 'input-file', 'base', 'tries', 'timeout', 'wait', 'user-agent', 'header', 'user', 'password'] });
  if (options.short.has('O') || options.long.has('output-document')) return writing(words);
  const dir = options.short.get('P') ?? options.long.get('directory-prefix');
  const folder = typeof dir === 'string' ? dir.replace(/\/+$/, '') : '.';
  const saved = options.operands.flatMap((u) => { const name = urlName(u); return name === null ? [] : [`${folder}/${name}`]; });
  return writing([...words, ...saved]);
};
/**
 * curl's `-o '#1'` names the file after the URL's first `{a,b}` or `[1-3]` glob: `curl -o '#1'
 * 'https://x/{.hermes/config.yaml}'` writes .hermes/config.yaml. Each `{…}` alternative is put in its #N.
 */
const globOutputs = (args: readonly string[]): string[] => {
  const templates = args.flatMap((a, i) => (a === '-o' || a === '--output') && args[i + 1]?.includes('#') ? [args[i + 1]!] : /^--output=.*#/.test(a) ? [a.slice(9)] : []);
  if (templates.length === 0) return [];
  const groups = args.filter((a) => /:\/\//.test(a)).flatMap((u) => [...u.matchAll(/\{([^}]*)\}|\[([^\]]*)\]/g)].map((m) => m[1] === undefined ? [m[2]!] : m[1].split(',')));
  return templates.flatMap((t) => {
    let names = [t];
    groups.forEach((alternatives, i) => { names = names.flatMap((n) => n.includes(`#${i + 1}`) ? alternatives.map((a) => n.split(`#${i + 1}`).join(a)) : [n]); });
    return names;
  });
};
const curlShape: Shape = (command, words) => {
  const globbed = command.args.some((a) => a.includes('#')) ? globOutputs(command.args) : [];
  if (globbed.length > 0) return writing([...words, ...globbed]);
  if (!command.args.some((a) => a === '-O' || a === '--remote-name' || a === '--remote-name-all' || /^-[a-zA-Z]*O[a-zA-Z]*$/.test(a))) return null;
  const dirIndex = command.args.indexOf('--output-dir');
  const folder = dirIndex >= 0 && command.args[dirIndex + 1] !== undefined ? command.args[dirIndex + 1]!.replace(/\/+$/, '') : '.';
  const saved = command.args.flatMap((u) => { const name = urlName(u); return name === null ? [] : [`${folder}/${name}`]; });
  return saved.length === 0 ? null : { ...writing(words), writes: [...words, ...saved] };
};

/** aria2c saves into -d DIR under -o NAME, or under the URL's last name. */
const aria2Shape: Shape = (command, words) => {
  const options = parseOptions(command.args, { shortWithValue: 'doiujsxkc', longWithValue: ['dir', 'out', 'input-file', 'max-concurrent-downloads', 'split', 'max-connection-per-server', 'min-split-size', 'log'] });
  const dir = options.short.get('d') ?? options.long.get('dir');
  const folder = typeof dir === 'string' ? dir.replace(/\/+$/, '') : '.';
  const out = options.short.get('o') ?? options.long.get('out');
  const names = typeof out === 'string' ? [out] : options.operands.flatMap((u) => urlName(u) ?? []);
  return writing([...words, ...names.map((n) => `${folder}/${n}`)]);
};

/** `xxd IN OUT`, `xxd -r IN OUT`: the second operand is written, whichever way it converts. */
const xxdShape: Shape = (command, words) => {
  const operands = parseOptions(command.args, { shortWithValue: 'cglosn', longWithValue: ['cols', 'groupsize', 'len', 'offset', 'seek', 'name'] }).operands;
  return { ...reading(words), writes: operands.slice(1, 2), readOnly: operands.length < 2 };
};

/**
 * `user@localhost:/x/y`, `127.0.0.1:y`: a copy to this machine writes here (relative paths from the home).
 * sftp to a loopback host writes where its batch commands (`put SRC DST`, `rename`, `rm`, `symlink`) say.
 */
export const loopbackRemotePath = (word: string): string | null => {
  const m = /^(?:[^@/\s]+@)?(\[[^\]]*\]|[^:/\s]+):(.*)$/.exec(word);
  if (m === null || !isLoopbackHost(m[1]!)) return null;
  const path = m[2]!;
  return path.startsWith('/') || path.startsWith('~') ? path : `~/${path}`;
};
const sftpCommands = /^\s*-?(?:put|reput|rename|rm|rmdir|symlink|ln|chmod|chown|mkdir)\s+(.*)$/;
const sftpShape: Shape = (command, words) => {
  const host = command.args.find((a) => !a.startsWith('-') && /^(?:[^@/\s]+@)?[^:/\s]+$|:/.test(a));
  const loopback = host !== undefined && isLoopbackHost(host.replace(/^[^@]*@/, '').replace(/:.*$/, ''));
  if (!loopback) return writing(words);
  const lines = (command.stdin ?? '').split('\n').flatMap((l) => sftpCommands.exec(l)?.[1]?.split(/\s+/).filter((w) => w !== '' && !w.startsWith('-')) ?? []);
  const batch = command.args.some((a) => a === '-b' || a.startsWith('-b')) && command.stdin === undefined;
  return { ...writing([...words, ...lines]), fills: batch ? ['/'] : [] };
};

/** pax: -r extracts into the working directory, -rw copies into the last operand, -w only reads. */
const paxShape: Shape = (command, words) => {
  const options = parseOptions(command.args, { shortWithValue: 'fsobxBDEGTUp' });
  const extracts = options.short.has('r');
  if (!extracts) return { ...reading(words), treeReads: options.operands, readOnly: false };
  // `-s ',^,/root/.hermes/,'` rewrites each member's name: with it the files may land anywhere.
  const into = options.short.has('s') ? '/' : options.short.has('w') ? options.operands[options.operands.length - 1] ?? '.' : '.';
  return { ...writing(words), fills: [into], treeReads: options.short.has('w') ? options.operands.slice(0, -1) : [] };
};

/**
 * npm subcommands that rewrite the package folder (package.json, the lock file, node_modules, an install
 * script run): in the clone, or with --prefix it, they replace tollgate's code. Global installs go elsewhere.
 */
const npmFolderWriters = new Set([
  'install', 'i', 'in', 'ins', 'inst', 'insta', 'instal', 'isnt', 'isnta', 'isntal', 'isntall', 'add', 'ci', 'clean-install', 'install-clean', 'ic',
  'install-test', 'it', 'install-ci-test', 'cit', 'uninstall', 'un', 'unlink', 'remove', 'rm', 'r', 'update', 'up', 'upgrade', 'udpate',
  'rebuild', 'rb', 'dedupe', 'ddp', 'prune', 'link', 'ln', 'version', 'shrinkwrap', 'init', 'create',
]);
const npmShape: Shape = (command, words) => {
  const { args } = command;
  const options = parseOptions(args, { shortWithValue: 'wC', longWithValue: ['prefix', 'workspace', 'registry', 'cache', 'userconfig', 'tag', 'omit', 'include'] });
  const sub = options.operands[0];
  const rest = options.operands.slice(1);
  const writesFolder = sub !== undefined && (npmFolderWriters.has(sub) || (sub === 'pkg' && ['set', 'delete', 'fix'].includes(rest[0] ?? ''))
    || (sub === 'audit' && rest[0] === 'fix'));
  if (!writesFolder || options.short.has('g') || options.long.has('global') || options.long.get('location') === 'global') return null;
  const prefix = options.long.get('prefix') ?? options.short.get('C');
  return { ...writing(words), fills: [typeof prefix === 'string' ? prefix : '.'] };
};

/**
 * npm settings that make every later npm-run node (tollgate's `npm start` among them) load a file, or run its
 * scripts through another program: `npm config set node-options=--require X`, `script-shell X`. Written to
 * ~/.npmrc, they change tollgate's code the next time it starts, wherever the call is made.
 */
const npmCodeSettings: ReadonlyMap<string, (value: string) => boolean> = new Map([
  ['node-options', (v: string) => /(?:^|\s)(?:-r(?![A-Za-z])|--require|--import|--loader|--experimental-loader|--inspect)/.test(v)],
  ['script-shell', (v: string) => !/^(?:(?:\/usr)?\/bin\/)?(?:sh|bash|zsh|dash)$/.test(v)],
  ['shell', (v: string) => !/^(?:(?:\/usr)?\/bin\/)?(?:sh|bash|zsh|dash)$/.test(v)],
  ['onload-script', () => true], ['init-module', () => true], ['git', (v: string) => !/^(?:(?:\/usr)?\/bin\/)?git$/.test(v)],
]);
/** Whether a package manager setting with this value runs code; keys without a harmless value always do. */
export const settingRunsCode = (key: string, value: string): boolean => npmCodeSettings.get(key)?.(value) ?? true;

export const npmLoadsCode = (command: SimpleCommand): string | null => {
  if (command.program !== 'npm' && command.program !== 'pnpm') return null;
  const { args } = command;
  // `npm config set K V`, `npm config set K=V`, `npm set K V` (options anywhere).
  const words = args.filter((a) => !a.startsWith('-'));
  const set = words[0] === 'set' ? 0 : (words[0] === 'config' || words[0] === 'c') && words[1] === 'set' ? 1 : -1;
  if (set < 0) return null;
  // After `set`, every word but npm's own location flags is a key or a value (`'--require x'` is a value).
  const pairs: string[] = [];
  for (let i = args.indexOf('set') + 1; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-g' || arg === '--global' || arg === '--json' || arg.startsWith('--location=')) continue;
    if (arg === '--location') { i++; continue; }
    pairs.push(arg);
  }
  for (let i = 0; i < pairs.length; i++) {
    const eq = pairs[i]!.indexOf('=');
    const key = (eq < 0 ? pairs[i]! : pairs[i]!.slice(0, eq)).toLowerCase().replace(/_/g, '-');
    const value = eq < 0 ? pairs[++i] ?? '' : pairs[i]!.slice(eq + 1);
    if (npmCodeSettings.get(key)?.(value) === true) return `npm's ${key} (${value}), which every later npm-run node, tollgate's included, would load`;
  }
  return null;
};

/**
 * Dev tools that read the files they are given unless a flag makes them write: `tsc` emits (into the project
 * folder) unless --noEmit; `eslint --fix`, `prettier --write` rewrite their operands; -o names an output file.
 */
const devTools: ReadonlyMap<string, Shape> = new Map<string, Shape>([
  ['tsc', (command, words) => {
    const { args } = command;
    if (args.some((a) => ['--noEmit', '--help', '-h', '--version', '-v', '--showConfig', '--listFilesOnly', '--init'].includes(a))) return reading(words);
    const project = args.findIndex((a) => a === '-p' || a === '--project');
    const folder = project >= 0 ? (args[project + 1] ?? '.').replace(/\/[^/]*\.json$/, '') : '.';
    return { ...writing(words), fills: [folder === '' ? '.' : folder] };
  }],
  ['eslint', (command, words) => {
    const { args } = command;
    if (args.some((a) => a === '--fix' || a === '--fix-type')) return writing(words);
    const options = parseOptions(args, { shortWithValue: 'ocf', longWithValue: ['output-file', 'config', 'format', 'ext', 'rule', 'plugin', 'parser', 'resolve-plugins-relative-to', 'rulesdir', 'ignore-path', 'cache-location', 'max-warnings'] });
    const output = options.short.get('o') ?? options.long.get('output-file');
    return typeof output === 'string' ? { ...reading(words), writes: [output], readOnly: false } : reading(words);
  }],
  ['prettier', (command, words) => command.args.some((a) => a === '--write' || a === '-w') ? writing(words) : reading(words)],
]);

/** npx / pnpm exec / bunx run a package's binary: judged as that binary with its own arguments. */
const runners = new Set(['npx', 'bunx', 'pnpx']);
const runnerShape = (command: SimpleCommand): Operands | null => {
  const { args } = command;
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += args[i] === '-p' || args[i] === '--package' || args[i] === '-c' ? 2 : 1;
  const inner = args[i];
  if (inner === undefined) return null;
  const shape = devTools.get(inner);
  if (shape === undefined) return null;
  const innerArgs = args.slice(i + 1);
  return shape({ ...command, program: inner, programPath: inner, args: innerArgs }, wordsOf(innerArgs));
};

/**
 * Python modules run with -m that read their operands: `python3 -m json.tool IN [OUT]` writes only OUT.
 * Any other module may write what it is given.
 */
const readingModules: ReadonlyMap<string, number> = new Map([['json.tool', 1], ['tabnanny', Infinity], ['pydoc', Infinity], ['platform', Infinity], ['timeit', Infinity]]);

/**
 * Modules whose command line writes files other than its words: `python3 -m gzip -d F.gz` writes F (as gunzip
 * does), `-m zipfile -e Z DIR` and `-m tarfile -e T DIR` extract into DIR.
 */
const writingModules: ReadonlyMap<string, (operands: readonly string[], args: readonly string[]) => Operands> = new Map([
  ['gzip', (operands: readonly string[], args: readonly string[]) =>
    writing([...operands, ...(args.includes('-d') || args.includes('--decompress') ? operands.map((o) => o.replace(/\.[^./]+$/, '')) : [])])],
  ...['zipfile', 'tarfile'].map((m) => [m, (operands: readonly string[], args: readonly string[]) => {
    const at = args.findIndex((a) => a === '-e' || a === '--extract');
    return at < 0 ? writing(operands) : { ...writing(operands), fills: [args[at + 2] ?? '.'] };
  }] as const),
]);

/**
 * An interpreter running a script file (`node bin/tollgate.mjs audit`, `node --check x.js`): the script is run
 * (read), not written; the words after it are the script's and may be written. Inline code and stdin are code.
 */
const interpreterShape: Shape = (command) => {
  const family = interpreterFamily(command.program);
  if (family === undefined) return null;
  const { args } = command;
  const call = interpreterCall(family, args);
  const stdin = command.stdin === undefined ? [] : [command.stdin];
  if (call.module !== undefined) {
    const operands = args.slice(call.module.next).filter((a) => !a.startsWith('-'));
    const writer = writingModules.get(call.module.name);
    if (writer !== undefined) return { ...writer(wordsOf(operands), args.slice(call.module.next)), code: stdin };
    const written = readingModules.get(call.module.name);
    if (written === undefined) return null;
    const writes = wordsOf(operands.slice(written));
    return { ...reading(wordsOf(operands)), writes, code: stdin, readOnly: writes.length === 0 };
  }
  if (call.script === undefined) return null;
  const before = args.slice(0, call.script);
  const after = args.slice(call.script + 1);
  return { writes: wordsOf(after), reads: wordsOf(args), trees: [], code: [...before, ...after, ...stdin], readOnly: false };
};

/**
 * Editors that run a script: ed and ex read commands from stdin, `vim -es -c CMD` / `ex -c` / `+CMD` from their
 * arguments, `emacs --batch --eval` runs Lisp. Their commands (`w FILE`, `(write-region … "FILE")`) are code.
 */
const scriptedEditors = new Set(['ed', 'red', 'ex', 'vim', 'vi', 'nvim', 'view', 'emacs', 'xemacs']);
const editorShape: Shape = (command, words) => {
  if (!scriptedEditors.has(command.program)) return null;
  return { ...writing(words), code: [...command.args, ...(command.stdin === undefined ? [] : [command.stdin])] };
};

const shapes: ReadonlyMap<string, Shape> = new Map<string, Shape>([
  ...[...compressors.keys()].map((p) => [p, compressorShape] as const),
  ...[...traceOutputs.keys()].map((p) => [p, traceShape] as const),
  ...[...scriptedEditors].map((p) => [p, editorShape] as const),
  ['uudecode', uudecodeShape], ['wget', wgetShape], ['curl', curlShape], ['pax', paxShape], ['npm', npmShape], ['aria2c', aria2Shape], ['xxd', xxdShape], ['sftp', sftpShape],
  ...[...devTools],
  // `busctl call … GetUnit s tollgate.service`: bus names and unit names, not files (daemonReach.ts judges the calls).
  ...[...busTools].map((p) => [p, (_command: SimpleCommand, words: readonly string[]) => reading(words)] as const),
  ...[...runners].map((p) => [p, (command: SimpleCommand) => runnerShape(command)] as const),
]);

/** The operands of a program this table knows, or null (then shellOperands' own rules apply). */
export const programWrites = (command: SimpleCommand, words: readonly string[]): Operands | null => {
  // Formatters, fixers and package managers that rewrite whole folders (`prettier --write .`, `pnpm install`).
  const rewrites = folderRewrites(command, words);
  if (rewrites !== null) return rewrites;
  const shape = shapes.get(command.program);
  if (shape !== undefined) return shape(command, words);
  return interpreterFamily(command.program) === undefined ? null : interpreterShape(command, words);
};
