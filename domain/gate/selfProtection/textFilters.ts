/**
 * What a pipeline stage does to the text it hands on (red team 9: `sed -n 2p f | sh`, `sed s/X//g f | bash`).
 * A line selector (cat, head, grep, sort, `sed -n 2p`, `awk 'NR==2'`) passes on some of its files' lines as they
 * are: whatever runs is in those files, so the floor judges the files' text. A rewriter (sed's s command, awk's
 * fields, cut, envsubst, jq, tr, the decoders) computes new text the floor does not follow: fed to a shell, it is
 * hidden text, refused like a download. One table, read by the rows that judge where piped text lands.
 */
import { parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';

export type FilterEffect = 'selects-lines' | 'rewrites';

interface FilterRow {
  readonly grammar: OptionGrammar;
  /** How the stage treats its text, given its arguments. */
  readonly effect: (args: readonly string[]) => FilterEffect;
  /** Operands that are the program's own script, not files (grep's pattern, sed's script, awk's program). */
  readonly scriptOperand: (args: readonly string[]) => boolean;
}

const selects = (): FilterEffect => 'selects-lines';
const rewrites = (): FilterEffect => 'rewrites';
const noScript = (): boolean => false;

const grepGrammar: OptionGrammar = { shortWithValue: 'efmABCdD', longWithValue: ['regexp', 'file', 'max-count', 'after-context', 'before-context', 'context', 'devices', 'directories', 'label', 'include', 'exclude', 'exclude-dir', 'color', 'colour', 'binary-files'] };
/** `-o` prints pieces of lines: a piece of a harmless line may be a command of its own. */
const grepEffect = (args: readonly string[]): FilterEffect => {
  const { short, long } = parseOptions(args, grepGrammar);
  return short.has('o') || long.has('only-matching') ? 'rewrites' : 'selects-lines';
};
const grepPattern = (args: readonly string[]): boolean => {
  const { short, long } = parseOptions(args, grepGrammar);
  return !(short.has('e') || short.has('f') || long.has('regexp') || long.has('file'));
};

const sedGrammar: OptionGrammar = { shortWithValue: 'efl', shortAttachedOnly: 'i', longWithValue: ['expression', 'file', 'line-length'] };
/** A sed script of addresses and p, d, q, n only: it prints lines of its input, unchanged. */
const sedSelection = /^(?:\s*(?:(?:\d+|\$|\/[^/\n]*\/)(?:\s*[,~]\s*(?:\d+|\$|\/[^/\n]*\/))?)?\s*!?\s*[pdqQnN]?\s*[;\n]?)+$/;
const sedScripts = (args: readonly string[]): string[] => {
  const { short, long, operands } = parseOptions(args, sedGrammar);
  const given = [short.get('e'), long.get('expression')].filter((v): v is string => typeof v === 'string');
  if (short.has('f') || long.has('file')) return ['f'];
  return given.length > 0 ? given : operands.slice(0, 1);
};
const sedEffect = (args: readonly string[]): FilterEffect => {
  const { short } = parseOptions(args, sedGrammar);
  // In place (`-i`) it writes files and prints nothing; a script file's commands are not read here.
  if (short.has('i')) return 'rewrites';
  return sedScripts(args).every((s) => s !== 'f' && sedSelection.test(s)) ? 'selects-lines' : 'rewrites';
};
const sedScriptOperand = (args: readonly string[]): boolean => {
  const { short, long } = parseOptions(args, sedGrammar);
  return !(short.has('e') || short.has('f') || long.has('expression') || long.has('file'));
};

const awkGrammar: OptionGrammar = { shortWithValue: 'fFvEilW', longWithValue: ['file', 'field-separator', 'assign', 'exec', 'include', 'load', 'source'] };
/** An awk program that is only a pattern (`NR==2`, `/x/`), or prints the whole line: it selects lines. */
const awkSelection = /^\s*(?:[^{}]*?)\s*(?:\{\s*print\s*(?:\$0)?\s*;?\s*\})?\s*$/;
const awkEffect = (args: readonly string[]): FilterEffect => {
  const { short, long, operands } = parseOptions(args, awkGrammar);
  if (short.has('f') || short.has('E') || long.has('file') || long.has('exec') || long.has('source')) return 'rewrites';
  const program = operands[0] ?? '';
  // `print` with anything after it, printf, system, a field, an assignment or a BEGIN block computes new text.
  return awkSelection.test(program) && !/\b(?:BEGIN|END|printf|system|getline|sub|gsub|sprintf)\b|\$[1-9A-Za-z(]|[^=!<>]=[^=~]/.test(program) ? 'selects-lines' : 'rewrites';
};
const awkProgramOperand = (args: readonly string[]): boolean => {
  const { short, long } = parseOptions(args, awkGrammar);
  return !(short.has('f') || long.has('file') || long.has('exec') || long.has('source'));
};

const plainReader: FilterRow = { grammar: { shortWithValue: 'ncLsSkt', longWithValue: ['lines', 'bytes', 'separator', 'size', 'rate-limit', 'interval', 'name', 'key', 'field-separator', 'buffer-size', 'output', 'random-source', 'skip-fields', 'skip-chars', 'check-chars'] }, effect: selects, scriptOperand: noScript };
const rewriter: FilterRow = { grammar: { shortWithValue: 'bcdfsw', longWithValue: ['bytes', 'characters', 'delimiter', 'fields', 'width', 'output-delimiter', 'separator'] }, effect: rewrites, scriptOperand: noScript };

const rows: Readonly<Record<string, FilterRow>> = {
  // Lines passed on as they are (some of them, or all in another order).
  cat: plainReader, tac: plainReader, head: plainReader, tail: plainReader, pv: plainReader, sort: plainReader, uniq: plainReader,
  shuf: plainReader, nl: plainReader, more: plainReader, less: plainReader,
  grep: { grammar: grepGrammar, effect: grepEffect, scriptOperand: grepPattern }, egrep: { grammar: grepGrammar, effect: grepEffect, scriptOperand: grepPattern },
  fgrep: { grammar: grepGrammar, effect: grepEffect, scriptOperand: grepPattern }, zgrep: { grammar: grepGrammar, effect: grepEffect, scriptOperand: grepPattern },
  sed: { grammar: sedGrammar, effect: sedEffect, scriptOperand: sedScriptOperand }, gsed: { grammar: sedGrammar, effect: sedEffect, scriptOperand: sedScriptOperand },
  awk: { grammar: awkGrammar, effect: awkEffect, scriptOperand: awkProgramOperand }, gawk: { grammar: awkGrammar, effect: awkEffect, scriptOperand: awkProgramOperand },
  mawk: { grammar: awkGrammar, effect: awkEffect, scriptOperand: awkProgramOperand }, nawk: { grammar: awkGrammar, effect: awkEffect, scriptOperand: awkProgramOperand },
  // New text computed from the old.
  cut: rewriter, paste: rewriter, fold: rewriter, fmt: rewriter, column: rewriter, colrm: rewriter, expand: rewriter, unexpand: rewriter,
  rev: rewriter, tr: rewriter, envsubst: rewriter, jq: rewriter, yq: rewriter, gojq: rewriter, jaq: rewriter, iconv: rewriter, recode: rewriter,
  base64: rewriter, base32: rewriter, basenc: rewriter, xxd: rewriter, od: rewriter, hexdump: rewriter, uudecode: rewriter, openssl: rewriter,
  gpg: rewriter, gzip: rewriter, gunzip: rewriter, zcat: rewriter, bzip2: rewriter, bunzip2: rewriter, bzcat: rewriter, xz: rewriter,
  unxz: rewriter, xzcat: rewriter, zstd: rewriter, unzstd: rewriter, zstdcat: rewriter, lz4: rewriter, lz4cat: rewriter, brotli: rewriter,
  // Interpreters are left out: their code is judged as code, and `eval "$(perl -Mlocal::lib)"` is everyday setup.
  m4: rewriter, cpp: rewriter, sd: rewriter, dos2unix: rewriter, unix2dos: rewriter, sponge: rewriter, strings: rewriter,
  join: rewriter, comm: rewriter, split: rewriter, csplit: rewriter, mlr: rewriter, xsv: rewriter, qsv: rewriter, datamash: rewriter,
};

/** Every program the table names (its spec covers each). */
export const filterPrograms: readonly string[] = Object.keys(rows);

/** What the stage does to its text, or null when it is no filter this table knows (its output is its own). */
export const filterEffect = (command: SimpleCommand): FilterEffect | null => {
  const row = rows[command.program];
  return row === undefined ? null : row.effect(command.args);
};

/** The files a line selector reads (`-` and its own script left out); empty for anything else. */
export const selectedFiles = (command: SimpleCommand): string[] => {
  const row = rows[command.program];
  if (row === undefined || row.effect(command.args) !== 'selects-lines') return [];
  const { operands } = parseOptions(command.args, row.grammar);
  return (row.scriptOperand(command.args) ? operands.slice(1) : [...operands]).filter((a) => a !== '-');
};

/** The stages before this command in its pipeline, nearest first (they share its pipedFrom prefix). */
export const earlierStages = (command: SimpleCommand, analysis: ShellAnalysis): SimpleCommand[] => {
  const stages: SimpleCommand[] = [];
  const at = analysis.commands.indexOf(command);
  let depth = command.pipedFrom.length;
  for (let i = at - 1; i >= 0 && depth > 0; i--) {
    const stage = analysis.commands[i]!;
    if (stage.pipedFrom.length !== depth - 1 || stage.program !== command.pipedFrom[depth - 1]) continue;
    if (stage.pipedFrom.some((p, k) => p !== command.pipedFrom[k])) continue;
    stages.push(stage);
    depth--;
  }
  return stages;
};

/** A redirect that replaces the pipe as the command's input (`sh <<< x`, `sh < f`, a here-document). */
export const inputRedirected = (command: SimpleCommand): boolean => command.redirects.some((r) => /^0?(?:<|<<-?|<<<)$/.test(r.op));

/**
 * The first stage before the command that rewrites the text the command reads, if any. The walk's own stdin
 * for the command does not count: it passes echoed text through filters as if unchanged.
 */
export const rewritingStage = (command: SimpleCommand, analysis: ShellAnalysis): SimpleCommand | null =>
  inputRedirected(command) ? null : earlierStages(command, analysis).find((s) => filterEffect(s) === 'rewrites') ?? null;
