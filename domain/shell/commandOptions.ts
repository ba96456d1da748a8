/**
 * GNU-style option parsing over a command's unquoted arguments, shared by the analyzer (to find the command a
 * wrapper runs) and the rule tables (to read flags). Clusters of short flags ('-rf'), long options ('--force',
 * '--user=bob'), '--' ends the options.
 */

export interface OptionGrammar {
  /** Short option letters that take a value, attached ('-uroot') or as the next word ('-u root'). */
  readonly shortWithValue?: string;
  /** Short option letters whose optional value can only be attached (`xargs -i{}`, `perl -i.bak`). */
  readonly shortAttachedOnly?: string;
  /** Long options (without '--') that take the next word as their value when written without '='. */
  readonly longWithValue?: readonly string[];
}

export interface ParsedOptions {
  /** Short options seen, with their value (or true). */
  readonly short: ReadonlyMap<string, string | true>;
  /** Long options seen (without '--'), with their value (or true). */
  readonly long: ReadonlyMap<string, string | true>;
  readonly operands: readonly string[];
}

const noGrammar: OptionGrammar = {};

/** Reads options anywhere in the list, as GNU tools do (`rm build -rf` is `rm -rf build`). */
export const parseOptions = (args: readonly string[], grammar: OptionGrammar = noGrammar): ParsedOptions => {
  const short = new Map<string, string | true>();
  const long = new Map<string, string | true>();
  const operands: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    const consumed = readOption(args, i, grammar, short, long);
    if (consumed === 0) operands.push(arg);
    else i += consumed - 1;
  }
  return { short, long, operands };
};

/**
 * Index of the first operand at or after `start`, for wrappers whose own options end at the command they run
 * (`sudo -u bob rm x`: the operand is 'rm'). Returns args.length when there is none.
 */
export const firstOperandIndex = (args: readonly string[], start: number, grammar: OptionGrammar = noGrammar): number => {
  for (let i = start; i < args.length; ) {
    if (args[i] === '--') return i + 1;
    const consumed = readOption(args, i, grammar);
    if (consumed === 0) return i;
    i += consumed;
  }
  return args.length;
};

/** How many words the option at args[i] takes (0 when args[i] is not an option). */
const readOption = (
  args: readonly string[],
  i: number,
  grammar: OptionGrammar,
  short?: Map<string, string | true>,
  long?: Map<string, string | true>,
): number => {
  const arg = args[i]!;
  if (arg.length < 2 || arg[0] !== '-') return 0;
  if (arg[1] === '-') {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (eq >= 0) {
      long?.set(name, arg.slice(eq + 1));
      return 1;
    }
    if (grammar.longWithValue?.includes(name) && i + 1 < args.length) {
      long?.set(name, args[i + 1]!);
      return 2;
    }
    long?.set(name, true);
    return 1;
  }
  for (let j = 1; j < arg.length; j++) {
    const letter = arg[j]!;
    if (grammar.shortAttachedOnly?.includes(letter)) {
      short?.set(letter, j + 1 < arg.length ? arg.slice(j + 1) : true);
      return 1;
    }
    if (grammar.shortWithValue?.includes(letter)) {
      if (j + 1 < arg.length) {
        short?.set(letter, arg.slice(j + 1));
        return 1;
      }
      if (i + 1 < args.length) {
        short?.set(letter, args[i + 1]!);
        return 2;
      }
      short?.set(letter, true);
      return 1;
    }
    short?.set(letter, true);
  }
  return 1;
};

/**
 * Every value an option is given anywhere on the line, without a grammar for the rest: `-x V`, `-xV` (`-x=V`),
 * `--long V`, `--long=V`, and the one-dash long forms some tools take (`-to DIR`, `-dest DIR`). For rows that look
 * for one option of a program whose full grammar the floor does not keep.
 */
export const optionValuesAnywhere = (args: readonly string[], short: string | null, longs: readonly string[]): string[] => {
  const out: string[] = [];
  args.forEach((a, i) => {
    const next = args[i + 1];
    if (short !== null && a === `-${short}`) { if (next !== undefined) out.push(next); return; }
    if (short !== null && a.startsWith(`-${short}`) && !a.startsWith('--') && a.length > short.length + 1) { out.push(a.slice(short.length + 1).replace(/^=/, '')); return; }
    for (const long of longs) {
      if ((a === `--${long}` || a === `-${long}`) && next !== undefined) out.push(next);
      else if (a.startsWith(`--${long}=`)) out.push(a.slice(long.length + 3));
    }
  });
  return out;
};
