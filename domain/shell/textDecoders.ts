/**
 * The plain encodings a command line hides a word in (red team 8): base64, base32, hex, rot13, a reversal, and
 * tr's character sets. Pure and exact: each returns the decoded text, or null when the input is not valid for
 * it or decodes to something that is not text (a word built from binary is not a program or a path anyway).
 */

/** Text only: no NUL or other control characters but blanks and line ends. */
const textual = (text: string): string | null => (/[\0-\x08\x0e-\x1f\x7f]/.test(text) ? null : text);

const utf8 = (bytes: Uint8Array): string | null => {
  try {
    return textual(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
};

export const fromBase64 = (input: string): string | null => {
  const clean = input.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/');
  if (clean === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return null;
  try {
    const binary = atob(clean.padEnd(clean.length + ((4 - (clean.length % 4)) % 4), '='));
    return utf8(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
};

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const fromBase32 = (input: string): string | null => {
  const clean = input.replace(/\s+/g, '').replace(/=+$/, '').toUpperCase();
  if (clean === '' || !/^[A-Z2-7]+$/.test(clean)) return null;
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const c of clean) {
    value = (value << 5) | base32Alphabet.indexOf(c);
    bits += 5;
    if (bits >= 8) { bytes.push((value >>> (bits - 8)) & 0xff); bits -= 8; }
  }
  return utf8(Uint8Array.from(bytes));
};

export const fromHex = (input: string): string | null => {
  const clean = input.replace(/\s+|\\x|0x/gi, '');
  if (clean === '' || clean.length % 2 !== 0 || !/^[0-9a-f]+$/i.test(clean)) return null;
  return utf8(Uint8Array.from(clean.match(/../g)!, (h) => parseInt(h, 16)));
};

export const rot13 = (input: string): string =>
  input.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** Reversed by characters, as rev, Perl's scalar reverse and `[::-1]` reverse it. */
export const reversed = (input: string): string => [...input].reverse().join('');

/** A tr set with its ranges (`a-z`) and the classes people use spelled out; null for what is not read here. */
const trSet = (spec: string): string | null => {
  const classes: Record<string, string> = { lower: 'abcdefghijklmnopqrstuvwxyz', upper: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', digit: '0123456789' };
  const text = spec.replace(/\[:(lower|upper|digit):\]/g, (_m, name: string) => classes[name]!);
  if (/\[|\\/.test(text)) return null;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    if (text[i + 1] === '-' && i + 2 < text.length) {
      const from = text.charCodeAt(i);
      const to = text.charCodeAt(i + 2);
      if (to < from || to - from > 256) return null;
      for (let c = from; c <= to; c++) out += String.fromCharCode(c);
      i += 2;
    } else out += text[i];
  }
  return out;
};

/** `tr SET1 SET2` of the text (SET2 padded with its last character, as GNU tr pads it); `tr -d SET` deletes. */
export const translated = (input: string, args: readonly string[]): string | null => {
  if (args.length === 2 && args[0] === '-d') {
    const gone = trSet(args[1]!);
    return gone === null ? null : [...input].filter((c) => !gone.includes(c)).join('');
  }
  if (args.length !== 2 || args.some((a) => a.startsWith('-'))) return null;
  const from = trSet(args[0]!);
  const to = trSet(args[1]!);
  if (from === null || to === null || to === '') return null;
  return [...input].map((c) => { const at = from.lastIndexOf(c); return at < 0 ? c : to[Math.min(at, to.length - 1)]!; }).join('');
};
