/**
 * What one simple command does with the words it is given, as far as self-protection cares: which it may write
 * (or delete, or chmod), which it only reads, and which it removes with everything below them. A program not on
 * the short read-only list is taken to write every path it names: `vim tollgate.yaml`, `sqlite3 data/ledger.db`,
 * `python3 tool.py ~/.hermes/config.yaml` are all writes as far as the floor knows.
 */
import { containerMounts } from './processReach.ts';
import { parseOptions, type ParsedOptions } from '../../shell/commandOptions.ts';
import { writtenFiles } from '../../shell/commandFacts.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { boundedMemo, recentMemo } from '../../shell/recentMemo.ts';
import { isTollgateControl } from './controlCommands.ts';
import { loopbackRemotePath, programWrites } from './programWrites.ts';
import { gitRewrittenFolders, withListedNames } from './folderRewriters.ts';
import { secretFileNames, type WalkFilter } from './secretWalks.ts';
import { rsyncFilter, searcherOperands } from './treeReaders.ts';
import { extractionFolder } from './archiveExtractors.ts';

export interface Operands {
  /** Words the command may write, create, delete or change the mode of. */
  readonly writes: readonly string[];
  /** Words it reads (a secret may not even be read). */
  readonly reads: readonly string[];
  /** Words removed or moved with everything below them (`rm -r`, `mv`, `chmod -R`). */
  readonly trees: readonly string[];
  /** Text that may hold paths inside code (`python3 -c '...'`), searched for protected paths. */
  readonly code: readonly string[];
  /** True when the program is on the read-only list (then only secret reads matter). */
  readonly readOnly: boolean;
  /** Where files land in a folder: `cp a b DIR` writes DIR/a, DIR/b (when DIR is a folder; `sure` when the words say so). */
  readonly landings?: readonly Landing[];
  /** Folders written into whole (an archive extracted, `git apply`, `rsync src/ DIR`); '.' is the working directory. */
  readonly fills?: readonly string[];
  /** Folders read whole (`tar c`, `zip -r`, `grep -r`, `cp -r`, `find -exec`, `git add -f`): their secrets are read. */
  readonly treeReads?: readonly string[];
  /** What the walk of those folders skips (a searcher's dot-name rule, excludes, includes); absent: nothing. */
  readonly treeWalk?: WalkFilter;
  /** What a new link points at (`ln -s TARGET`, `cp -s`): a link to a protected path reaches it later. */
  readonly linkTargets?: readonly string[];
  /**
   * `cp SRC A B` where B is not known to be a folder: the words are judged as written. A brace list spells its
   * names this way (`cp x ~/.hermes/{config,x}.yaml`), and the floor cannot see which of them the agent made a folder.
   */
  readonly writtenUnlessFolder?: { readonly dir: string; readonly words: readonly string[] };
}

export interface Landing {
  readonly dir: string;
  readonly names: readonly string[];
  readonly sure: boolean;
  /** The sources are folders copied whole: DIR/name then holds all they hold (a Hermes home replaced). */
  readonly whole?: boolean;
}

/** Programs that read the files they name and write none (their output goes to stdout). */
export const readOnlyPrograms: ReadonlySet<string> = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ls', 'stat', 'wc', 'file', 'sha256sum', 'sha1sum',
  'sha512sum', 'md5sum', 'b2sum', 'cksum', 'diff', 'cmp', 'du', 'df', 'realpath', 'readlink', 'basename', 'dirname', 'echo',
  'printf', 'test', '[', '[[', 'tree', 'jq', 'bat', 'nl', 'cut', 'column', 'xxd', 'od', 'hexdump', 'strings', 'base64', 'cd',
  'pushd', 'popd', 'pwd', 'type', 'which', 'true', 'false', 'sleep', 'date', 'tr', 'fold', 'fmt', 'rev', 'tac', 'zcat',
]);

/** Programs that run code given in their arguments: paths inside that code count. */
const interpreters = /^(?:python[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|osascript|lua|Rscript|sqlite3?|duckdb|[gmn]?awk|tclsh[0-9.]*|wish[0-9.]*|expect)$/;

// `add` and `commit` change the index and history, never the files they name (red team 7: `git add AGENTS.md`).
const gitReadSubcommands = new Set(['log', 'diff', 'show', 'status', 'blame', 'ls-files', 'grep', 'rev-parse', 'describe', 'shortlog', 'cat-file', 'add', 'commit']);
const copyGrammar = { shortWithValue: 'tSgmoB', longWithValue: ['target-directory', 'suffix', 'group', 'mode', 'owner', 'backup'] };
/** rsync's own: `-t` is --times there (no target folder option), and these take values (`-e ssh`, `--exclude .git`). */
const rsyncGrammar = {
  shortWithValue: 'eBfMT',
  longWithValue: ['rsh', 'block-size', 'filter', 'exclude', 'include', 'exclude-from', 'include-from', 'files-from', 'temp-dir', 'partial-dir', 'compare-dest', 'copy-dest',
    'link-dest', 'backup-dir', 'suffix', 'chmod', 'chown', 'usermap', 'groupmap', 'timeout', 'contimeout', 'port', 'log-file', 'log-file-format', 'out-format',
    'password-file', 'bwlimit', 'max-size', 'min-size', 'max-delete', 'modify-window', 'rsync-path', 'info', 'debug', 'skip-compress', 'iconv', 'remote-option'],
};
const sedGrammar = { shortWithValue: 'efl', shortAttachedOnly: 'i', longWithValue: ['expression', 'file', 'line-length'] };
const sortGrammar = { shortWithValue: 'otTSk', longWithValue: ['output', 'field-separator', 'temporary-directory', 'buffer-size', 'key'] };

const none: Operands = { writes: [], reads: [], trees: [], code: [], readOnly: true };

const computeOperands = (command: SimpleCommand): Operands => {
  const redirectWrites = writtenFiles(command);
  // `< f`, `3< f` (then read through /dev/fd/3 or <&3), `<> f`; not heredocs, not fd duplications (`<&3`).
  const redirectReads = command.redirects.filter((r) => /^\d*<>?$/.test(r.op) && !r.target.startsWith('&')).map((r) => r.target);
  // Bash reads the file itself for `$(<f)` (and `` `<f` ``): a read, whatever the program.
  for (const word of [...command.args, ...command.redirects.map((r) => r.target)]) {
    if (!word.includes('<')) continue;
    for (const m of word.matchAll(/(?:\$\(|`)\s*<\s*([^\s)`]+)\s*(?:\)|`)/g)) redirectReads.push(m[1]!);
  }
  // Names from a listing (`sed -i … $(git ls-files)`, `… | xargs sed -i`) may be any file of the folder (folderRewriters.ts).
  const own = withListedNames(command, programOperands(command));
  if (redirectWrites.length === 0 && redirectReads.length === 0) return own;
  return { ...own, writes: [...own.writes, ...redirectWrites], reads: [...own.reads, ...redirectReads] };
};

// Several rows ask about the same command of one line; the answer is computed once per command object.
export const operandsOf: (command: SimpleCommand) => Operands = recentMemo(computeOperands);

/** Every word of the command's arguments as wordsIn reads them, once per command object. */
export const argWords = recentMemo((command: SimpleCommand): readonly string[] => {
  const words: string[] = [];
  for (const arg of command.args) {
    if (isPlainWord(arg)) words.push(arg);
    else for (const word of wordsIn(arg)) words.push(word);
  }
  return words;
});

const programOperands = (command: SimpleCommand): Operands => {
  const { program, args } = command;
  const words = argWords(command);
  switch (program) {
    case 'sed': return sedOperands(args);
    case 'perl': case 'ruby':
      if (args.some((a) => /^-[a-hj-zA-Z]*i/.test(a))) return { ...writeAll(words), code: args };
      break;
    case 'sort': {
      const options = parseOptions(args, sortGrammar);
      const output = options.short.get('o') ?? options.long.get('output');
      return { ...none, reads: words, writes: typeof output === 'string' ? [output] : [] };
    }
    case 'yq': return args.some((a) => a === '-i' || a === '--inplace' || /^-[a-zA-Z]*i/.test(a)) ? writeAll(words) : { ...none, reads: words };
    case 'find': return findOperands(args, words);
    case 'git': return gitOperands(args, words, command.via);
    // tollgate's read-only subcommands read its files (`tollgate verify --config tollgate.yaml`); the rest are refused anyway.
    case 'tollgate': return isTollgateControl(command) ? writeAll(words) : { ...none, reads: words };
    case 'rsync': case 'scp': {
      // `scp F localhost:~/.hermes/config.yaml`: a copy to this machine lands here.
      const copied = copyOperands(command, words);
      const here = words.flatMap((w) => (w.includes(':') ? loopbackRemotePath(w) ?? [] : []));
      return here.length === 0 ? copied : { ...copied, writes: [...copied.writes, ...here], readOnly: false };
    }
    case 'cp': case 'install': case 'ln': return copyOperands(command, words);
    // `bindfs SRC DIR`, `mount --bind SRC DIR`: SRC is reachable under DIR from then on, like a link to it.
    case 'bindfs': case 'mount': case 'fuse-overlayfs': case 'mergerfs': case 'unionfs': case 'unionfs-fuse': case 'squashfuse': case 'sshfs': return bindOperands(command, words);
    // `bwrap --bind SRC DST cmd`: the command it runs reaches SRC under DST (the inner command is only words here).
    // A read-only bind only lets it read (secrets below still count): `bwrap --ro-bind /usr /usr` changes nothing.
    case 'bwrap': {
      const bound = (pattern: RegExp) => args.flatMap((a, i) => pattern.test(a) && args[i + 1] !== undefined ? [args[i + 1]!] : []);
      const writable = bound(/^--(?:dev-)?bind(?:-try)?$/);
      // `--ro-bind / /` is the usual sandbox root: the program sees what it would see outside, nothing is copied.
      const sources = [...writable, ...bound(/^--ro-bind(?:-try)?$/).filter((source) => source !== '/')];
      return sources.length === 0 ? writeAll(words) : { ...writeAll(words), ...(writable.length > 0 ? { linkTargets: writable } : {}), treeReads: sources };
    }
    // socat's file addresses (`OPEN:path,creat`, `GOPEN:`, `CREATE:`, `PIPE:`, `UNIX-LISTEN:`) and `link=` options name files it writes.
    case 'socat': {
      const paths = args.flatMap((a) => socatPaths(a));
      return paths.length === 0 ? writeAll(words) : { ...writeAll([...words, ...paths]) };
    }
    // Every word of mv is written: its sources are removed from where they were.
    case 'mv': return { ...copyOperands(command, words), writes: words, trees: parseOptions(args, copyGrammar).operands };
    case 'rm': case 'rmdir': case 'shred': case 'unlink':
      return { ...writeAll(words), trees: program === 'rmdir' || isRecursive(args) ? parseOptions(args).operands : [] };
    // A folder made unreadable or re-owned takes what is below it along, recursive or not.
    case 'chmod': case 'chown': case 'chgrp': return { ...writeAll(words), trees: parseOptions(args).operands };
    case 'tar': case 'bsdtar': case 'gtar': return tarOperands(args, words);
    case 'unzip': {
      const options = parseOptions(args, { shortWithValue: 'dx' });
      const into = options.short.get('d');
      const folder = typeof into === 'string' ? into : '.';
      // `unzip -o a.zip AGENTS.md`: the members named are written into the folder, a protected rules file among them.
      const members = options.operands.slice(1).map((m) => (folder === '.' ? m : `${folder.replace(/\/+$/, '')}/${m}`));
      return { ...none, reads: words, writes: members, readOnly: false, fills: [folder] };
    }
    case 'cpio': {
      const options = parseOptions(args, { shortWithValue: 'DEFHIMOR', longWithValue: ['directory', 'file', 'format'] });
      const into = options.short.get('D') ?? options.long.get('directory');
      const extracts = options.short.has('i') || options.long.has('extract') || options.short.has('p') || options.long.has('pass-through');
      const dir = typeof into === 'string' ? into : options.short.has('p') ? options.operands[0] ?? '.' : '.';
      // `cpio -o` archives the files named on its stdin (`cpio -o <<< data/keys/x`): they are read.
      const listed = command.stdin === undefined ? [] : command.stdin.split('\n').map((l) => l.trim()).filter((l) => l !== '');
      // `cpio -o -O F` (or -F F) writes the archive to F.
      const archive = options.short.get('O') ?? options.short.get('F') ?? options.long.get('file');
      const written = typeof archive === 'string' ? [archive] : [];
      return extracts ? { ...writeAll(words), fills: [dir] } : { ...none, reads: [...words, ...listed], writes: written, readOnly: written.length === 0 };
    }
    case 'patch': {
      const options = parseOptions(args, { shortWithValue: 'pdiroBDFVYzg', longWithValue: ['directory', 'input', 'output', 'strip'] });
      const into = options.short.get('d') ?? options.long.get('directory');
      return { ...writeAll(words), fills: [typeof into === 'string' ? into : '.'] };
    }
    // `jar cf x.jar .`, `mksquashfs . x.sqsh`, `restic backup .`, `borg create r::a .`, `rclone copy . r:`: folders packed or sent whole.
    case 'jar': case '7z': case '7za': case '7zr': case '7zz': {
      const into = extractionFolder(program, args);
      if (into !== null) return { ...writeAll(words), fills: [into] };
      // 7-Zip's other commands (`a`, `u`) pack the folders after the archive, recursively.
      return { ...writeAll(words), treeReads: program !== 'jar' ? parseOptions(args).operands.slice(2) : packsFolders(program, args) ? words : [] };
    }
    case 'mksquashfs': case 'mkisofs': case 'genisoimage': case 'restic': case 'borg': case 'rclone': case 'duplicity':
      { const into = extractionFolder(program, args); if (into !== null) return { ...writeAll(words), trees: program === 'rclone' && args.includes('mount') ? [into] : [], fills: [into], treeReads: packsFolders(program, args) ? words : [] }; }
      return { ...writeAll(words), treeReads: packsFolders(program, args) ? words : [] };
    case 'zip': {
      const recursive = args.some((a) => /^-[a-zA-Z]*r/.test(a) || a === '--recurse-paths');
      return { ...writeAll(words), treeReads: recursive ? parseOptions(args).operands.slice(1) : [] };
    }
    // `uniq IN OUT`: the second operand is written.
    case 'uniq': {
      const operands = parseOptions(args, { shortWithValue: 'fsw', longWithValue: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'] }).operands;
      return { ...none, reads: words, readOnly: false, writes: operands.slice(1, 2) };
    }
    // A host folder mounted into a container is as writable there as here (`docker run -v $PWD:/w … rm -rf /w/data`).
    // `--mount type=bind,source=H,target=C` too; a read-only mount still reads the keys below it.
    case 'docker': case 'podman': case 'nerdctl': {
      const mounts = containerMounts(args).filter((m) => /^[/.~$]/.test(m.host));
      if (mounts.length === 0) return writeAll(words);
      const hosts = mounts.filter((m) => !m.readOnly).map((m) => m.host);
      return { ...writeAll(words), fills: hosts, treeReads: mounts.filter((m) => m.readOnly).map((m) => m.host) };
    }
    // A recursive search prints what it finds, through what its options skip (treeReaders.ts).
    case 'grep': case 'egrep': case 'fgrep': case 'rg': case 'ag': case 'ack': case 'ack-grep': case 'ugrep': case 'ug': case 'diff':
      return searcherOperands(command, words)!;
    // fd's `-x CMD` is not unwrapped: what it runs may write any of the words, as before.
    case 'fd': case 'fdfind': {
      const { treeReads, treeWalk } = searcherOperands(command, words)!;
      return { ...writeAll(words), treeReads: treeReads ?? [], ...(treeWalk === undefined ? {} : { treeWalk }) };
    }
    default: {
      // 7z x, dpkg -x, ar x, unrar, jar x, unsquashfs…: the folder they unpack into is written whole.
      const into = extractionFolder(program, args);
      if (into !== null) return { ...writeAll(words), fills: [into] };
      const known = programWrites(command, words);
      if (known !== null) return known;
      break;
    }
  }
  // Listing names or sizes reads no file's contents (`ls data/keys`, `stat`, `du -sh data`).
  if (metadataPrograms.has(program)) return none;
  if (readOnlyPrograms.has(program)) return { ...none, reads: words };
  // The code an interpreter runs: its arguments (-c, -e) and a heredoc or here-string it reads.
  return { ...writeAll(words), code: interpreters.test(program) ? [...args, ...awkAssigned(program, args), ...(command.stdin === undefined ? [] : [command.stdin])] : [] };
};

/**
 * `awk -v p=/srv/h 'BEGIN{print 1 > p "/config.yaml"}'`: the paths the program makes of a `-v NAME=VALUE` name, alone
 * (`> p`) or followed by a string (awk joins adjacent strings): `/srv/h/config.yaml`.
 */
const awkAssigned = (program: string, args: readonly string[]): string[] => {
  if (!/^[gmn]?awk$/.test(program)) return [];
  const values = new Map<string, string>();
  args.forEach((arg, i) => {
    const assigned = arg === '-v' || arg === '--assign' ? args[i + 1] : /^-v(.+)$/.exec(arg)?.[1] ?? /^--assign=(.+)$/.exec(arg)?.[1];
    const m = assigned === undefined ? null : /^([A-Za-z_]\w*)=(.*)$/s.exec(assigned);
    if (m !== null) values.set(m[1]!, m[2]!.replace(/"/g, ''));
  });
  if (values.size === 0) return [];
  const out = new Set<string>();
  for (const text of args) {
    if (!/[{}()]/.test(text)) continue;
    for (const m of text.matchAll(/(?<![\w"$])([A-Za-z_]\w*)(?:\s*"([^"\\]*)")?/g)) {
      const value = values.get(m[1]!);
      if (value !== undefined && (m[2] !== undefined || /(?:>>?|\|)\s*$/.test(text.slice(0, m.index!)))) out.add(`${value}${m[2] ?? ''}`);
    }
  }
  return [...out];
};

/** Whether the archiver or backup tool reads the folders it is given (its create, backup or copy mode; fail closed otherwise). */
const packsFolders = (program: string, args: readonly string[]): boolean => {
  const first = args.find((a) => !a.startsWith('-')) ?? '';
  switch (program) {
    case 'jar': return /^-?[a-zA-Z]*[cu]/.test(args[0] ?? '') || args.some((a) => a === '--create' || a === '--update');
    case 'restic': return args.includes('backup');
    case 'borg': return args.includes('create');
    case 'rclone': return ['copy', 'sync', 'move', 'copyto', 'moveto', 'bisync', 'cat', 'serve'].includes(first);
    default: return true;
  }
};

const metadataPrograms: ReadonlySet<string> = new Set(['ls', 'stat', 'du', 'df', 'file', 'tree', 'realpath', 'readlink', 'basename', 'dirname', 'test', '[', '[[', 'cd', 'pushd', 'popd']);

/** tar: the mode letters come bundled first (`tar czf x data`) or as options; -C / --directory is where it extracts. */
const tarValueLetters = 'fCTXbgKLNVHI';
const tarOperands = (args: readonly string[], words: readonly string[]): Operands => {
  let letters = '';
  let directory: string | null = null;
  const operands: string[] = [];
  const pending: string[] = [];
  const take = (letter: string, value: string | undefined) => { if (letter === 'C' && value !== undefined) directory = value; };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const long = /^--([\w-]+)(?:=(.*))?$/s.exec(arg);
    if (long !== null) {
      const name = long[1]!;
      if (['extract', 'get', 'create', 'append', 'update', 'concatenate', 'catenate'].includes(name)) letters += name === 'get' ? 'x' : name === 'extract' ? 'x' : 'c';
      if (name === 'directory' || name === 'file' || name === 'files-from' || name === 'exclude-from') {
        const value = long[2] ?? args[++i];
        if (name === 'directory' && value !== undefined) directory = value;
      }
      continue;
    }
    const bundle = i === 0 && !arg.startsWith('-') ? arg : arg.startsWith('-') && arg.length > 1 ? arg.slice(1) : null;
    if (bundle === null) { if (pending.length > 0) take(pending.shift()!, arg); else operands.push(arg); continue; }
    for (let k = 0; k < bundle.length; k++) {
      const letter = bundle[k]!;
      letters += letter;
      if (!tarValueLetters.includes(letter)) continue;
      if (i > 0 && arg.startsWith('-') && k < bundle.length - 1) { take(letter, bundle.slice(k + 1)); break; }
      pending.push(letter);
    }
    // `tar -C dir`, `tar xf a.tar`: the values follow in the order of their letters.
    while (pending.length > 0 && i + 1 < args.length && !args[i + 1]!.startsWith('-')) take(pending.shift()!, args[++i]);
  }
  // -P / --absolute-names keeps a member's leading '/': it may land anywhere on the machine.
  if (letters.includes('x')) return { ...writeAll(words), fills: [letters.includes('P') || args.includes('--absolute-names') ? '/' : directory ?? '.'] };
  // `tar czf x.tgz -C /srv data`: members named after -C are read below that folder (those before it, where it runs).
  const below = directory === null ? [] : operands.filter((o) => !o.startsWith('/')).map((o) => (o === '.' ? directory! : `${directory}/${o}`));
  if (/[cru]/.test(letters)) return { ...writeAll(words), treeReads: [...operands, ...below] };
  return { ...none, reads: words };
};

const writeAll = (words: readonly string[]): Operands => ({ writes: words, reads: words, trees: [], code: [], readOnly: false });

/** Most words are plain: nothing wordsIn reads can split them. */
const isPlainWord = (arg: string): boolean => arg[0] !== '-' && !arg.includes('=') && !arg.includes('@') && !arg.startsWith('file:');

/** The word itself, and the value of `--opt=VALUE`, `KEY=VALUE` (dd of=), `-oVALUE`, curl's `@FILE`. */
export const wordsIn = (arg: string): string[] => {
  if (isPlainWord(arg)) return [arg];
  const out = [arg];
  const eq = arg.includes('=') ? /^(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w]*)=(.*)$/s.exec(arg) : null;
  if (eq !== null) out.push(eq[1]!);
  const attached = arg[0] === '-' && /^[~/.]$/.test(arg[2] ?? '') ? /^-[A-Za-z]([~/.].*)$/s.exec(arg) : null;
  if (attached !== null) out.push(attached[1]!);
  // `sqlite3 'file:data/ledger.db?mode=rw'`, `curl file:///x/keys/k`: a file URI names its path.
  const uri = arg.startsWith('file:') ? /^file:(?:\/\/[^/]*)?([^?#]+)/.exec(arg) : null;
  if (uri !== null) out.push(uri[1]!);
  if (!arg.includes('@')) return out;
  for (const word of [...out]) {
    const at = word.indexOf('@');
    if (at >= 0 && at < word.length - 1) out.push(word.slice(at + 1)); // curl -F f=@path, -d @path
  }
  return out;
};

const isRecursive = (args: readonly string[]): boolean => {
  const options = parseOptions(args);
  return options.short.has('r') || options.short.has('R') || options.long.has('recursive');
};

const sedOperands = (args: readonly string[]): Operands => {
  const options = parseOptions(args, sedGrammar);
  const inPlace = options.short.has('i') || options.long.has('in-place') || [...options.long.keys()].some((k) => k.startsWith('in-place'));
  const scriptGiven = options.short.has('e') || options.short.has('f') || options.long.has('expression') || options.long.has('file');
  const files = scriptGiven ? options.operands : options.operands.slice(1);
  // The script's own `w FILE` commands and `s///w FILE` flags write files, in place or not.
  const scripts = [...(scriptGiven ? [...options.short.values(), ...options.long.values()].filter((v): v is string => typeof v === 'string') : []), ...(scriptGiven ? [] : options.operands.slice(0, 1))];
  const written = scripts.flatMap((s) => [...s.matchAll(/(?:^|[;\n{}]|[0-9$/]|\s)[wW]\s*([^\s;}]+)/g)].map((m) => m[1]!));
  // Its `r FILE` / `R FILE` commands read a file into the output (`sed '1r data/keys/k' x`).
  const pulled = scripts.flatMap((s) => [...s.matchAll(/(?:^|[;\n{}]|[0-9$/]|\s)[rR]\s*([^\s;}]+)/g)].map((m) => m[1]!));
  if (inPlace) return { ...writeAll(files.flatMap(wordsIn)), writes: [...files.flatMap(wordsIn), ...written], reads: [...files.flatMap(wordsIn), ...pulled] };
  return written.length === 0 ? { ...none, reads: [...files, ...pulled] } : { ...none, reads: [...files, ...pulled], writes: written, readOnly: false };
};

const findValueActions = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const findOperands = (args: readonly string[], words: readonly string[]): Operands => {
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const starts = firstExpression < 0 ? args : args.slice(0, firstExpression);
  const deletes = args.includes('-delete');
  const outputs = args.flatMap((a, i) => findValueActions.has(a) && args[i + 1] !== undefined ? [args[i + 1]!] : []);
  // `find data -type f -exec cat {} +`: whatever it runs is run on every file below the starts (`.` when none is
  // given), unless a name filter leaves every secret out (`-name '*.ts'`).
  const runs = args.some((a) => a === '-exec' || a === '-execdir' || a === '-ok' || a === '-okdir');
  const treeReads = runs ? listedFolders(args).folders : [];
  if (!deletes && outputs.length === 0) return { ...none, reads: words, treeReads };
  return { writes: deletes ? [...starts, ...outputs] : outputs, reads: words, trees: deletes ? starts : [], code: [], readOnly: false, treeReads };
};

const gitValueOptions = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);
/** The folders `git grep` searches: its pathspecs after the pattern (or after `--`), else the folder it runs in. */
const gitGrepPaths = (rest: readonly string[], here: string): string[] => {
  const dash = rest.indexOf('--');
  const options = parseOptions(dash < 0 ? rest : rest.slice(0, dash), { shortWithValue: 'efABCm', longWithValue: ['max-depth', 'threads', 'context', 'after-context', 'before-context', 'max-count', 'open-files-in-pager'] });
  const patternGiven = options.short.has('e') || options.short.has('f');
  const paths = dash >= 0 ? rest.slice(dash + 1) : options.operands.slice(patternGiven ? 0 : 1);
  return paths.length > 0 ? [...paths] : [here];
};

const gitOperands = (args: readonly string[], words: readonly string[], via: readonly string[] = []): Operands => {
  const where: string[] = [];
  // `GIT_WORK_TREE=DIR git …`, `env GIT_DIR=… git …`: the work tree (or repository) is DIR.
  // The work tree a rewrite lands in: --work-tree / GIT_WORK_TREE, else -C's folder, else the working directory
  // (a --git-dir elsewhere still checks out here: `git --git-dir=/tmp/r.git checkout -f`).
  let workTree: string | undefined;
  let chdir: string | undefined;
  for (const label of via) {
    if (!label.includes('GIT_')) continue;
    for (const m of label.matchAll(/(?:^|\s)GIT_(WORK_TREE|DIR)=(\S+)/g)) { where.push(m[2]!); if (m[1] === 'WORK_TREE') workTree = m[2]!; }
  }
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const arg = args[i]!;
    const eq = /^--(git-dir|work-tree)=(.*)$/.exec(arg);
    if (eq !== null) { where.push(eq[2]!); if (eq[1] === 'work-tree') workTree = eq[2]!; }
    if (gitValueOptions.has(arg)) {
      const value = args[i + 1];
      if (arg !== '-c' && value !== undefined) where.push(value);
      if (arg === '--work-tree' && value !== undefined) workTree = value;
      if (arg === '-C' && value !== undefined) chdir = value;
      i += 2;
    } else i += 1;
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  // Subcommands that rewrite the work tree: inside or above a protected path they may replace it.
  const fills = sub !== undefined && rewritesWorkTree(sub, rest) ? [workTree ?? chdir ?? '.'] : [];
  // `git init [--separate-git-dir G] DIR` rewrites DIR's .git (a protected clone's history moved or replaced).
  if (sub === 'init') fills.push(parseOptions(rest, { longWithValue: ['separate-git-dir', 'template', 'initial-branch', 'object-format', 'shared'], shortWithValue: 'b' }).operands[0] ?? chdir ?? '.');
  // `git submodule update`, `git lfs pull`, `git worktree add --force DIR`, `git config core.worktree DIR` (folderRewriters.ts).
  if (sub !== undefined) fills.push(...gitRewrittenFolders(sub, rest, workTree ?? chdir ?? '.'));
  // `git add -f data`: forced past .gitignore, the keys go into the index (and out with the next push).
  // `git diff --no-index A B` compares two folders outside any repository and prints what differs, whole files included.
  const forced = sub === 'add' && rest.some((a) => a === '-f' || a === '--force' || /^-[a-zA-Z]*f/.test(a));
  // `git grep --no-index x -- .tollgate`, `--untracked`: files outside the index are searched (tracked ones never hold the keys).
  const grepsUntracked = sub === 'grep' && rest.some((a) => a === '--no-index' || a === '--untracked');
  const treeReads = forced || (sub === 'diff' && rest.includes('--no-index')) ? parseOptions(rest).operands
    : grepsUntracked ? gitGrepPaths(rest, chdir ?? '.') : [];
  const operands = gitSubcommandOperands(sub, rest, words, fills, treeReads);
  // `git -C <protected> …` works inside that folder whatever the subcommand (its hooks and settings run); the
  // pathspecs after it are judged by the subcommand, as without -C (red team 7: `git -C repo diff -- AGENTS.md`).
  return where.length > 0 ? { ...operands, readOnly: false, writes: [...where, ...operands.writes] } : operands;
};

/** What a git subcommand does to the words after it: reading ones only read, except where an output option points. */
const gitSubcommandOperands = (sub: string | undefined, rest: readonly string[], words: readonly string[], fills: string[], treeReads: readonly string[]): Operands => {
  // A reading subcommand still writes where --output (or format-patch's -o) points (red team 4, e14).
  const output = rest.some((a) => a.startsWith('-o') || a.startsWith('--output')) || sub === 'bundle' ? gitOutputs(sub, rest) : null;
  if (output !== null && output.files.length + output.dirs.length > 0)
    return { ...none, reads: words, readOnly: false, writes: [...output.files, ...output.dirs], fills: [...fills, ...output.dirs], treeReads };
  return sub !== undefined && gitReadSubcommands.has(sub) ? { ...none, reads: words, fills, treeReads } : { ...writeAll(words), fills, treeReads };
};

/**
 * Files git writes where an option says, whatever the subcommand: `git diff --output=F`, `git log --output F`,
 * `git format-patch -o DIR` (patch files land in DIR), `git bundle create F`, `git archive -o F`.
 */
const gitOutputs = (sub: string | undefined, rest: readonly string[]): { files: string[]; dirs: string[] } => {
  const files: string[] = [];
  const dirs: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (arg === '--') break;
    if (arg.startsWith('--output=')) { if (sub === 'format-patch') dirs.push(arg.slice(9)); else files.push(arg.slice(9)); continue; }
    // git takes an unambiguous abbreviation: `--output-dir=D` is --output-directory.
    if (arg.startsWith('--output-d') && arg.includes('=')) { dirs.push(arg.slice(arg.indexOf('=') + 1)); continue; }
    const next = rest[i + 1];
    if (next === undefined) continue;
    if (arg === '--output') { (sub === 'format-patch' ? dirs : files).push(next); i++; }
    else if (/^--output-d[a-z-]*$/.test(arg) || (arg === '-o' && sub === 'format-patch')) { dirs.push(next); i++; }
    else if (arg === '-o' && sub === 'archive') { files.push(next); i++; }
    else if (/^-o./.test(arg) && (sub === 'format-patch' || sub === 'archive')) (sub === 'archive' ? files : dirs).push(arg.slice(2));
  }
  if (sub === 'bundle' && rest[0] === 'create' && rest[1] !== undefined) files.push(rest[1]);
  return { files, dirs };
};

/**
 * Settings that make git run a program (or look for hooks elsewhere) in the repository they are set in: set in
 * tollgate's clone, the next `git status` or commit there runs it. Set elsewhere, or only read, they do nothing here.
 */
const gitCodeKeys = /^(?:core\.(?:hookspath|fsmonitor|sshcommand|gitproxy)|diff\.external|(?:diff|merge|filter)\.[^.]+\.(?:command|textconv|driver|clean|smudge|process)|credential\.helper|uploadpack\.packobjectshook|include\.path|includeif\..+\.path)$/i;
const configRunsCode = (rest: readonly string[]): boolean => {
  if (rest.some((a) => /^(?:--get|--get-all|--get-regexp|-l|--list|--show-origin|--global|--system|--file|-f|--blob|get|list)(?:=|$)/.test(a))) return false;
  const words = rest.filter((a) => !a.startsWith('-') && a !== 'set' && a !== 'add');
  const key = words[0];
  // An alias runs a shell only when its value starts with '!' (`alias.st status` runs git itself).
  return key !== undefined && (gitCodeKeys.test(key) || (/^alias\./i.test(key) && (words[1] ?? '').startsWith('!')));
};

const rewritesWorkTree = (sub: string, rest: readonly string[]): boolean => {
  switch (sub) {
    case 'apply': return !rest.some((a) => ['--check', '--stat', '--numstat', '--summary'].includes(a)) || rest.includes('--index');
    case 'am': case 'clean': case 'restore': case 'cherry-pick': case 'revert': case 'merge': case 'pull': case 'rebase': return true;
    // Red team 5: plumbing and helpers that check files out too.
    case 'checkout-index': case 'mv': return true;
    case 'read-tree': return rest.some((a) => a === '-u' || /^-[a-z]*u/.test(a));
    case 'sparse-checkout': return !['list', 'check-rules'].includes(rest[0] ?? 'list');
    case 'bisect': return !['log', 'visualize', 'view', 'terms', 'help'].includes(rest[0] ?? 'help');
    case 'config': return configRunsCode(rest);
    case 'stash': return !['list', 'show'].includes(rest[0] ?? '');
    case 'reset': return rest.some((a) => a === '--hard' || a === '--merge' || a === '--keep');
    // `git checkout -b topic` keeps the work tree; switching to another branch or checking out paths does not.
    case 'checkout': case 'switch': return !(rest.length === 2 && ['-b', '-B', '-c', '-C'].includes(rest[0]!));
    default: return false;
  }
};

/**
 * cp, install, rsync, scp, ln, mv: sources are read, the destination (last operand or -t DIR) is written, and
 * so is DIR/basename of each source when the destination is a folder. A recursive copy reads its sources whole;
 * `SRC/.` (cp) or `SRC/` (rsync) pours the source's contents into the destination.
 */
export interface CopyLayout {
  readonly options: ParsedOptions;
  /** The -t / --target-directory folder, when given. */
  readonly target: string | null;
  readonly operands: readonly string[];
  /** The destination: -t's folder, else the last operand (`.` for `ln TARGET` alone); null without one. */
  readonly directory: string | null;
  readonly sources: readonly string[];
}

/** How cp, mv, install, ln, rsync and scp split their operands into sources and a destination (one reading for every row). */
export const copyLayout = (command: SimpleCommand): CopyLayout => {
  // rsync reads its own options: its `-t` is --times, not cp's target folder (`rsync -at /tmp/evil/ ~/.hermes/`).
  const rsync = command.program === 'rsync';
  const options = parseOptions(command.args, rsync ? rsyncGrammar : copyGrammar);
  const given = rsync ? undefined : options.short.get('t') ?? options.long.get('target-directory');
  const target = typeof given === 'string' ? given : null;
  const operands = options.operands;
  const ln = command.program === 'ln';
  const directory = target ?? (operands.length >= 2 ? operands[operands.length - 1]! : ln ? '.' : null);
  const sources = target !== null ? operands : operands.length >= 2 ? operands.slice(0, -1) : ln ? operands : [];
  return { options, target, operands, directory, sources };
};

const copyOperands = (command: SimpleCommand, words: readonly string[]): Operands => {
  const { program, args } = command;
  const { options, target: given, operands, directory, sources } = copyLayout(command);
  const target = given ?? undefined;
  const recursive = program === 'mv' || (program === 'rsync' ? options.short.has('a') || isRecursive(args) || options.long.has('archive')
    : options.short.has('a') || options.long.has('archive') || isRecursive(args));
  // A symbolic or hard link to a protected path is a way to it for a later call.
  const links = program === 'ln' || options.short.has('s') || options.long.has('symbolic-link') || options.short.has('l') || options.long.has('link') ? sources : [];
  const sure = typeof target === 'string' || (directory !== null && (/\/$|^\.{1,2}$|\/\.{1,2}$|^~$/.test(directory) || sources.length > 1));
  const pours = (source: string) => program === 'rsync' ? source.endsWith('/') : /(?:^|\/)\.$/.test(source);
  // `cp -rT DIR DEST` (--no-target-directory): DIR's contents land in DEST itself, as `cp -r DIR/. DEST` (red team 6).
  const noTarget = program !== 'rsync' && (options.short.has('T') || options.long.has('no-target-directory'));
  const fills = recursive && directory !== null && (noTarget || sources.some(pours)) ? [directory] : [];
  // `cp --parents a/b DIR` and `rsync -R a/b DIR` land DIR/a/b (rsync: the part after a `/./`), not DIR/b.
  const keepsPath = program === 'cp' ? options.long.has('parents') : program === 'rsync' && (options.short.has('R') || options.long.has('relative'));
  const landed = (source: string): string => {
    const trimmed = source.replace(/\/+$/, '');
    if (!keepsPath) return trimmed.split('/').pop() ?? '';
    const marker = program === 'rsync' ? trimmed.lastIndexOf('/./') : -1;
    return (marker >= 0 ? trimmed.slice(marker + 3) : trimmed).replace(/^\/+/, '');
  };
  const names = sources.filter((s) => !pours(s)).map(landed).filter((n) => n !== '' && n !== '..');
  // A folder copied whole replaces what its name is in DIR (`cp -r /tmp/evil/.hermes ~`).
  // (--parents and -R take the destination as a folder whatever it is spelled.)
  const landings = directory === null || names.length === 0 ? [] : [{ dir: directory, names, sure: sure || keepsPath, whole: recursive && program !== 'ln' }];
  // A link or a backup named on the command line may point anywhere: every option value is also checked as a write.
  // (rsync's --exclude/--include values are name patterns, not files.)
  const optionValues = args.filter((a) => a.startsWith('-') && !(program === 'rsync' && /^--(?:exclude|include)=/.test(a))).flatMap(wordsIn).slice(1);
  const writes = typeof target === 'string' ? [target] : directory === null ? optionValues : [...wordsIn(directory), ...optionValues];
  // rsync --link-dest/--copy-dest/--compare-dest=DIR: the destination's files are hard links to (or copies of) DIR's,
  // a relative DIR counting from the destination (red team 4, d09).
  const bases = program === 'rsync' ? rsyncBaseDirs(args, directory) : [];
  const unsure = (program === 'cp' || program === 'install') && typeof target !== 'string' && operands.length >= 3 && directory !== null && !/\/$|^\.{1,2}$|\/\.{1,2}$|^~$/.test(directory)
    ? { writtenUnlessFolder: { dir: directory, words: sources.slice(1).flatMap(wordsIn) } } : {};
  // rsync's --exclude NAME leaves that name out of the walk (`rsync -a --exclude=.tollgate ~/ /backup/`).
  const walk = program === 'rsync' && args.some((a) => a.startsWith('--exclude')) ? { treeWalk: rsyncFilter(args) } : {};
  return { writes, reads: words, trees: [], code: [], readOnly: false, landings, fills, treeReads: recursive && program !== 'mv' ? [...sources, ...bases] : bases, linkTargets: bases.length === 0 ? links : [...links, ...bases], ...unsure, ...walk };
};

const rsyncBaseOptions = ['--link-dest', '--copy-dest', '--compare-dest'];
const rsyncBaseDirs = (args: readonly string[], destination: string | null): string[] => {
  if (!args.some((a) => a.startsWith('--') && a.endsWith('-dest') || a.includes('-dest='))) return [];
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (!rsyncBaseOptions.includes(name)) continue;
    const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined || value === '') continue;
    out.push(value);
    if (!/^[/~$]/.test(value) && destination !== null) out.push(`${destination.replace(/\/+$/, '')}/${value}`);
  }
  return out;
};

const socatFileAddress = /^(?:open|gopen|create|creat|pipe|unix-listen|unix-l|unix-recvfrom|unix-recv|unix-sendto|unix-connect|unix-client|unix|local|pty|file|abstract-listen|abstract-l):/i;
/** The paths inside one socat address: after a file address's keyword, and in `link=`, `path=` style options. */
const socatPaths = (address: string): string[] => {
  if (!address.includes(':') && !address.includes('=')) return [];
  const out: string[] = [];
  const keyword = socatFileAddress.exec(address);
  if (keyword !== null) out.push(address.slice(keyword[0].length).split(',')[0]!);
  for (const m of address.matchAll(/,(?:link|symbolic-link|path|tmp|lockfile|waitlock|chroot|chroot-early)=([^,]+)/gi)) out.push(m[1]!);
  return out.filter((p) => p !== '');
};

const mountGrammar = { shortWithValue: 'otOTLUN', longWithValue: ['options', 'types', 'test-opts', 'label', 'uuid', 'source', 'target', 'namespace'] };
/** bindfs: SRC DIR. mount: only a bind (`--bind`, `--rbind`, `-B`, `-R`, `-o bind`) makes SRC a second name; either way DIR is written. */
const bindOperands = (command: SimpleCommand, words: readonly string[]): Operands => {
  const options = parseOptions(command.args, command.program === 'bindfs' ? { shortWithValue: 'oupgm', longWithValue: ['perms', 'mirror', 'mirror-only', 'map', 'force-user', 'force-group'] } : mountGrammar);
  const source = options.operands.length >= 2 ? options.operands[0]! : null;
  const opts = options.short.get('o') ?? options.long.get('options');
  const binds = command.program !== 'mount' || options.short.has('B') || options.short.has('R') || options.long.has('bind') || options.long.has('rbind')
    || (typeof opts === 'string' && /(?:^|,)r?bind(?:,|$)/.test(opts));
  // An overlay's layers (`-o lowerdir=A:B,upperdir=C`) show their files under the mount point; upperdir takes its writes.
  const layers = typeof opts === 'string' && /dir=/.test(opts) ? [...opts.matchAll(/(?:lowerdir|upperdir|workdir)=([^,]+)/g)].flatMap((m) => m[1]!.split(':')) : [];
  const sources = [...(binds && source !== null ? [source] : []), ...layers];
  // The mount point's whole tree is replaced for every program (`mount -t tmpfs none CLONE`, `bindfs /tmp/x ~/.hermes`).
  const target = options.long.get('target') ?? options.operands[options.operands.length - 1];
  const trees = typeof target === 'string' ? [target] : [];
  return sources.length > 0 ? { ...writeAll(words), trees, linkTargets: sources, treeReads: sources } : { ...writeAll(words), trees };
};

const findNameTests = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname']);

/**
 * The folders whose files a find lists may include a secret: its start folders, unless every name filter it has
 * is a plain glob that no secret's file name matches. A negation, -regex or an -o keeps them all (fail closed).
 */
export const findListedFolders = (find: SimpleCommand): { readonly folders: readonly string[]; readonly namedLikeSecrets: boolean } => listedFolders(find.args);

const listedFolders = (args: readonly string[]): { readonly folders: readonly string[]; readonly namedLikeSecrets: boolean } => {
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const starts = firstExpression < 0 ? [...args] : args.slice(0, firstExpression);
  if (starts.length === 0) starts.push('.');
  let filtered = false;
  for (let i = Math.max(0, firstExpression); i < args.length && firstExpression >= 0; i++) {
    const arg = args[i]!;
    if (arg === '!' || arg === '-not' || arg === '-o' || arg === '-or' || arg === ',' || /^-i?regex$/.test(arg)) return { folders: starts, namedLikeSecrets: false };
    if (!findNameTests.has(arg)) continue;
    const pattern = args[++i];
    if (pattern === undefined) return { folders: starts, namedLikeSecrets: false };
    filtered = true;
    // A whole-path pattern depends on where the keys lie below each start: kept (fail closed).
    if (arg.includes('path') || arg.includes('wholename')) return { folders: starts, namedLikeSecrets: true };
    if (secretFileNames.some((name) => globMatchesName(pattern, name, arg.startsWith('-i')))) return { folders: starts, namedLikeSecrets: true };
  }
  return { folders: filtered ? [] : starts, namedLikeSecrets: false };
};

const regexSpecial = /[.+^${}()|\\[\]*?]/;
/** fnmatch as find reads it: `*`, `?`, `[...]` classes (`[!x]` negated), a backslash quoting the next character. */
const fnmatchSource = (glob: string): string => {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) { const next = glob[++i]!; source += regexSpecial.test(next) ? `\\${next}` : next; }
    else if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) { source += '\\['; continue; }
      const body = glob.slice(i + 1, end);
      source += `[${body.replace(/^[!^]/, '^').replace(/\\/g, '\\\\')}]`;
      i = end;
    } else source += regexSpecial.test(c) ? `\\${c}` : c;
  }
  return source;
};

// Compiled once per pattern (the same filters come back line after line); null when JavaScript cannot compile it.
const compiledFnmatch = boundedMemo((key: string): RegExp | null => {
  const caseless = key.startsWith('i');
  try { return new RegExp(`^${fnmatchSource(key.slice(2))}$`, caseless ? 'is' : 's'); } catch { return null; }
});
const globMatchesName = (glob: string, name: string, caseless: boolean): boolean => {
  const pattern = compiledFnmatch(`${caseless ? 'i' : '-'}\u0000${glob}`);
  return pattern === null || pattern.test(name);
};
