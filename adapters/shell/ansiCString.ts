/** Decodes the body of a bash ANSI-C string ($'...'), so `$'\x72m'` is read as `rm`. */

const simpleEscapes = new Map<string, string>([
  ['a', '\x07'], ['b', '\b'], ['e', '\x1b'], ['E', '\x1b'], ['f', '\f'], ['n', '\n'], ['r', '\r'], ['t', '\t'], ['v', '\v'],
  ['\\', '\\'], ["'", "'"], ['"', '"'], ['?', '?'],
]);

export const decodeAnsiC = (body: string): string => {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== '\\' || i + 1 >= body.length) {
      out += ch;
      continue;
    }
    const next = body[++i]!;
    const simple = simpleEscapes.get(next);
    if (simple !== undefined) {
      out += simple;
    } else if (next >= '0' && next <= '7') {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i))![0];
      out += String.fromCharCode(parseInt(digits, 8) & 0xff);
      i += digits.length - 1;
    } else if (next === 'x' || next === 'u' || next === 'U') {
      const max = next === 'x' ? 2 : next === 'u' ? 4 : 8;
      const digits = new RegExp(`^[0-9a-fA-F]{1,${max}}`).exec(body.slice(i + 1))?.[0];
      if (digits === undefined) {
        out += '\\' + next;
        continue;
      }
      const code = parseInt(digits, 16);
      out += code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
      i += digits.length;
    } else if (next === 'c' && i + 1 < body.length) {
      out += String.fromCharCode(body.charCodeAt(++i) & 0x1f);
    } else {
      out += '\\' + next;
    }
  }
  return out;
};
