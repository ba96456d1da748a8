/**
 * Script interpreters (python, perl, ruby, node, php, ...): whether a call runs code given inline on the command
 * line (`python3 -c`, `perl -e`, `node --eval`) or reads its program from standard input (`curl ... | python3`).
 */
import { boundedMemo } from './recentMemo.ts';

export type InterpreterFamily = 'python' | 'perl' | 'ruby' | 'node' | 'php' | 'bun' | 'deno' | 'lua';

const families: readonly (readonly [InterpreterFamily, RegExp])[] = [
  ['python', /^(?:python|pypy)(?:\d+(?:\.\d+)*)?$/],
  ['perl', /^perl(?:\d+(?:\.\d+)*)?$/],
  ['ruby', /^ruby(?:\d+(?:\.\d+)*)?$/],
  ['node', /^(?:node|nodejs)$/],
  ['php', /^php(?:\d+(?:\.\d+)*)?$/],
  ['bun', /^bun$/],
  ['deno', /^deno$/],
  ['lua', /^(?:lua|luajit)(?:\d+(?:\.\d+)*)?$/],
];

// Asked by several rules about every command; a line names few programs, so the answers are kept (bounded).
const familyOf = boundedMemo((program: string): InterpreterFamily | undefined => families.find(([, pattern]) => pattern.test(program))?.[0]);

export const interpreterFamily = (program: string): InterpreterFamily | undefined => familyOf(program);

interface InlineGrammar {
  /** Short letters that run the next word (or the rest of the cluster) as code. */
  readonly inline: string;
  /** Long options that run code. */
  readonly inlineLong: readonly string[];
  /** Short letters that take a value, attached or the next word. */
  readonly withValue: string;
  /** Short letters whose optional value can only be attached ('perl -i.bak'). */
  readonly attachedOnly: string;
  /** Short letters followed by optional digits, after which the cluster goes on ('perl -l0ne' is -l0 -n -e). */
  readonly digitsOnly: string;
  /** Short letters after which no more options are read (python -m runs a module). */
  readonly stop: string;
  /** Long options that take the next word as their value (`node --import tsx x.mjs`). */
  readonly valueLong?: readonly string[];
}

const grammars: Readonly<Record<InterpreterFamily, InlineGrammar>> = {
  python: { inline: 'c', inlineLong: [], withValue: 'WX', attachedOnly: '', digitsOnly: '', stop: 'm' },
  perl: { inline: 'eE', inlineLong: [], withValue: 'I', attachedOnly: 'iMmxFdCD', digitsOnly: 'l0', stop: '' },
  ruby: { inline: 'e', inlineLong: [], withValue: 'CEIr', attachedOnly: 'FKixW', digitsOnly: '0', stop: '' },
  node: { inline: 'ep', inlineLong: ['--eval', '--print'], withValue: 'rC', attachedOnly: '', digitsOnly: '', stop: '',
    valueLong: ['--require', '--import', '--loader', '--experimental-loader', '--conditions', '--env-file', '--input-type', '--title'] },
  php: { inline: 'rBRE', inlineLong: [], withValue: 'cdz', attachedOnly: '', digitsOnly: '', stop: 'f' },
  bun: { inline: 'e', inlineLong: ['--eval', '--print'], withValue: 'r', attachedOnly: '', digitsOnly: '', stop: '' },
  deno: { inline: 'e', inlineLong: ['--eval'], withValue: 'L', attachedOnly: '', digitsOnly: '', stop: '' },
  lua: { inline: 'e', inlineLong: [], withValue: 'l', attachedOnly: '', digitsOnly: '', stop: '' },
};

interface InterpreterCall {
  readonly inlineCode: boolean;
  /** No script operand and no inline code: the program is read from standard input. */
  readonly readsStdin: boolean;
  /** Where the script operand is (`node bin/x.mjs a b`: 0): the file is run, the words after it are its arguments. */
  readonly script?: number;
  /** The module a stop letter names (`python3 -m json.tool`), and where its arguments start. */
  readonly module?: { readonly name: string; readonly next: number };
}

export const interpreterCall = (family: InterpreterFamily, args: readonly string[]): InterpreterCall => {
  const grammar = grammars[family];
  if (family === 'deno' && args[0] === 'eval') return { inlineCode: true, readsStdin: false };
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      i++;
      break;
    }
    if (arg === '-' || arg.length < 2 || arg[0] !== '-') break;
    if (arg.startsWith('--')) {
      if (grammar.inlineLong.includes(arg.split('=', 1)[0]!)) return { inlineCode: true, readsStdin: false };
      if (!arg.includes('=') && grammar.valueLong?.includes(arg) === true) i++;
      continue;
    }
    for (let j = 1; j < arg.length; j++) {
      const letter = arg[j]!;
      if (grammar.inline.includes(letter)) return { inlineCode: true, readsStdin: false };
      if (grammar.stop.includes(letter)) {
        const attached = j < arg.length - 1;
        const name = attached ? arg.slice(j + 1) : args[i + 1];
        return { inlineCode: false, readsStdin: false, ...(name === undefined ? {} : { module: { name, next: attached ? i + 1 : i + 2 } }) };
      }
      if (grammar.attachedOnly.includes(letter)) break;
      if (grammar.digitsOnly.includes(letter)) {
        while (j + 1 < arg.length && /[0-9]/.test(arg[j + 1]!)) j++;
        continue;
      }
      if (grammar.withValue.includes(letter)) {
        if (j === arg.length - 1) i++;
        break;
      }
    }
  }
  const operand = args[i];
  const readsStdin = operand === undefined || operand === '-';
  return readsStdin ? { inlineCode: false, readsStdin } : { inlineCode: false, readsStdin, script: i };
};
