/**
 * The value of integer arithmetic written with constants only (`8700+87`, `0x2000+0x253`, `(25000+130)`), the
 * way bash's `$((…))` and Python/JavaScript read it; null for anything else (a name, a call, a string). Lets the
 * floor see that a port or pid spelled as a sum is tollgate's own.
 */

const number = /^(?:0x[0-9a-f]+|0o[0-7]+|0b[01]+|[0-9][0-9_]*)/i;

const valueOf = (text: string, flavor: 'shell' | 'code'): number => {
  const t = text.replace(/_/g, '').toLowerCase();
  if (t.startsWith('0x')) return parseInt(t.slice(2), 16);
  if (t.startsWith('0o')) return parseInt(t.slice(2), 8);
  if (t.startsWith('0b')) return parseInt(t.slice(2), 2);
  // bash reads a leading 0 as octal; Python 3 refuses it and old JavaScript reads it as octal too.
  if (/^0[0-7]+$/.test(t) && flavor === 'shell') return parseInt(t, 8);
  return Number(t);
};

export const constantValue = (expression: string, flavor: 'shell' | 'code' = 'code'): number | null => {
  const source = expression.trim();
  if (source === '' || source.length > 200 || !/^[0-9a-fA-FxXoObB_+\-*/%()|^&<> \t]+$/.test(source)) return null;
  let at = 0;
  const skip = () => { while (source[at] === ' ' || source[at] === '\t') at++; };
  // Bitwise operators below the sums, as in C, bash, Python and JavaScript: `|` lowest, then `^`, `&`, shifts.
  const binary = (next: () => number | null, ops: readonly string[], apply: (op: string, a: number, b: number) => number | null) => (): number | null => {
    let left = next();
    for (skip(); left !== null; skip()) {
      const op = ops.find((o) => source.startsWith(o, at) && !(o.length === 1 && (source[at + 1] === o || (o !== '|' && o !== '&' && o !== '^' && source[at + 1] === '='))));
      if (op === undefined) break;
      at += op.length;
      const right = next();
      left = right === null ? null : apply(op, left, right);
    }
    return left;
  };
  const shift = binary(() => sum(), ['<<', '>>'], (op, a, b) => (b < 0 || b > 52 ? null : op === '<<' ? a * 2 ** b : Math.floor(a / 2 ** b)));
  const and = binary(shift, ['&'], (_op, a, b) => (a >= 0 && b >= 0 && a < 2 ** 31 && b < 2 ** 31 ? a & b : null));
  const xor = binary(and, ['^'], (_op, a, b) => (a >= 0 && b >= 0 && a < 2 ** 31 && b < 2 ** 31 ? a ^ b : null));
  const or = binary(xor, ['|'], (_op, a, b) => (a >= 0 && b >= 0 && a < 2 ** 31 && b < 2 ** 31 ? a | b : null));
  const sum = (): number | null => {
    let left = product();
    for (skip(); left !== null && (source[at] === '+' || source[at] === '-'); skip()) {
      const op = source[at++]!;
      const right = product();
      left = right === null ? null : op === '+' ? left + right : left - right;
    }
    return left;
  };
  const product = (): number | null => {
    let left = power();
    for (skip(); left !== null && /[*/%]/.test(source[at] ?? '') && source.slice(at, at + 2) !== '**'; skip()) {
      const op = source.slice(at, at + 2) === '//' ? '//' : source[at]!;
      at += op.length;
      const right = power();
      if (right === null || (op !== '*' && right === 0)) return null;
      left = op === '*' ? left * right : op === '%' ? left % right : Math.trunc(left / right);
    }
    return left;
  };
  const power = (): number | null => {
    const base = unary();
    skip();
    if (base === null || source.slice(at, at + 2) !== '**') return base;
    at += 2;
    const exponent = power();
    return exponent === null || exponent < 0 || exponent > 64 ? null : base ** exponent;
  };
  const unary = (): number | null => {
    skip();
    if (source[at] === '-' || source[at] === '+') {
      const sign = source[at++] === '-' ? -1 : 1;
      const value = unary();
      return value === null ? null : sign * value;
    }
    if (source[at] === '(') {
      at++;
      const value = or();
      skip();
      if (source[at] !== ')') return null;
      at++;
      return value;
    }
    const match = number.exec(source.slice(at));
    if (match === null) return null;
    at += match[0].length;
    return valueOf(match[0], flavor);
  };
  const value = or();
  skip();
  return value !== null && at === source.length && Number.isSafeInteger(value) ? value : null;
};

/** bash's `BASE#DIGITS` (`16#2253`, `2#1000`), bases 2 to 36, as decimal; null when a digit is not of the base. */
const baseNumber = (base: string, digits: string): string | null => {
  const b = Number(base);
  if (!(b >= 2 && b <= 36) || !/^[0-9a-zA-Z]+$/.test(digits)) return null;
  const value = parseInt(digits, b);
  return [...digits.toLowerCase()].every((d) => parseInt(d, 36) < b) && Number.isSafeInteger(value) ? String(value) : null;
};

const constant = (inner: string): number | null => constantValue(inner.replace(/(\d+)#([0-9a-zA-Z]+)/g, (whole, base: string, digits: string) => baseNumber(base, digits) ?? whole), 'shell');

/**
 * Commands whose output is a constant the line states: `expr 8700 + 87`, `echo 8700+87 | bc`, `bc <<< 8700+87`,
 * `seq 8787 8787`, `printf %d 8787` (red team 15: a port spelled through them).
 */
const constantCommands: readonly RegExp[] = [
  /^\s*expr((?:\s+(?:\d+|[-+*/%]|\\\*))+)\s*$/,
  /^\s*(?:echo|printf)\s+['"]?([0-9+\-*/%() ]+)['"]?\s*\|\s*bc(?:\s+-l)?\s*$/,
  /^\s*bc(?:\s+-l)?\s*<<<\s*['"]?([0-9+\-*/%() ]+)['"]?\s*$/,
  /^\s*printf\s+['"]?%d['"]?\s+(\d+)\s*$/,
];
const constantOutput = (command: string): string | null => {
  const seq = /^\s*seq\s+(\d+)(?:\s+(\d+))?\s*$/.exec(command);
  if (seq !== null) return seq[2] === undefined ? (seq[1] === '1' ? '1' : null) : seq[1] === seq[2] ? seq[1]! : null;
  for (const row of constantCommands) {
    const m = row.exec(command);
    const value = m === null ? null : constant(m[1]!.replace(/\\\*/g, '*'));
    if (value !== null) return String(value);
  }
  return null;
};

/**
 * A word with each constant `$((…))` replaced by its value (`:$((8700+87))/` is `:8787/`, `$((16#2253))` is `8787`),
 * and each `$(…)` of a command with a constant output by that output; other parts stay.
 */
export const withArithmeticFolded = (word: string): string => {
  const folded = word.replace(/\$\(\(((?:[^()]|\((?:[^()]|\([^()]*\))*\))*)\)\)/g, (whole, inner: string) => {
    const value = constant(inner);
    return value === null ? whole : String(value);
  });
  return !folded.includes('$(') && !folded.includes('`') ? folded
    : folded.replace(/\$\(([^()`]*)\)|`([^`]*)`/g, (whole, a?: string, b?: string) => constantOutput(a ?? b ?? '') ?? whole);
};
