/**
 * The values `read`, `printf -v` and `mapfile` give their variables when the line itself determines them: `read`
 * and `mapfile` reading a here-string or heredoc, `printf -v` of literal words. A program name or a path a line
 * builds this way (`read -r c <<< hermes; $c …`) is then read like a plain assignment. Anything these readings do
 * not follow (another IFS, a delimiter, a count, a file descriptor) gives no value: the variable stays unknown.
 */
import { builtinOptions } from './builtinOptions.ts';
import { printfOutput } from './staticOutput.ts';

export interface BuiltinValues {
  /** Scalars with the one value they get. */
  readonly scalars: ReadonlyMap<string, string>;
  /** Arrays (`read -a`, `mapfile`) with their elements. */
  readonly arrays: ReadonlyMap<string, readonly string[]>;
}

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Values still holding an expansion the walk did not know are not values. */
const unknownText = /[$`]/;

/** The options as a letter → value map, or undefined when they do not parse cleanly. */
const splitOptions = (args: readonly string[], valued: string): { options: Map<string, string>; operands: readonly string[] } | undefined => {
  const parsed = builtinOptions(args, valued);
  if (parsed.malformed) return undefined;
  return { options: new Map(parsed.letters.map(({ letter, value }) => [letter, value ?? ''])), operands: parsed.operands };
};

const onlyOptions = (options: ReadonlyMap<string, string>, allowed: string): boolean => [...options.keys()].every((letter) => allowed.includes(letter));

/** `read` splits its first line on the default IFS: one field per name, the last name gets the rest. */
const readValues = (args: readonly string[], stdin: string): BuiltinValues | undefined => {
  const parsed = splitOptions(args, 'adinNptu');
  // -p (prompt), -t (timeout), -s, -e, -r do not change what is read from a here-string.
  if (!parsed || !onlyOptions(parsed.options, 'arsept')) return undefined;
  let line = stdin.split('\n')[0]!;
  // Without -r a backslash keeps the next character and a backslash-newline joins lines: followed only when absent.
  if (!parsed.options.has('r') && line.includes('\\')) return undefined;
  if (unknownText.test(line)) return undefined;
  line = line.replace(/^[ \t\n]+|[ \t\n]+$/g, '');
  const array = parsed.options.get('a');
  if (array !== undefined) {
    return variableName.test(array) ? { scalars: new Map(), arrays: new Map([[array, line === '' ? [] : line.split(/[ \t\n]+/)]]) } : undefined;
  }
  const names = parsed.operands.length === 0 ? ['REPLY'] : parsed.operands;
  if (!names.every((name) => variableName.test(name))) return undefined;
  const scalars = new Map<string, string>();
  // REPLY keeps the line as it is; named variables take fields.
  if (parsed.operands.length === 0) return { scalars: new Map([['REPLY', stdin.split('\n')[0]!]]), arrays: new Map() };
  let rest = line;
  names.forEach((name, i) => {
    if (i === names.length - 1) { scalars.set(name, rest); return; }
    const match = /^(\S*)[ \t\n]*([\s\S]*)$/.exec(rest)!;
    scalars.set(name, match[1]!);
    rest = match[2]!;
  });
  return { scalars, arrays: new Map() };
};

/** `mapfile [-t] NAME`: one element per line of its input. */
const mapfileValues = (args: readonly string[], stdin: string): BuiltinValues | undefined => {
  const parsed = splitOptions(args, 'dnOsuCc');
  if (!parsed || !onlyOptions(parsed.options, 't') || parsed.operands.length > 1 || unknownText.test(stdin)) return undefined;
  const name = parsed.operands[0] ?? 'MAPFILE';
  if (!variableName.test(name)) return undefined;
  const lines = stdin.split(/(?<=\n)/).filter((line) => line !== '');
  return { scalars: new Map(), arrays: new Map([[name, parsed.options.has('t') ? lines.map((line) => line.replace(/\n$/, '')) : lines]]) };
};

/** `printf -v NAME FORMAT ARGS…`: what printf would print, stored in NAME. */
const printfValues = (args: readonly string[]): BuiltinValues | undefined => {
  const parsed = splitOptions(args, 'v');
  const name = parsed?.options.get('v');
  if (!parsed || name === undefined || !onlyOptions(parsed.options, 'v') || !variableName.test(name) || parsed.operands.length === 0) return undefined;
  if (parsed.operands.some((word) => unknownText.test(word))) return undefined;
  const printed = printfOutput(parsed.operands);
  return unknownText.test(printed) ? undefined : { scalars: new Map([[name, printed]]), arrays: new Map() };
};

/** What one of these builtins assigns, or undefined when the line does not determine it. */
export const builtinValues = (program: string, args: readonly string[], stdin: string | undefined): BuiltinValues | undefined => {
  if (program === 'printf') return printfValues(args);
  if (stdin === undefined) return undefined;
  if (program === 'read') return readValues(args, stdin);
  if (program === 'mapfile' || program === 'readarray') return mapfileValues(args, stdin);
  return undefined;
};
