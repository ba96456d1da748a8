/**
 * What one simple command does with the words it is given, as far as self-protection cares: which it may write
 * (or delete, or chmod), which it only reads, and which it removes with everything below them. A program not on
 * the short read-only list is taken to write every path it names: `vim tollgate.yaml`, `sqlite3 data/ledger.db`,
 * `python3 tool.py ~/.hermes/config.yaml` are all writes as far as the floor knows.
 */
import { parseOptions } from '../../shell/commandOptions.ts';
import { writtenFiles } from '../../shell/commandFacts.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { isTollgateControl } from './controlCommands.ts';

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
}

/** Programs that read the files they name and write none (their output goes to stdout). */
export const readOnlyPrograms: ReadonlySet<string> = new Set([
  'cat', 'head', 'tail', 'less', 'more', 'grep', 'egrep', 'fgrep', 'rg', 'ag', 'ls', 'stat', 'wc', 'file', 'sha256sum', 'sha1sum',
  'sha512sum', 'md5sum', 'b2sum', 'cksum', 'diff', 'cmp', 'du', 'df', 'realpath', 'readlink', 'basename', 'dirname', 'echo',
  'printf', 'test', '[', '[[', 'tree', 'jq', 'bat', 'nl', 'cut', 'column', 'xxd', 'od', 'hexdump', 'strings', 'base64', 'cd',
  'pushd', 'popd', 'pwd', 'type', 'which', 'true', 'false', 'sleep', 'date', 'uniq', 'tr', 'fold', 'fmt', 'rev', 'tac', 'zcat',
]);

/** Programs that run code given in their arguments: paths inside that code count. */
const interpreters = /^(?:python[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|osascript|lua|Rscript)$/;

const gitReadSubcommands = new Set(['log', 'diff', 'show', 'status', 'blame', 'ls-files', 'grep', 'rev-parse', 'describe', 'shortlog', 'cat-file']);
const copyGrammar = { shortWithValue: 'tSgmoB', longWithValue: ['target-directory', 'suffix', 'group', 'mode', 'owner', 'backup'] };
const sedGrammar = { shortWithValue: 'efl', shortAttachedOnly: 'i', longWithValue: ['expression', 'file', 'line-length'] };
const sortGrammar = { shortWithValue: 'otTSk', longWithValue: ['output', 'field-separator', 'temporary-directory', 'buffer-size', 'key'] };

const none: Operands = { writes: [], reads: [], trees: [], code: [], readOnly: true };

// Several rows ask about the same command of one line; the answer is computed once per command object.
const memo = new WeakMap<SimpleCommand, Operands>();

export const operandsOf = (command: SimpleCommand): Operands => {
  let operands = memo.get(command);
  if (operands === undefined) memo.set(command, operands = computeOperands(command));
  return operands;
};

const computeOperands = (command: SimpleCommand): Operands => {
  const redirectWrites = writtenFiles(command);
  const redirectReads = command.redirects.filter((r) => r.op.startsWith('<') && !r.op.startsWith('<<') && !r.op.includes('>')).map((r) => r.target);
  const own = programOperands(command);
  if (redirectWrites.length === 0 && redirectReads.length === 0) return own;
  return { ...own, writes: [...own.writes, ...redirectWrites], reads: [...own.reads, ...redirectReads] };
};

const programOperands = (command: SimpleCommand): Operands => {
  const { program, args } = command;
  const words = args.flatMap(wordsIn);
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
    case 'git': return gitOperands(args, words);
    // tollgate's read-only subcommands read its files (`tollgate verify --config tollgate.yaml`); the rest are refused anyway.
    case 'tollgate': return isTollgateControl(command) ? writeAll(words) : { ...none, reads: words };
    case 'cp': case 'install': case 'rsync': case 'scp': return copyOperands(command, words);
    case 'mv': return { ...writeAll(words), trees: parseOptions(args, copyGrammar).operands };
    case 'rm': case 'rmdir': case 'shred': case 'unlink':
      return { ...writeAll(words), trees: program === 'rmdir' || isRecursive(args) ? parseOptions(args).operands : [] };
    case 'chmod': case 'chown': case 'chgrp':
      return { ...writeAll(words), trees: isRecursive(args) ? parseOptions(args).operands : [] };
    default: break;
  }
  if (readOnlyPrograms.has(program)) return { ...none, reads: words };
  // The code an interpreter runs: its arguments (-c, -e) and a heredoc or here-string it reads.
  return { ...writeAll(words), code: interpreters.test(program) ? [...args, ...(command.stdin === undefined ? [] : [command.stdin])] : [] };
};

const writeAll = (words: readonly string[]): Operands => ({ writes: words, reads: words, trees: [], code: [], readOnly: false });

/** The word itself, and the value of `--opt=VALUE`, `KEY=VALUE` (dd of=), `-oVALUE`, curl's `@FILE`. */
export const wordsIn = (arg: string): string[] => {
  const out = [arg];
  const eq = /^(?:--?[A-Za-z][\w-]*|[A-Za-z_][\w]*)=(.*)$/s.exec(arg);
  if (eq !== null) out.push(eq[1]!);
  const attached = /^-[A-Za-z]([~/.].*)$/s.exec(arg);
  if (attached !== null) out.push(attached[1]!);
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
  return inPlace ? writeAll(files.flatMap(wordsIn)) : { ...none, reads: files };
};

const findValueActions = new Set(['-fprint', '-fprint0', '-fprintf', '-fls']);
const findOperands = (args: readonly string[], words: readonly string[]): Operands => {
  const firstExpression = args.findIndex((a) => a.startsWith('-') || a === '(' || a === '!');
  const starts = firstExpression < 0 ? args : args.slice(0, firstExpression);
  const deletes = args.includes('-delete');
  const outputs = args.flatMap((a, i) => findValueActions.has(a) && args[i + 1] !== undefined ? [args[i + 1]!] : []);
  if (!deletes && outputs.length === 0) return { ...none, reads: words };
  return { writes: deletes ? [...starts, ...outputs] : outputs, reads: words, trees: deletes ? starts : [], code: [], readOnly: false };
};

const gitValueOptions = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path']);
const gitOperands = (args: readonly string[], words: readonly string[]): Operands => {
  const where: string[] = [];
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) {
    const arg = args[i]!;
    const eq = /^--(?:git-dir|work-tree)=(.*)$/.exec(arg);
    if (eq !== null) where.push(eq[1]!);
    if (gitValueOptions.has(arg)) {
      if (arg !== '-c' && args[i + 1] !== undefined) where.push(args[i + 1]!);
      i += 2;
    } else i += 1;
  }
  // `git -C <protected> …` works inside that folder whatever the subcommand; reading subcommands elsewhere only read.
  if (where.length > 0) return { ...writeAll(words), writes: [...where, ...words] };
  const sub = args[i];
  return sub !== undefined && gitReadSubcommands.has(sub) ? { ...none, reads: words } : writeAll(words);
};

/** cp, install, rsync, scp: sources are read, the destination (last operand or -t DIR) is written. */
const copyOperands = (command: SimpleCommand, words: readonly string[]): Operands => {
  const options = parseOptions(command.args, copyGrammar);
  const target = options.short.get('t') ?? options.long.get('target-directory');
  if (typeof target === 'string') return { writes: [target], reads: words, trees: [], code: [], readOnly: false };
  const operands = options.operands;
  const destination = operands.length >= 2 ? operands[operands.length - 1]! : operands[0];
  // A link or a backup named on the command line may point anywhere: every option value is also checked as a write.
  const optionValues = command.args.filter((a) => a.startsWith('-')).flatMap(wordsIn).slice(1);
  return { writes: destination === undefined ? optionValues : [...wordsIn(destination), ...optionValues], reads: words, trees: [], code: [], readOnly: false };
};
