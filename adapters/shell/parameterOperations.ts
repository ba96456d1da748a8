/**
 * `${...}` expansions with an operator, computed the way bash computes them when the variable's value is known on
 * the line: `${P%XX}`, `${P/X/g}`, `${X^^}`, `${P:0:20}`, `${#P}`, `${!X}`, `${a[1]}`, `"${a[@]}"`. Anything whose
 * result is not certain (an unknown value, quotes, escapes or expansions inside, arithmetic beyond a plain number,
 * bash-version or locale dependent behaviour, non-ASCII text) gives undefined: the word then stays an unknown
 * expansion. A wrong literal would let a protected path through, so this never guesses.
 */
import { compileGlob, globMatches, GlobBudgetExceeded, type Budget, type Glob } from './globPattern.ts';

/** What the line knows about arrays, references and IFS besides one scalar value per name. */
export interface ParameterFacts {
  /** The elements of an indexed array when every one is known. */
  elementsOf(name: string): readonly string[] | undefined;
  /** Whether IFS is the default: word splitting and `"${a[*]}"` joins depend on it. */
  defaultIfs(): boolean;
  /** Whether the name is a reference (`declare -n`): `${!P}` is then the name it stands for, not followed. */
  isReference(name: string): boolean;
  /** Whether `shopt -s nocasematch` is on (`${v/pat/rep}` then ignores case); undefined when that is not known. */
  foldsCase(): boolean | undefined;
}

/** One exact scalar value per name, and the other facts when the line keeps them. */
export interface ParameterValues {
  (name: string): string | undefined;
  readonly facts?: ParameterFacts;
}

/** The result: one value, or the list that `[@]` / `[*]` expand to. */
export interface Expanded {
  readonly values: readonly string[];
  readonly list: '@' | '*' | undefined;
}

const maxValueLength = 4096;
const matchSteps = 200_000;

const reference = /^([A-Za-z_][A-Za-z0-9_]*)(?:\[(@|\*|-?(?:0|[1-9][0-9]{0,8}))\])?/;
const plainNumber = /^[-+]?(?:0|[1-9][0-9]{0,8})$/;

/** `text` is a whole `${...}`; undefined unless its result is certain. */
export const expandParameter = (text: string, values: ParameterValues): Expanded | undefined => {
  if (!text.startsWith('${') || !text.endsWith('}')) return undefined;
  const body = text.slice(2, -1);
  // Quotes, escapes, nested expansions, tilde: each adds rules this reading does not follow.
  if (/["'\\$`{}~\u0080-\uffff]/.test(body)) return undefined;
  try {
    if (body.startsWith('#') && body.length > 1) return length(body.slice(1), values);
    if (body.startsWith('!')) return indirect(body.slice(1), values);
    const ref = reference.exec(body);
    if (ref === null) return undefined;
    const base = resolve(ref, values);
    return base === undefined ? undefined : operate(base, body.slice(ref[0].length), values);
  } catch (error) {
    if (error instanceof GlobBudgetExceeded) return undefined;
    throw error;
  }
};

/** The values a `NAME` or `NAME[i]` / `NAME[@]` refers to (a scalar reads as an array of one). */
const resolve = (ref: RegExpExecArray, values: ParameterValues): Expanded | undefined => {
  const [, name, index] = ref;
  const array = values.facts?.elementsOf(name!);
  const elements = array ?? scalarElements(values(name!));
  if (elements === undefined) return undefined;
  if (index === '@' || index === '*') return { values: elements, list: index };
  let at = index === undefined ? 0 : Number(index);
  if (at < 0) at += elements.length;
  // A negative index before the first element, or any on a scalar, is "bad array subscript": not followed.
  if (at < 0 || (array === undefined && index?.startsWith('-') === true)) return undefined;
  return { values: [elements[at] ?? ''], list: undefined };
};

const scalarElements = (value: string | undefined): readonly string[] | undefined => (value === undefined ? undefined : [value]);

/** `${#P}`, `${#a[@]}`, `${#a[1]}`. */
const length = (rest: string, values: ParameterValues): Expanded | undefined => {
  const ref = reference.exec(rest);
  if (ref === null || ref[0].length !== rest.length) return undefined;
  const base = resolve(ref, values);
  if (base === undefined) return undefined;
  // Characters or bytes, as the locale says: counted only for ASCII text, where both agree.
  if (base.list === undefined && /[\u0080-\uffff]/.test(base.values[0]!)) return undefined;
  const count = base.list === undefined ? base.values[0]!.length : base.values.length;
  return { values: [String(count)], list: undefined };
};

/** `${!X}`: the variable X names; `${!X*}`, `${!a[@]}` (names, keys) are not followed. */
const indirect = (rest: string, values: ParameterValues): Expanded | undefined => {
  const ref = reference.exec(rest);
  if (ref === null || ref[2] === '@' || ref[2] === '*' || values.facts?.isReference(ref[1]!) !== false) return undefined;
  const op = rest.slice(ref[0].length);
  if (op === '*' || op === '@') return undefined;
  const pointer = resolve(ref, values);
  const target = pointer?.values[0];
  if (target === undefined) return undefined;
  const inner = reference.exec(target);
  if (inner === null || inner[0].length !== target.length) return undefined;
  const base = resolve(inner, values);
  return base === undefined ? undefined : operate(base, op, values);
};

/** Applies the operator text after the reference to each value. */
const operate = (base: Expanded, op: string, values: ParameterValues): Expanded | undefined => {
  if (op === '') return base;
  if (base.values.some((value) => value.length > maxValueLength || /[\u0080-\uffff]/.test(value))) return undefined;
  if (op.startsWith(':')) return substring(base, op.slice(1));
  const each = elementOperation(op, values.facts === undefined ? false : values.facts.foldsCase());
  if (each === undefined) return undefined;
  const out: string[] = [];
  for (const value of base.values) {
    const result = each(value);
    if (result === undefined || result.length > maxValueLength) return undefined;
    out.push(result);
  }
  return { values: out, list: base.list };
};

type Operation = (value: string) => string | undefined;

const elementOperation = (op: string, foldsCase: boolean | undefined): Operation | undefined => {
  const budget: Budget = { left: matchSteps };
  const removal = /^(##|#|%%|%)([\s\S]*)$/.exec(op);
  if (removal !== null) {
    const glob = compileGlob(removal[2]!);
    return glob === undefined ? undefined : (value) => remove(value, glob, removal[1]!, budget);
  }
  if (op.startsWith('/')) return foldsCase === undefined ? undefined : replacement(op, budget, foldsCase);
  const casing = /^(\^\^|\^|,,|,)([\s\S]*)$/.exec(op);
  if (casing !== null) {
    const glob = compileGlob(casing[2] === '' ? '?' : casing[2]!);
    return glob === undefined ? undefined : (value) => changeCase(value, glob, casing[1]!, budget);
  }
  if (op === '@U') return (value) => value.toUpperCase();
  if (op === '@L') return (value) => value.toLowerCase();
  if (op === '@u') return (value) => value.slice(0, 1).toUpperCase() + value.slice(1);
  return undefined;
};

/** `#` shortest / `##` longest prefix, `%` shortest / `%%` longest suffix that matches, removed. */
const remove = (value: string, glob: Glob, how: string, budget: Budget): string => {
  const n = value.length;
  if (how === '#') { for (let p = 0; p <= n; p++) if (globMatches(glob, value, 0, p, budget)) return value.slice(p); }
  else if (how === '##') { for (let p = n; p >= 0; p--) if (globMatches(glob, value, 0, p, budget)) return value.slice(p); }
  else if (how === '%') { for (let p = n; p >= 0; p--) if (globMatches(glob, value, p, n, budget)) return value.slice(0, p); }
  else for (let p = 0; p <= n; p++) if (globMatches(glob, value, p, n, budget)) return value.slice(0, p);
  return value;
};

/**
 * `${v/pat/rep}` first, `//` every, `/#` at the start, `/%` at the end; the longest match at the leftmost place.
 * `foldsCase` (nocasematch): pattern and value are compared in lower case (values here are ASCII).
 */
const replacement = (op: string, budget: Budget, foldsCase: boolean): Operation | undefined => {
  const how = op.startsWith('//') ? '//' : op.startsWith('/#') ? '/#' : op.startsWith('/%') ? '/%' : '/';
  const rest = op.slice(how.length);
  const slash = rest.indexOf('/');
  const pattern = slash < 0 ? rest : rest.slice(0, slash);
  const rep = slash < 0 ? '' : rest.slice(slash + 1);
  // A `/` inside a bracket may or may not end the pattern; `&` in the replacement is the match in bash 5.2+ only.
  if ((slash >= 0 && pattern.lastIndexOf('[') > pattern.lastIndexOf(']')) || rep.includes('&')) return undefined;
  // Folded, [:upper:] and [:lower:] behave in ways that differ between bash builds: not followed.
  if (foldsCase && /\[:(?:upper|lower):\]/.test(pattern)) return undefined;
  const glob = compileGlob(foldsCase ? pattern.toLowerCase() : pattern);
  if (glob === undefined) return undefined;
  return (original) => {
    const value = foldsCase ? original.toLowerCase() : original;
    const n = value.length;
    if (pattern === '') return how === '/#' ? rep + original : how === '/%' ? original + rep : original;
    if (n === 0) return globMatches(glob, value, 0, 0, budget) ? rep : original;
    if (how === '/#') {
      for (let e = n; e >= 0; e--) if (globMatches(glob, value, 0, e, budget)) return rep + original.slice(e);
      return original;
    }
    if (how === '/%') {
      for (let s = 0; s <= n; s++) if (globMatches(glob, value, s, n, budget)) return original.slice(0, s) + rep;
      return original;
    }
    let out = '';
    let position = 0;
    while (position < n) {
      const found = leftmostLongest(glob, value, position, budget);
      if (found === undefined) break;
      // An empty match would need bash's own stepping rules: not followed.
      if (found.end === found.start) return undefined;
      out += original.slice(position, found.start) + rep;
      position = found.end;
      if (how === '/') break;
    }
    return out + original.slice(position);
  };
};

const leftmostLongest = (glob: Glob, value: string, from: number, budget: Budget): { start: number; end: number } | undefined => {
  for (let s = from; s < value.length; s++)
    for (let e = value.length; e >= s; e--) if (globMatches(glob, value, s, e, budget)) return { start: s, end: e };
  return undefined;
};

/** `^` / `,` the first character, `^^` / `,,` every character, when it matches the pattern (default `?`). */
const changeCase = (value: string, glob: Glob, how: string, budget: Budget): string => {
  const upper = how.startsWith('^');
  const all = how.length === 2;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i]!;
    out += (all || i === 0) && globMatches(glob, ch, 0, 1, budget) ? (upper ? ch.toUpperCase() : ch.toLowerCase()) : ch;
  }
  return out;
};

/** `${P:offset}` / `${P:offset:length}` with plain numbers; `${a[@]:offset:length}` slices elements. */
const substring = (base: Expanded, spec: string): Expanded | undefined => {
  // `${P:-x}`, `${P:=x}`, `${P:+x}`, `${P:?x}` are the default-value operators, read elsewhere.
  if (/^[-=+?]/.test(spec)) return undefined;
  const colon = spec.indexOf(':');
  const offset = arithmeticNumber(colon < 0 ? spec : spec.slice(0, colon));
  const count = colon < 0 ? undefined : arithmeticNumber(spec.slice(colon + 1));
  if (offset === undefined || (colon >= 0 && count === undefined)) return undefined;
  if (base.list !== undefined) {
    const n = base.values.length;
    const start = offset < 0 ? offset + n : offset;
    if (count !== undefined && count < 0) return undefined;
    if (start < 0 || start > n) return { values: [], list: base.list };
    return { values: base.values.slice(start, count === undefined ? n : start + count), list: base.list };
  }
  const value = base.values[0]!;
  const n = value.length;
  const start = offset < 0 ? offset + n : offset;
  if (start < 0 || start > n) return { values: [''], list: undefined };
  if (count === undefined) return { values: [value.slice(start)], list: undefined };
  const end = count < 0 ? n + count : Math.min(n, start + count);
  // bash stops with "substring expression < 0": the command does not run as written.
  if (end < start) return undefined;
  return { values: [value.slice(start, end)], list: undefined };
};

/** A plain decimal number, possibly in parentheses (`(-3)`); anything else is arithmetic not followed. */
const arithmeticNumber = (text: string): number | undefined => {
  let inner = text.trim();
  if (inner.startsWith('(') && inner.endsWith(')')) inner = inner.slice(1, -1).trim();
  const compact = inner.replace(/^([-+])\s+/, '$1');
  return plainNumber.test(compact) ? Number(compact) : undefined;
};
