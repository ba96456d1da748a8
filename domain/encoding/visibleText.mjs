// Text for human eyes: every character a terminal or a prompt would act on, or would not show, is written as a
// visible escape, so what a person reads is what the agent sent. Without it `rm -r build/ # \x1b[2K\x1b[1Gls -la`
// erases its own line and shows as `ls -la` to the human asked to approve it; U+202E reverses what follows it.
//
// Plain JavaScript (with visibleText.d.mts for TypeScript): the hook client (adapters/hooks/hookClient.mjs) runs
// without tsx and imports it too. The Hermes plugin has its own copy of the table (adapters/hermes/plugin/tollgate/
// visible.py); spec/adapters/hermes/visibleParity.int.spec.ts keeps the two equal.
//
// The escapes read one way only: a backslash is always the start of an escape (a literal one is `\\`), `\xHH` has
// two hex digits, `\uHHHH` four, `\u{HHHHH}` is braced. So different texts always render differently.

/**
 * What is escaped, one row per kind. Ranges are inclusive code points, disjoint. `example` holds a character of the
 * row and `shown` how it renders (the row's test). spec/domain/encoding/visibleText.spec.ts also checks that every
 * control, format, separator, surrogate, default-ignorable and non-ASCII space code point of the running Unicode is
 * in some row.
 * @type {readonly import('./visibleText.d.mts').VisibleRule[]}
 */
export const visibleRules = [
  { name: 'backslash', ranges: [[0x5c, 0x5c]], why: 'the escape character itself: doubled, so every escape reads one way',
    example: 'C:\\tmp', shown: 'C:\\\\tmp' },
  { name: 'tab', ranges: [[0x09, 0x09]], why: 'looks like spaces; moves the cursor', example: 'a\tb', shown: 'a\\tb' },
  { name: 'newline', ranges: [[0x0a, 0x0a]], why: 'starts a new line (kept as is only in fields shown as multi-line text)',
    example: 'ls\nrm -rf ~', shown: 'ls\\nrm -rf ~' },
  { name: 'carriage-return', ranges: [[0x0d, 0x0d]], why: 'returns to the start of the line, so what follows overwrites it',
    example: 'rm -rf ~\rls', shown: 'rm -rf ~\\rls' },
  { name: 'c0-control', ranges: [[0x00, 0x08], [0x0b, 0x0c], [0x0e, 0x1f]],
    why: 'terminal controls; ESC (0x1b) starts ANSI CSI and OSC sequences that move the cursor, erase, retitle',
    example: 'rm -r build/ # \x1b[2K\x1b[1Gls -la', shown: 'rm -r build/ # \\x1b[2K\\x1b[1Gls -la' },
  { name: 'delete', ranges: [[0x7f, 0x7f]], why: 'DEL: a control byte, invisible', example: 'a\x7fb', shown: 'a\\x7fb' },
  { name: 'c1-control', ranges: [[0x80, 0x9f]], why: 'C1 controls: U+009B is a one-character CSI, U+009D an OSC, in many terminals',
    example: 'ok\u009b2Kls', shown: 'ok\\x9b2Kls' },
  { name: 'unusual-space', ranges: [[0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000]],
    why: 'looks like a space but is not one to a shell: one word reads as two', example: 'rm\u00a0-rf', shown: 'rm\\xa0-rf' },
  { name: 'soft-hyphen', ranges: [[0xad, 0xad]], why: 'not drawn unless a line breaks there', example: 'pass\u00adwd', shown: 'pass\\xadwd' },
  { name: 'combining-grapheme-joiner', ranges: [[0x34f, 0x34f]], why: 'invisible mark', example: 'a\u034fb', shown: 'a\\u034fb' },
  { name: 'prepended-format', ranges: [[0x600, 0x605], [0x6dd, 0x6dd], [0x70f, 0x70f], [0x890, 0x891], [0x8e2, 0x8e2], [0x110bd, 0x110bd], [0x110cd, 0x110cd]],
    why: 'number and abbreviation marks that span what follows; format characters', example: 'x\u0600y', shown: 'x\\u0600y' },
  { name: 'bidi-mark', ranges: [[0x61c, 0x61c], [0x200e, 0x200f]], why: 'invisible direction marks (ALM, LRM, RLM) that reorder neighbours',
    example: 'a\u200fb', shown: 'a\\u200fb' },
  { name: 'hangul-filler', ranges: [[0x115f, 0x1160], [0x3164, 0x3164], [0xffa0, 0xffa0]], why: 'letters that draw as nothing',
    example: 'a\u3164b', shown: 'a\\u3164b' },
  { name: 'braille-blank', ranges: [[0x2800, 0x2800]], why: 'a braille cell with no dots: drawn as a space, a letter to a shell (red team 3, F14)',
    example: 'rm\u2800-rf', shown: 'rm\\u2800-rf' },
  { name: 'khmer-inherent-vowel', ranges: [[0x17b4, 0x17b5]], why: 'not drawn', example: 'a\u17b4b', shown: 'a\\u17b4b' },
  { name: 'mongolian-selector', ranges: [[0x180b, 0x180f]], why: 'free variation selectors and the vowel separator: not drawn',
    example: 'a\u180eb', shown: 'a\\u180eb' },
  { name: 'zero-width', ranges: [[0x200b, 0x200d]], why: 'zero width space, non-joiner and joiner: not drawn',
    example: 'rm\u200b -rf', shown: 'rm\\u200b -rf' },
  { name: 'line-separator', ranges: [[0x2028, 0x2029]], why: 'line and paragraph separators: a line break to some readers',
    example: 'ls\u2028rm', shown: 'ls\\u2028rm' },
  { name: 'bidi-embedding', ranges: [[0x202a, 0x202e]], why: 'embeddings and overrides: U+202E shows the rest of the line reversed',
    example: 'echo \u202e; ls', shown: 'echo \\u202e; ls' },
  { name: 'invisible-operator', ranges: [[0x2060, 0x2065]], why: 'word joiner, invisible times, separator, plus: not drawn',
    example: 'a\u2060b', shown: 'a\\u2060b' },
  { name: 'bidi-isolate', ranges: [[0x2066, 0x2069]], why: 'direction isolates: reorder what they enclose', example: 'a\u2067b\u2069', shown: 'a\\u2067b\\u2069' },
  { name: 'deprecated-format', ranges: [[0x206a, 0x206f]], why: 'deprecated shaping and digit controls: not drawn', example: 'a\u206ab', shown: 'a\\u206ab' },
  { name: 'variation-selector', ranges: [[0xfe00, 0xfe0f], [0xe0100, 0xe01ef]],
    why: 'not drawn; a run of them can carry hidden bytes (emoji that need U+FE0F show it escaped)',
    example: 'hi\ufe0f\u{e0101}', shown: 'hi\\ufe0f\\u{e0101}' },
  { name: 'byte-order-mark', ranges: [[0xfeff, 0xfeff]], why: 'zero width no-break space', example: '\ufeffls', shown: '\\ufeffls' },
  { name: 'specials-format', ranges: [[0xfff0, 0xfffb]], why: 'interlinear annotation controls and reserved invisibles',
    example: 'a\ufff9b', shown: 'a\\ufff9b' },
  { name: 'egyptian-format', ranges: [[0x13430, 0x1343f]], why: 'hieroglyph format controls', example: 'a\u{13430}b', shown: 'a\\u{13430}b' },
  { name: 'shorthand-format', ranges: [[0x1bca0, 0x1bca3]], why: 'shorthand format controls: not drawn', example: 'a\u{1bca0}b', shown: 'a\\u{1bca0}b' },
  { name: 'musical-format', ranges: [[0x1d173, 0x1d17a]], why: 'musical format controls: not drawn', example: 'a\u{1d173}b', shown: 'a\\u{1d173}b' },
  { name: 'tag', ranges: [[0xe0000, 0xe007f]], why: 'tag characters: invisible copies of ASCII that smuggle text past a reader',
    example: 'ok\u{e0072}\u{e006d}', shown: 'ok\\u{e0072}\\u{e006d}' },
  { name: 'reserved-ignorable', ranges: [[0xe0080, 0xe00ff], [0xe01f0, 0xe0fff]], why: 'reserved to be invisible in future Unicode',
    example: 'a\u{e0080}b', shown: 'a\\u{e0080}b' },
  { name: 'lone-surrogate', ranges: [[0xd800, 0xdfff]], why: 'half a character: no reader can show it faithfully',
    example: 'a\ud800b', shown: 'a\\ud800b' },
];

const hex = (/** @type {number} */ cp, /** @type {number} */ width) => cp.toString(16).padStart(width, '0');

/** @param {number} cp @returns {string} */
const classPart = (cp) => `\\u{${hex(cp, 1)}}`;

/** @param {readonly number[]} skip code points left out @returns {RegExp} a class of every other escaped code point */
const classOf = (skip) => {
  const parts = [];
  for (const rule of visibleRules)
    for (const [from, to] of rule.ranges) {
      let start = from;
      for (const cp of [...skip.filter((c) => c >= from && c <= to).sort((a, b) => a - b), to + 1]) {
        if (start < cp) parts.push(start === cp - 1 ? classPart(start) : `${classPart(start)}-${classPart(cp - 1)}`);
        start = cp + 1;
      }
    }
  // With the `u` flag a paired surrogate is one code point, so [\u{d800}-\u{dfff}] matches only lone halves.
  return new RegExp(`[${parts.join('')}]`, 'gu');
};

const singleLine = classOf([]);
const multiLine = classOf([0x0a]);
// JSON.stringify already escapes `"`, `\`, C0 controls and lone surrogates; raw newlines only ever sit between tokens.
const inJson = classOf([0x0a, 0x5c]);

// Most text is plain printable ASCII: one cheap test answers it before the full class is tried.
const plainText = /^[\x20-\x5b\x5d-\x7e]*$/;
const plainMultiLine = /^[\n\x20-\x5b\x5d-\x7e]*$/;
const plainJson = /^[\n\x20-\x7e]*$/;

/** @type {Readonly<Record<string, string>>} */
const named = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** @param {string} ch @returns {string} */
const escapeOne = (ch) => {
  const short = named[ch];
  if (short !== undefined) return short;
  const cp = /** @type {number} */ (ch.codePointAt(0));
  if (cp < 0x100) return `\\x${hex(cp, 2)}`;
  if (cp < 0x10000) return `\\u${hex(cp, 4)}`;
  return `\\u{${hex(cp, 1)}}`;
};

/** @param {string} ch @returns {string} the character as JSON \u escapes (a surrogate pair for astral ones) */
const jsonEscape = (ch) => {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += `\\u${hex(ch.charCodeAt(i), 4)}`;
  return out;
};

/**
 * The text with every control, invisible, direction-changing character and every backslash escaped.
 * `multiline: true` keeps line feeds as line breaks (code shown as code); everything else is still escaped.
 * @param {string} text @param {{ multiline?: boolean }} [options] @returns {string}
 */
export const visibleText = (text, options) => {
  if ((options?.multiline ? plainMultiLine : plainText).test(text)) return text;
  const pattern = options?.multiline ? multiLine : singleLine;
  pattern.lastIndex = 0;
  if (!pattern.test(text)) return text;
  pattern.lastIndex = 0;
  return text.replace(pattern, escapeOne);
};

/**
 * JSON text whose string values carry the same escapes as \uXXXX: a JSON reader gets the exact value back, a person
 * looking at the raw bytes sees the escape. For JSON that came from elsewhere (a daemon's answer); leaves
 * backslashes and newlines alone, as they are JSON's own.
 * @param {string} json @returns {string}
 */
export const visibleJsonText = (json) => {
  if (plainJson.test(json)) return json;
  inJson.lastIndex = 0;
  if (!inJson.test(json)) return json;
  inJson.lastIndex = 0;
  return json.replace(inJson, jsonEscape);
};

/**
 * JSON.stringify, with the characters it leaves raw (DEL, C1, direction and invisible ones) as \uXXXX too.
 * @param {unknown} value @param {number} [indent] @returns {string}
 */
export const visibleJson = (value, indent) => visibleJsonText(JSON.stringify(value, null, indent) ?? 'null');
