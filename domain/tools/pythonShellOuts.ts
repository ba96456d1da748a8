/**
 * Shell command lines visible in Python source (the `execute_code` tool): string literals passed to
 * `os.system`, `os.popen`, `subprocess.*(…, shell=True)` style calls, and argv lists passed to `subprocess.*`.
 * Only literals are visible; a command built at run time is not, and is not claimed to be.
 */

export interface ShellOut {
  readonly call: string;
  /** The command line the call would run (an argv list joined with shell quoting). */
  readonly commandLine: string;
}

const callPattern = /\b(os\.system|os\.popen|os\.exec\w*|subprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput))\s*\(\s*/g;

export const pythonShellOuts = (code: string): ShellOut[] => {
  const found: ShellOut[] = [];
  for (const match of code.matchAll(callPattern)) {
    const start = (match.index ?? 0) + match[0].length;
    const call = match[1] ?? '';
    const literal = readStringLiteral(code, start);
    if (literal !== null) { found.push({ call, commandLine: literal }); continue; }
    const list = readStringList(code, start);
    if (list !== null && list.length > 0) found.push({ call, commandLine: list.map(shellQuote).join(' ') });
  }
  return found;
};

/** Reads a Python string literal (optional r/b/u prefix, single, double or triple quotes) at `at`. */
const readStringLiteral = (code: string, at: number): string | null => {
  const prefix = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(code.slice(at, at + 5));
  if (!prefix) return null;
  const raw = (prefix[1] ?? '').toLowerCase().includes('r');
  const quote = prefix[2] ?? '"';
  let i = at + prefix[0].length;
  let text = '';
  while (i < code.length) {
    if (code.startsWith(quote, i)) return text;
    const ch = code[i] ?? '';
    if (ch === '\\' && raw && i + 1 < code.length) {
      // A raw string keeps the backslash and the character after it (a newline too, even in one quote).
      text += ch + code[i + 1]!;
      i += 2;
      continue;
    }
    if (ch === '\\' && !raw && i + 1 < code.length) {
      const escape = pythonEscape(code, i);
      if (escape === null) return null;
      text += escape.text;
      i += escape.length;
      continue;
    }
    if (ch === '\n' && quote.length === 1) return null;
    text += ch;
    i++;
  }
  return null;
};

const simpleEscapes: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v', '\n': '' };

/**
 * The escape at `at` (a backslash) as Python reads it: a backslash-newline continues the string, `\x68` and
 * `\150` and `\u0068` are characters; an unknown escape keeps its backslash. Null for `\N{…}` (a name table).
 */
const pythonEscape = (code: string, at: number): { text: string; length: number } | null => {
  const next = code[at + 1]!;
  const simple = simpleEscapes[next];
  if (simple !== undefined) return { text: simple, length: 2 };
  const coded = /^(?:x([0-9a-fA-F]{2})|([0-7]{1,3})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8}))/.exec(code.slice(at + 1, at + 10));
  if (coded) {
    const value = parseInt(coded[1] ?? coded[3] ?? coded[4] ?? coded[2]!, coded[2] !== undefined ? 8 : 16);
    return value > 0x10ffff ? null : { text: String.fromCodePoint(value), length: 1 + coded[0].length };
  }
  if (next === 'N') return null;
  return { text: next === '\\' || next === "'" || next === '"' ? next : '\\' + next, length: 2 };
};

/** Reads `[ 'a', "b", ... ]` made only of string literals. */
const readStringList = (code: string, at: number): string[] | null => {
  if (code[at] !== '[') return null;
  const items: string[] = [];
  let i = at + 1;
  for (;;) {
    while (/\s/.test(code[i] ?? '')) i++;
    if (code[i] === ']') return items;
    const literal = readStringLiteral(code, i);
    if (literal === null) return null;
    items.push(literal);
    const close = findLiteralEnd(code, i);
    if (close < 0) return null;
    i = close;
    while (/\s/.test(code[i] ?? '')) i++;
    if (code[i] === ',') i++;
  }
};

const findLiteralEnd = (code: string, at: number): number => {
  const prefix = /^([rRbBuU]{0,2})('''|"""|'|")/.exec(code.slice(at, at + 5));
  if (!prefix) return -1;
  const quote = prefix[2] ?? '"';
  let i = at + prefix[0].length;
  while (i < code.length) {
    if (code[i] === '\\') { i += 2; continue; }
    if (code.startsWith(quote, i)) return i + quote.length;
    i++;
  }
  return -1;
};

const shellQuote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
