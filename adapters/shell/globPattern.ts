/**
 * Bash glob patterns as `${v%pat}`, `${v/pat/rep}` and `${v^^pat}` match them: `*`, `?` and bracket sets. Only
 * what every bash and locale reads the same is compiled: letter ranges (`[a-z]`, which older bash ordered by
 * the locale), equivalence and collating classes, extglob groups, quotes and escapes make `compileGlob` give up.
 */

type Token = { readonly kind: 'star' } | { readonly kind: 'one'; readonly test: (ch: string) => boolean };

export type Glob = readonly Token[];

const star: Token = { kind: 'star' };
const anyChar: Token = { kind: 'one', test: () => true };

const classes: Record<string, (ch: string) => boolean> = {
  alpha: (c) => /[A-Za-z]/.test(c), digit: (c) => c >= '0' && c <= '9', alnum: (c) => /[A-Za-z0-9]/.test(c),
  upper: (c) => c >= 'A' && c <= 'Z', lower: (c) => c >= 'a' && c <= 'z', space: (c) => /[ \t\n\r\f\v]/.test(c),
  blank: (c) => c === ' ' || c === '\t', punct: (c) => /[!-/:-@[-`{-~]/.test(c), xdigit: (c) => /[0-9A-Fa-f]/.test(c),
  word: (c) => /\w/.test(c),
};

/** The pattern's tokens, or undefined when its meaning is not the same everywhere (see above). */
export const compileGlob = (pattern: string): Glob | undefined => {
  if (/["'\\$`()|]/.test(pattern)) return undefined;
  const tokens: Token[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === '*') { if (tokens[tokens.length - 1] !== star) tokens.push(star); continue; }
    if (ch === '?') { tokens.push(anyChar); continue; }
    if (ch === '[') {
      const set = bracket(pattern, i);
      if (set === undefined) return undefined;
      if (set !== null) { tokens.push(set.token); i = set.end; continue; }
    }
    tokens.push({ kind: 'one', test: (c) => c === ch });
  }
  return tokens;
};

/** A `[...]` set starting at `open`; null when it never closes (then `[` is literal), undefined when unsupported. */
const bracket = (pattern: string, open: number): { token: Token; end: number } | null | undefined => {
  let i = open + 1;
  const negate = pattern[i] === '!' || pattern[i] === '^';
  if (negate) i++;
  const tests: ((ch: string) => boolean)[] = [];
  for (let first = true; i < pattern.length; first = false, i++) {
    const ch = pattern[i]!;
    if (ch === ']' && !first) {
      const test = (c: string) => tests.some((t) => t(c)) !== negate;
      return { token: { kind: 'one', test }, end: i };
    }
    if (ch === '[' && (pattern[i + 1] === ':' || pattern[i + 1] === '=' || pattern[i + 1] === '.')) {
      if (pattern[i + 1] !== ':') return undefined;
      const close = pattern.indexOf(':]', i + 2);
      const named = close < 0 ? undefined : classes[pattern.slice(i + 2, close)];
      if (named === undefined) return undefined;
      tests.push(named);
      i = close + 1;
      continue;
    }
    if (pattern[i + 1] === '-' && pattern[i + 2] !== undefined && pattern[i + 2] !== ']') {
      const low = ch;
      const high = pattern[i + 2]!;
      if (!/[0-9]/.test(low) || !/[0-9]/.test(high)) return undefined;
      tests.push((c) => c >= low && c <= high);
      i += 2;
      continue;
    }
    tests.push((c) => c === ch);
  }
  return null;
};

/** Thrown when matching would take longer than its budget: the caller then treats the result as unknown. */
export class GlobBudgetExceeded extends Error {}

export interface Budget { left: number }

/** Whether the whole of text[from, to) matches (greedy with one backtrack point, exact for these tokens). */
export const globMatches = (glob: Glob, text: string, from: number, to: number, budget: Budget): boolean => {
  let t = 0;
  let i = from;
  let starAt = -1;
  let starFrom = 0;
  while (i < to) {
    if (--budget.left < 0) throw new GlobBudgetExceeded();
    const token = glob[t];
    if (token?.kind === 'star') { starAt = t++; starFrom = i; continue; }
    if (token !== undefined && token.test(text[i]!)) { t++; i++; continue; }
    if (starAt < 0) return false;
    t = starAt + 1;
    i = ++starFrom;
  }
  while (glob[t]?.kind === 'star') t++;
  return t === glob.length;
};
