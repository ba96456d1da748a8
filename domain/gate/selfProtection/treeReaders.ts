/**
 * Recursive searchers: the folders they walk and print file contents from, and what the walk skips. A search
 * that prints only names or counts reads no secret out; one given no folder walks the working directory; the
 * first operand is the pattern unless an option gives it. What really skips tollgate's data folder is kept
 * (rg and ag leave dot names out without --hidden, `--exclude-dir=`, `-g '!…'`, `--include='*.ts'`); what the
 * gate cannot read (ignore files, `-t TYPE`, a glob with a '/') skips nothing. One row per family; each row's
 * examples run through the real bash grammar (treeReaders.spec.ts).
 */
import { parseOptions, type OptionGrammar, type ParsedOptions } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { NameRule, WalkFilter } from './secretWalks.ts';
import type { Operands } from './shellOperands.ts';

export interface SearcherRow {
  readonly name: string;
  readonly programs: readonly string[];
  readonly grammar: OptionGrammar;
  /** Whether the search walks folders at all (grep needs -r; rg, ag and ack always do, unless told not to). */
  readonly recursive: (options: ParsedOptions) => boolean;
  /** Whether it prints only file names or counts (`-l`, `-c`, `-q`, `--files`): no contents come out. */
  readonly namesOnly: (options: ParsedOptions, args: readonly string[]) => boolean;
  /** The words that are the program's own, when some belong to a command it runs (fd's `-x cat {} ;`). */
  readonly ownWords?: (args: readonly string[]) => readonly string[];
  /** Whether an option gives the pattern (`-e`, `-f`): then every operand is a file or folder. */
  readonly patternGiven: (options: ParsedOptions) => boolean;
  /** What the walk skips, from the options in the order given. */
  readonly filter: (args: readonly string[], options: ParsedOptions) => WalkFilter;
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

const has = (options: ParsedOptions, shorts: string, longs: readonly string[]): boolean =>
  [...shorts].some((s) => options.short.has(s)) || longs.some((l) => options.long.has(l));

/** The values of the named options in the order written (`--exclude-dir=a --exclude-dir b`), each with its option. */
const orderedValues = (args: readonly string[], longs: ReadonlySet<string>, shorts = ''): { option: string; value: string }[] => {
  const out: { option: string; value: string }[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      if (!longs.has(name)) continue;
      const value = eq < 0 ? args[++i] : arg.slice(eq + 1);
      if (value !== undefined) out.push({ option: name, value });
    } else if (shorts !== '' && arg.length >= 2 && arg[0] === '-' && shorts.includes(arg[1]!)) {
      const value = arg.length > 2 ? arg.slice(2) : args[++i];
      if (value !== undefined) out.push({ option: arg[1]!, value });
    }
  }
  return out;
};

/** An include or exclude glob the gate can read against one name: none with a '/' (those match whole paths). */
const nameGlob = (glob: string): boolean => glob !== '' && !glob.includes('/');

// GNU grep: --include/--exclude judge files, --exclude-dir folders; among the file options the last that matches
// wins, and a file none matches is read unless the first of them is --include.
const grepFilter = (args: readonly string[]): WalkFilter => {
  const values = orderedValues(args, grepFilterOptions);
  const fileRules: NameRule[] = [];
  const dirRules: NameRule[] = [];
  let firstFileOption: string | null = null;
  for (const { option, value } of values) {
    if (option === 'exclude-dir') { if (nameGlob(value)) dirRules.push({ glob: value, keep: false }); continue; }
    firstFileOption ??= option;
    if (nameGlob(value)) fileRules.push({ glob: value, keep: option === 'include' });
    else if (option === 'include') return { hidden: true, dirRules, fileRules: [], unmatchedFilesKept: true };
  }
  return { hidden: true, dirRules, fileRules, unmatchedFilesKept: firstFileOption !== 'include' };
};
const grepFilterOptions = new Set(['include', 'exclude', 'exclude-dir']);

// rg: `-g GLOB` keeps, `-g '!GLOB'` skips (files and folders), the last match wins; once a keeping glob is given a
// file none matches is left out. --hidden, `-.` or `-uu` walk dot names too.
const rgFilter = (args: readonly string[], options: ParsedOptions): WalkFilter => {
  const unrestricted = args.reduce((n, a) => n + (a === '--unrestricted' ? 1 : /^-[a-zA-Z.]*u/.test(a) && !a.startsWith('--') ? (a.match(/u/g) ?? []).length : 0), 0);
  const hidden = options.long.has('hidden') || options.short.has('.') || unrestricted >= 2;
  const rules: NameRule[] = [];
  let keeps = false;
  let unreadKeep = false;
  for (const { option, value } of orderedValues(args, rgGlobOptions, 'g')) {
    const keep = !value.startsWith('!');
    const glob = keep ? value : value.slice(1);
    if (!nameGlob(glob.replace(/^\*\*\//, ''))) { if (keep) unreadKeep = true; continue; }
    if (keep) keeps = true;
    rules.push({ glob: glob.replace(/^\*\*\//, ''), keep, caseless: option === 'iglob' || options.long.has('glob-case-insensitive') });
  }
  return { hidden, dirRules: rules.filter((r) => !r.keep), fileRules: rules, unmatchedFilesKept: !keeps || unreadKeep };
};
const rgGlobOptions = new Set(['glob', 'iglob']);

// ag: --ignore skips files and folders, --ignore-dir folders; --hidden or -u walks dot names.
const agFilter = (args: readonly string[], options: ParsedOptions): WalkFilter => {
  const hidden = has(options, 'u', ['hidden', 'unrestricted']);
  const values = orderedValues(args, agIgnoreOptions).filter((v) => nameGlob(v.value));
  const skip = values.map((v) => ({ glob: v.value, keep: false }));
  return { hidden, dirRules: skip, fileRules: values.filter((v) => v.option === 'ignore').map((v) => ({ glob: v.value, keep: false })), unmatchedFilesKept: true };
};
const agIgnoreOptions = new Set(['ignore', 'ignore-dir']);

// ack: --ignore-dir skips folders by name; the rest of its filters are file types the gate does not follow.
const ackFilter = (args: readonly string[]): WalkFilter => {
  const dirs = orderedValues(args, ackIgnoreOptions).filter((v) => nameGlob(v.value)).map((v) => ({ glob: v.value, keep: false }));
  return { hidden: true, dirRules: dirs, fileRules: [], unmatchedFilesKept: true };
};
const ackIgnoreOptions = new Set(['ignore-dir', 'ignore-directory']);

// diff: -x / --exclude skip files and folders by name.
const diffFilter = (args: readonly string[]): WalkFilter => {
  const skip = orderedValues(args, diffExcludeOptions, 'x').filter((v) => nameGlob(v.value)).map((v) => ({ glob: v.value, keep: false }));
  return { hidden: true, dirRules: skip, fileRules: skip, unmatchedFilesKept: true };
};
const diffExcludeOptions = new Set(['exclude']);

// fd: -E skips files and folders, -e EXT keeps only files with that extension; -H or -u walks dot names.
const fdFilter = (args: readonly string[], options: ParsedOptions): WalkFilter => {
  const hidden = has(options, 'Hu', ['hidden', 'unrestricted']);
  const values = orderedValues(fdOwn(args), fdFilterOptions, 'Ee');
  const skip = values.filter((v) => (v.option === 'E' || v.option === 'exclude') && nameGlob(v.value)).map((v) => ({ glob: v.value, keep: false }));
  const extensions = values.filter((v) => v.option === 'e' || v.option === 'extension').map((v) => ({ glob: `*.${v.value.replace(/^\./, '')}`, keep: true, caseless: true }));
  return { hidden, dirRules: skip, fileRules: [...extensions, ...skip], unmatchedFilesKept: extensions.length === 0 };
};
const fdFilterOptions = new Set(['exclude', 'extension']);
/** fd's own words: `-x` / `-X` take the words up to a `;` (or the end) as the command they run. */
const fdExec = new Set(['-x', '-X', '--exec', '--exec-batch']);
const fdOwn = (args: readonly string[]): readonly string[] => {
  const own: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (!fdExec.has(args[i]!)) { own.push(args[i]!); continue; }
    while (i + 1 < args.length && args[i + 1] !== ';') i++;
    i++;
  }
  return own;
};
const runsOnEach = (args: readonly string[]): boolean => args.some((a) => fdExec.has(a));

const grepGrammar: OptionGrammar = {
  shortWithValue: 'efmABCdD',
  longWithValue: ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'directories', 'devices', 'include', 'exclude', 'exclude-dir', 'exclude-from', 'label', 'binary-files'],
};
const grepRecursive = (options: ParsedOptions): boolean => {
  if (options.short.has('r') || options.short.has('R') || options.long.has('dereference-recursive')) return true;
  if ([...options.long.keys()].some((name) => name.length >= 3 && 'recursive'.startsWith(name))) return true;
  const directories = options.short.get('d') ?? options.long.get('directories');
  // `-d recurse`; a value the gate cannot read may be it.
  return typeof directories === 'string' && (directories === 'recurse' || /[$`]/.test(directories));
};

export const searcherRows: readonly SearcherRow[] = [
  {
    name: 'grep',
    programs: ['grep', 'egrep', 'fgrep'],
    grammar: grepGrammar,
    recursive: grepRecursive,
    namesOnly: (o) => has(o, 'lLcq', ['files-with-matches', 'files-without-match', 'count', 'quiet', 'silent']),
    patternGiven: (o) => has(o, 'ef', ['regexp', 'file']),
    filter: grepFilter,
    stops: ['grep -r . /home/agent/project', "grep -r --include='*.key' . /home/agent/project", 'grep -R -e x -- /home/agent/project/data',
      'cd /home/agent/project && grep -r token', 'grep -d recurse x /home/agent/project/data', "grep -r --exclude-dir=keys --include='*' x /home/agent/project/data/http-token /tmp",
      'grep -r --exclude=*.md x /home/agent/project', 'grep --recursive x /home/agent/project/data/keys'],
    allows: ['grep -r TODO /home/agent/project/src', 'grep -r . /home/agent/project/src', "grep -r --include='*.ts' x /home/agent/project",
      'grep -r --exclude-dir=data x /home/agent/project', 'grep -rl token /home/agent/project', 'grep -rc x /home/agent/project', 'grep x /home/agent/project/README.md',
      'cd /home/agent/project/src && grep -rn foo .', "grep -r --exclude-dir=keys --include='*.ts' x /home/agent/project"],
  },
  {
    name: 'ugrep',
    programs: ['ugrep', 'ug'],
    grammar: grepGrammar,
    recursive: () => true,
    namesOnly: (o) => has(o, 'lLcq', ['files-with-matches', 'files-without-match', 'count', 'quiet', 'silent']),
    patternGiven: (o) => has(o, 'ef', ['regexp', 'file']),
    filter: grepFilter,
    stops: ['ugrep -r . /home/agent/project', 'ug -r token /home/agent/project/data'],
    allows: ['ugrep -r TODO /home/agent/project/src', 'ugrep -rl x /home/agent/project'],
  },
  {
    name: 'ripgrep',
    programs: ['rg'],
    grammar: {
      shortWithValue: 'ABCefgtTmMjdrE',
      longWithValue: ['after-context', 'before-context', 'context', 'regexp', 'file', 'glob', 'iglob', 'type', 'type-not', 'type-add', 'type-clear', 'max-count', 'max-columns',
        'threads', 'max-depth', 'replace', 'encoding', 'colors', 'color', 'context-separator', 'field-context-separator', 'field-match-separator', 'path-separator', 'pre', 'pre-glob',
        'sort', 'sortr', 'engine', 'dfa-size-limit', 'regex-size-limit', 'max-filesize', 'ignore-file', 'hyperlink-format'],
    },
    recursive: () => true,
    // (-L is --follow in rg, not a names-only flag.)
    namesOnly: (o) => has(o, 'lcq', ['files-with-matches', 'files-without-match', 'count', 'count-matches', 'quiet', 'files', 'type-list']),
    patternGiven: (o) => has(o, 'ef', ['regexp', 'file', 'files', 'type-list']),
    filter: rgFilter,
    stops: ['rg token /home/agent/project', 'rg --hidden -uu . /home/agent/project/data', 'rg -L x /home/agent/project/data', "rg -g '*.key' x /home/agent/project",
      "rg -g '!*.md' x /home/agent/project", 'cd /home/agent/project && rg x', 'rg -uu x /srv/x /home/agent/project/data'],
    allows: ['rg TODO /home/agent/project/src', 'rg --files /home/agent/project', 'rg -c TODO /home/agent/project', 'rg -l x /home/agent/project',
      "rg -g '*.ts' x /home/agent/project", "rg -g '!data' x /home/agent/project", "rg -g '!keys' -g '!http-token' x /home/agent/project/data", "rg --iglob '!DATA' x /home/agent/project"],
  },
  {
    name: 'the-silver-searcher',
    programs: ['ag'],
    grammar: {
      shortWithValue: 'ABCGgmpW',
      longWithValue: ['after', 'before', 'context', 'file-search-regex', 'ignore', 'ignore-dir', 'max-count', 'path-to-ignore', 'depth', 'width', 'pager'],
    },
    recursive: (o) => !has(o, 'n', ['norecurse']),
    namesOnly: (o) => has(o, 'lLcg', ['files-with-matches', 'files-without-matches', 'count', 'list-file-types']),
    patternGiven: () => false,
    filter: agFilter,
    stops: ['ag token /home/agent/project', 'ag --hidden x /home/agent/project/data', 'ag --ignore=*.md x /home/agent/project'],
    allows: ['ag TODO /home/agent/project/src', 'ag -l x /home/agent/project', 'ag --ignore-dir=data x /home/agent/project', 'ag -n x /home/agent/project'],
  },
  {
    name: 'ack',
    programs: ['ack', 'ack-grep'],
    grammar: { shortWithValue: 'ABCm', longWithValue: ['after-context', 'before-context', 'context', 'max-count', 'ignore-dir', 'ignore-directory', 'ignore-file', 'type-add', 'type-set', 'type-del', 'output', 'match'] },
    recursive: (o) => !has(o, 'n', ['no-recurse']),
    namesOnly: (o) => has(o, 'lLcfg', ['files-with-matches', 'files-without-matches', 'count']),
    patternGiven: (o) => has(o, 'fg', ['match']),
    filter: ackFilter,
    stops: ['ack token /home/agent/project', 'ack x /home/agent/project/data/keys'],
    allows: ['ack TODO /home/agent/project/src', 'ack -l x /home/agent/project', 'ack --ignore-dir=data x /home/agent/project'],
  },
  {
    name: 'diff',
    programs: ['diff'],
    grammar: { shortWithValue: 'CDFILSUWXx', longWithValue: ['exclude', 'exclude-from', 'starting-file', 'label', 'ignore-matching-lines', 'show-function-line', 'ifdef', 'width', 'tabsize', 'from-file', 'to-file'] },
    // Files that differ are printed whole, against an empty copy too (`diff -r data /tmp/empty-copy`).
    recursive: (o) => has(o, 'r', ['recursive']),
    namesOnly: (o) => has(o, 'q', ['brief']),
    patternGiven: () => true,
    filter: diffFilter,
    stops: ['diff -r /home/agent/project/data /tmp/x', 'diff -rN /tmp/empty /home/agent/project', 'cd /home/agent/project && diff -ru . /tmp/old'],
    allows: ['diff -r src /tmp/src', 'diff -rq /home/agent/project /tmp/p', 'diff -r -x data /home/agent/project /tmp/p', 'diff /home/agent/project/README.md /tmp/R.md'],
  },
  {
    name: 'fd',
    programs: ['fd', 'fdfind'],
    grammar: { shortWithValue: 'dEetjSco', longWithValue: ['max-depth', 'min-depth', 'exact-depth', 'exclude', 'extension', 'type', 'threads', 'size', 'color', 'owner', 'changed-within', 'changed-before', 'base-directory', 'search-path', 'path-separator', 'max-results', 'ignore-file'] },
    recursive: () => true,
    // Without -x / -X it prints names only.
    namesOnly: (_, args) => !runsOnEach(args),
    ownWords: fdOwn,
    patternGiven: () => false,
    filter: fdFilter,
    stops: ['fd . /home/agent/project -x cat', 'cd /home/agent/project && fd -X cat', 'fd -H -E .git -x base64 {} \\; . /home/agent/project/data'],
    allows: ['fd foo /home/agent/project', 'fd -e ts . /home/agent/project -x cat', 'fd . /home/agent/project/src -x wc -l', 'fd -E data . /home/agent/project -x cat'],
  },
];

/**
 * rsync's --exclude / --include (the first rule that matches a name decides): a name pattern without '/' matches
 * at any depth, a trailing '/' only folders. Filter rules, rule files and path patterns are not read: an
 * include the gate cannot read ends the list (it may keep what a later exclude names).
 */
export const rsyncFilter = (args: readonly string[]): WalkFilter => {
  if (args.some((a) => /^--(?:filter|exclude-from|include-from|files-from)(?:=|$)|^-[a-zA-Z]*[fF]/.test(a))) return { hidden: true, dirRules: [], fileRules: [], unmatchedFilesKept: true };
  const firstFirst: NameRule[] = [];
  for (const { option, value } of orderedValues(args, rsyncRuleOptions)) {
    const keep = option === 'include';
    const folderOnly = value.endsWith('/');
    const glob = value.replace(/\/+$/, '');
    if (!nameGlob(glob) || glob.includes('**')) { if (keep) break; continue; }
    firstFirst.push({ glob: folderOnly ? `${glob}\u0000/` : glob, keep });
  }
  // The walk's rules decide by the last match: reversed, the first match wins. A folder-only rule never matches a file.
  const rules = firstFirst.reverse();
  return {
    hidden: true,
    dirRules: rules.map((r) => ({ ...r, glob: r.glob.replace('\u0000/', '') })),
    fileRules: rules.filter((r) => !r.glob.endsWith('\u0000/')),
    unmatchedFilesKept: true,
  };
};
const rsyncRuleOptions = new Set(['exclude', 'include']);

const byProgram: ReadonlyMap<string, SearcherRow> = new Map(searcherRows.flatMap((row) => row.programs.map((p) => [p, row] as const)));

/** Whether the program is one of the table's searchers (a Map lookup, before any parsing). */
export const isSearcher = (program: string): boolean => byProgram.has(program);

/** Searchers that print only the lines their pattern matches (not diff's whole files, nor fd's command per file). */
const lineSearchers = new Set(['grep', 'ugrep', 'ripgrep', 'the-silver-searcher', 'ack']);
export const printsMatchingLines = (program: string): boolean => lineSearchers.has(byProgram.get(program)?.name ?? '');

/** A searcher's operands: every word is read; the folders it walks are read whole, through its filter. */
export const searcherOperands = (command: SimpleCommand, words: readonly string[]): Operands | null => {
  const row = byProgram.get(command.program);
  if (row === undefined) return null;
  const own = row.ownWords?.(command.args) ?? command.args;
  const options = parseOptions(own, row.grammar);
  const reading: Operands = { writes: [], reads: words, trees: [], code: [], readOnly: true };
  if (!row.recursive(options) || row.namesOnly(options, command.args)) return reading;
  const operands = row.patternGiven(options) ? options.operands : options.operands.slice(1);
  // With no file or folder given, a recursive search walks the working directory.
  return { ...reading, treeReads: operands.length === 0 ? ['.'] : operands, treeWalk: row.filter(own, options) };
};
