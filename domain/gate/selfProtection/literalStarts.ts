/**
 * Where code's string literals really open, read left to right (a backslash escapes the next character). A fold's
 * pattern of "literal, operator, literal" may otherwise pair a closing quote with the next opening one and read
 * the text between two literals as a literal of its own (`'~'/('.'+'hermes')` has no literal `'/('`). Pure.
 */
export const literalStarts = (code: string): ReadonlySet<number> => {
  const starts = new Set<number>();
  for (let i = 0; i < code.length; i++) {
    const quote = code[i];
    if (quote !== "'" && quote !== '"' && quote !== '`') continue;
    starts.add(i);
    let j = i + 1;
    while (j < code.length && code[j] !== quote) j += code[j] === '\\' ? 2 : 1;
    i = j;
  }
  return starts;
};

/**
 * `code.replace(pattern, fold)` for the first match whose first literal opens where a literal really opens; matches
 * that start inside the text between two literals are skipped. `pattern` must be global.
 */
export const replaceFirstAtLiteral = (code: string, pattern: RegExp, fold: (match: string, ...groups: (string | undefined)[]) => string): string => {
  const starts = literalStarts(code);
  for (const m of code.matchAll(pattern)) {
    const at = m.index! + Math.max(0, m[0].search(/['"`]/));
    if (!starts.has(at)) continue;
    return code.slice(0, m.index!) + fold(m[0], ...m.slice(1)) + code.slice(m.index! + m[0].length);
  }
  return code;
};
