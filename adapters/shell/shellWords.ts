/**
 * The value of one shell word as the command will receive it: quotes removed, backslash escapes applied, ANSI-C
 * strings decoded. Parts the shell expands at run time ($VAR, $(...), globs) are kept as written, so
 * `"$HOME"/x` reads `$HOME/x` and `'r''m'` reads `rm`.
 */
import type { Node } from 'web-tree-sitter';
import { decodeAnsiC } from './ansiCString.ts';
import { kindOf } from './nodeKind.ts';
import { expandParameter, type ParameterValues } from './parameterOperations.ts';

/** The value a variable is known to hold in this line, if exactly one is known (and arrays' elements, if asked). */
export type VariableLookup = ParameterValues;

const noVariables: VariableLookup = () => undefined;

/** `quoted`: the node sits inside double quotes (`"${a[*]}"` joins the elements there). */
export const wordValue = (node: Node, source: string, lookup: VariableLookup = noVariables, quoted = false): string => {
  const text = source.slice(node.startIndex, node.endIndex);
  const type = kindOf(node).type;
  switch (type) {
    case 'simple_expansion':
    case 'expansion': {
      const name = expandedVariable(node, source);
      if (name !== undefined) return lookup(name) ?? text;
      // `${P%x}`, `${a[1]}`, `${X^^}`: computed only when the result is certain.
      return (type === 'expansion' ? operatedValue(text, lookup, quoted) : undefined) ?? text;
    }
    case 'word':
      return text.includes('\\') ? unescapeUnquoted(text) : text;
    case 'raw_string':
      return text.slice(1, text.endsWith("'") && text.length > 1 ? -1 : undefined);
    case 'ansi_c_string':
      return decodeAnsiC(text.slice(2, text.endsWith("'") && text.length > 2 ? -1 : undefined));
    case 'string':
      return doubleQuotedValue(node, source, lookup);
    case 'translated_string': {
      // `$"hermes"`: bash's locale translation of the double-quoted string inside (red team 6), the same word in C locale.
      const inner = node.namedChildren.find((child) => child !== null && kindOf(child).type === 'string');
      return inner ? doubleQuotedValue(inner, source, lookup) : doubleQuotedValue(node, source, lookup);
    }
    case 'concatenation':
      return concatenationValue(node, source, lookup);
    default:
      return text;
  }
};

/** One string for an operator expansion: a list (`${a[@]}`) only when it has at most one element, or joins. */
const operatedValue = (text: string, lookup: VariableLookup, quoted: boolean): string | undefined => {
  const expanded = expandParameter(text, lookup);
  if (expanded === undefined) return undefined;
  const { values, list } = expanded;
  if (list === undefined || values.length === 1) return values[0];
  if (values.length === 0) return '';
  return list === '*' && quoted && lookup.facts?.defaultIfs() === true ? values.join(' ') : undefined;
};

/**
 * The words a whole `"${a[@]}"` (each element, empty ones too) or unquoted `${a[@]}` / `${a[*]}` (elements split
 * on blanks, empty ones gone) argument becomes; undefined for anything else or when not certain.
 */
export const listWords = (node: Node, source: string, lookup: VariableLookup): string[] | undefined => {
  const text = source.slice(node.startIndex, node.endIndex);
  if (!text.includes('[@]') && !text.includes('[*]')) return undefined;
  const type = kindOf(node).type;
  let expansion = node;
  if (type === 'string') {
    const inner = node.namedChildren;
    if (inner.length !== 1 || kindOf(inner[0]!).type !== 'expansion' || inner[0]!.startIndex !== node.startIndex + 1 || inner[0]!.endIndex !== node.endIndex - 1) return undefined;
    expansion = inner[0]!;
  } else if (type !== 'expansion') return undefined;
  const expanded = expandParameter(source.slice(expansion.startIndex, expansion.endIndex), lookup);
  if (expanded?.list === undefined) return undefined;
  if (type === 'string') return expanded.list === '@' ? [...expanded.values] : undefined;
  if (lookup.facts?.defaultIfs() !== true) return undefined;
  const words: string[] = [];
  for (const value of expanded.values) for (const part of value.split(/[ \t\n]+/)) if (part !== '') words.push(part);
  return words;
};

/** Outside quotes a backslash keeps the next character literal, and a backslash-newline disappears. */
const unescapeUnquoted = (text: string): string => text.replace(/\\([\s\S])/g, (_, ch: string) => (ch === '\n' ? '' : ch));

/** Inside double quotes a backslash escapes only $ ` " \ and newline. */
const unescapeDoubleQuoted = (text: string): string =>
  text.replace(/\\([\\$`"\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));

/** The variable of a plain `$NAME` or `${NAME}` (not `${NAME:-x}`, `$1` or `$@`). */
export const expandedVariable = (node: Node, source: string): string | undefined => {
  const match = /^\$(?:([A-Za-z_]\w*)|\{([A-Za-z_]\w*)\})$/.exec(source.slice(node.startIndex, node.endIndex));
  return match ? (match[1] ?? match[2]) : undefined;
};

const doubleQuotedValue = (node: Node, source: string, lookup: VariableLookup): string => {
  const open = source.indexOf('"', node.startIndex);
  let position = open < 0 || open >= node.endIndex ? node.startIndex : open + 1;
  const end = source[node.endIndex - 1] === '"' && node.endIndex - 1 >= position ? node.endIndex - 1 : node.endIndex;
  let out = '';
  for (const child of node.children) {
    const type = kindOf(child).type;
    if (type === '"' || child.endIndex <= position) continue;
    if (child.startIndex > position) out += unescapeDoubleQuoted(source.slice(position, Math.min(child.startIndex, end)));
    const text = source.slice(child.startIndex, Math.min(child.endIndex, end));
    out += type === 'string_content' ? unescapeDoubleQuoted(text) : child.endIndex <= end ? wordValue(child, source, lookup, true) : text;
    position = child.endIndex;
  }
  if (position < end) out += unescapeDoubleQuoted(source.slice(position, end));
  return out;
};

const concatenationValue = (node: Node, source: string, lookup: VariableLookup): string => {
  let position = node.startIndex;
  let out = '';
  for (const child of node.children) {
    if (child.startIndex > position) out = joined(out, unescapeUnquoted(source.slice(position, child.startIndex)));
    out = joined(out, wordValue(child, source, lookup));
    position = child.endIndex;
  }
  if (position < node.endIndex) out = joined(out, unescapeUnquoted(source.slice(position, node.endIndex)));
  return out;
};

/** `"$D"SOUL.md` reads `${D}SOUL.md`: joined bare, the name would swallow the text after it (`$DSOUL.md`). */
const joined = (out: string, next: string): string =>
  /^\w/.test(next) && /\$[A-Za-z_]\w*$/.test(out) ? `${out.replace(/\$([A-Za-z_]\w*)$/, '$${$1}')}${next}` : out + next;

const ifsExpansion = /\$\{IFS[^}]*\}|\$IFS(?![A-Za-z0-9_])/;

/** `rm${IFS}-rf${IFS}/` runs as `rm -rf /`: split words where an unquoted $IFS would split them. */
export const splitOnIfs = (words: readonly string[]): string[] => {
  if (!words.some((word) => word.includes('IFS'))) return [...words];
  return words.flatMap((word) =>
    ifsExpansion.test(word) ? word.split(new RegExp(ifsExpansion.source, 'g')).filter((part) => part !== '') : [word],
  );
};

const maxBraceWords = 64;
const maxBraceWordLength = 1000;

/**
 * Brace expansion of an unquoted word: `{rm,-rf,/}` is three words, `/{etc,usr}` two. Sequences (`{1..3}`) and
 * words without a top-level comma inside braces stay as they are. Capped in length and count.
 */
export const expandBraces = (word: string): string[] => {
  const open = word.indexOf('{');
  if (open < 0 || word.length > maxBraceWordLength) return [word];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < word.length; i++) {
    const ch = word[i];
    if (ch === '{') depth++;
    else if (ch === ',' && depth === 1) commas.push(i);
    else if (ch === '}' && --depth === 0) {
      const head = commas.length === 0 ? [word.slice(0, i + 1)] : [];
      const bounds = commas.length === 0 ? [] : [open, ...commas, i];
      for (let k = 0; k + 1 < bounds.length && head.length < maxBraceWords; k++)
        for (const alternative of expandBraces(word.slice(bounds[k]! + 1, bounds[k + 1]!))) head.push(word.slice(0, open) + alternative);
      const rests = expandBraces(word.slice(i + 1));
      const out: string[] = [];
      for (const first of head) for (const rest of rests) if (out.length < maxBraceWords) out.push(first + rest);
      return out;
    }
  }
  return [word];
};
