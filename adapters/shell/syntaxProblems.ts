/** Where the grammar could not read a line: ERROR and MISSING nodes, outermost first, at most a few. */
import type { Node } from 'web-tree-sitter';

export interface SyntaxProblem {
  readonly what: string;
  /** Index into the parsed text (UTF-16 code units, as web-tree-sitter reports for string input). */
  readonly index: number;
}

const maxReported = 5;

export const syntaxProblems = (root: Node, source: string): SyntaxProblem[] => {
  const found: SyntaxProblem[] = [];
  const pending: Node[] = [root];
  while (pending.length > 0 && found.length < maxReported) {
    const node = pending.pop()!;
    if (node.isError) found.push(describeError(node));
    else if (node.isMissing) found.push({ what: `missing '${node.type}'`, index: node.startIndex });
    else if (node.hasError && !isReparsedBackticks(node, source)) for (let i = node.childCount - 1; i >= 0; i--) pending.push(node.child(i)!);
  }
  return found.sort((a, b) => a.index - b.index);
};

/**
 * Backticks whose body has escapes are parsed again after unescaping (see CommandExtractor), since the grammar
 * does not nest them; what the grammar made of their inside does not count, the second parse reports its own.
 */
export const isReparsedBackticks = (node: Node, source: string): boolean =>
  node.type === 'command_substitution' &&
  source[node.startIndex] === '`' &&
  source.slice(node.startIndex + 1, node.endIndex - 1).includes('\\');

const openers = new Set(['if', 'while', 'until', 'for', 'select', 'case', '{', '(', '((', '[[', '$(', '`', '"', "'", '${', '$((']);

/** An ERROR node often wraps a whole region: name the construct left open, or the token that did not fit. */
const describeError = (node: Node): SyntaxProblem => {
  const first = node.child(0);
  if (first && !first.isNamed && openers.has(first.type)) return { what: `unclosed '${first.type}'`, index: first.startIndex };
  const last = node.child(node.childCount - 1);
  if (last && !last.isNamed && node.childCount > 1) return { what: `unexpected '${last.type}'`, index: last.startIndex };
  return { what: 'syntax error', index: node.startIndex };
};

/** UTF-8 byte offset of a UTF-16 index into text. */
export const byteOffset = (text: string, index: number): number => Buffer.byteLength(text.slice(0, index), 'utf8');
