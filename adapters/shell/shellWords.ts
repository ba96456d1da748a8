/**
 * The value of one shell word as the command will receive it: quotes removed, backslash escapes applied, ANSI-C
 * strings decoded. Parts the shell expands at run time ($VAR, $(...), globs) are kept as written, so
 * `"$HOME"/x` reads `$HOME/x` and `'r''m'` reads `rm`.
 */
import type { Node } from 'web-tree-sitter';
import { decodeAnsiC } from './ansiCString.ts';

export const wordValue = (node: Node, source: string): string => {
  const text = source.slice(node.startIndex, node.endIndex);
  switch (node.type) {
    case 'word':
      return text.includes('\\') ? unescapeUnquoted(text) : text;
    case 'raw_string':
      return text.slice(1, text.endsWith("'") && text.length > 1 ? -1 : undefined);
    case 'ansi_c_string':
      return decodeAnsiC(text.slice(2, text.endsWith("'") && text.length > 2 ? -1 : undefined));
    case 'string':
    case 'translated_string':
      return doubleQuotedValue(node, source);
    case 'concatenation':
      return concatenationValue(node, source);
    default:
      return text;
  }
};

/** Outside quotes a backslash keeps the next character literal, and a backslash-newline disappears. */
const unescapeUnquoted = (text: string): string => text.replace(/\\([\s\S])/g, (_, ch: string) => (ch === '\n' ? '' : ch));

/** Inside double quotes a backslash escapes only $ ` " \ and newline. */
const unescapeDoubleQuoted = (text: string): string =>
  text.replace(/\\([\\$`"\n])/g, (_, ch: string) => (ch === '\n' ? '' : ch));

const doubleQuotedValue = (node: Node, source: string): string => {
  const open = source.indexOf('"', node.startIndex);
  let position = open < 0 || open >= node.endIndex ? node.startIndex : open + 1;
  const end = source[node.endIndex - 1] === '"' && node.endIndex - 1 >= position ? node.endIndex - 1 : node.endIndex;
  let out = '';
  for (const child of node.children) {
    if (child.type === '"' || child.endIndex <= position) continue;
    if (child.startIndex > position) out += unescapeDoubleQuoted(source.slice(position, Math.min(child.startIndex, end)));
    const text = source.slice(child.startIndex, Math.min(child.endIndex, end));
    out += child.type === 'string_content' ? unescapeDoubleQuoted(text) : text;
    position = child.endIndex;
  }
  if (position < end) out += unescapeDoubleQuoted(source.slice(position, end));
  return out;
};

const concatenationValue = (node: Node, source: string): string => {
  let position = node.startIndex;
  let out = '';
  for (const child of node.children) {
    if (child.startIndex > position) out += unescapeUnquoted(source.slice(position, child.startIndex));
    out += wordValue(child, source);
    position = child.endIndex;
  }
  if (position < node.endIndex) out += unescapeUnquoted(source.slice(position, node.endIndex));
  return out;
};

const ifsExpansion = /\$\{IFS[^}]*\}|\$IFS(?![A-Za-z0-9_])/;

/** `rm${IFS}-rf${IFS}/` runs as `rm -rf /`: split words where an unquoted $IFS would split them. */
export const splitOnIfs = (words: readonly string[]): string[] => {
  if (!words.some((word) => word.includes('IFS'))) return [...words];
  return words.flatMap((word) =>
    ifsExpansion.test(word) ? word.split(new RegExp(ifsExpansion.source, 'g')).filter((part) => part !== '') : [word],
  );
};
