import { expect } from 'chai';
import fc from 'fast-check';
import { visibleJson, visibleJsonText, visibleRules, visibleText } from '../../../domain/encoding/visibleText.mjs';

/** What a terminal or prompt may act on or not draw, by the running Unicode's own properties (not by the table). */
const hidden = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}]|(?! )\p{Zs}/u;
const hiddenGlobal = new RegExp(hidden.source, 'gu');
const hiddenOtherThanNewline = (text: string): string[] => [...text.matchAll(hiddenGlobal)].map((m) => m[0]).filter((c) => c !== '\n');

/** Reads a rendering back (the test's own decoder): if it always returns the input, no two inputs share a rendering. */
const readBack = (shown: string): string => {
  let out = '';
  for (let i = 0; i < shown.length;) {
    const ch = shown[i]!;
    if (ch !== '\\') { out += ch; i++; continue; }
    const kind = shown[i + 1];
    if (kind === '\\') { out += '\\'; i += 2; }
    else if (kind === 'n') { out += '\n'; i += 2; }
    else if (kind === 't') { out += '\t'; i += 2; }
    else if (kind === 'r') { out += '\r'; i += 2; }
    else if (kind === 'x') { out += String.fromCharCode(parseInt(shown.slice(i + 2, i + 4), 16)); i += 4; }
    else if (kind === 'u' && shown[i + 2] === '{') {
      const end = shown.indexOf('}', i);
      out += String.fromCodePoint(parseInt(shown.slice(i + 3, end), 16));
      i = end + 1;
    } else if (kind === 'u') { out += String.fromCharCode(parseInt(shown.slice(i + 2, i + 6), 16)); i += 6; }
    else throw new Error(`a bare backslash at ${i} in ${JSON.stringify(shown)}`);
  }
  return out;
};

/** Strings rich in what the table is about: any UTF-16 unit (lone surrogates too), astral code points, escape look-alikes. */
const unit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
  fc.constantFrom('\\', 'x', 'u', '{', '}', '1', 'b', 'n', 't', 'r', '\n', '\x1b', '\u202e', '\u200b', '\u{e0041}', '😀', ' '),
  fc.constantFrom(...visibleRules.flatMap((r) => r.ranges.flatMap(([from, to]) => [from, to]))).map((cp) => String.fromCodePoint(cp)),
);
const richText = fc.array(unit, { maxLength: 40 }).map((parts) => parts.join(''));

describe('visibleText: what a person reads is what was sent', () => {
  describe('the rule table', () => {
    for (const rule of visibleRules) {
      it(`${rule.name}: ${visibleJson(rule.example)} shows as ${rule.shown}, and each end of its ranges is escaped`, () => {
        expect(visibleText(rule.example)).to.equal(rule.shown);
        for (const [from, to] of rule.ranges)
          for (const cp of [from, Math.floor((from + to) / 2), to]) {
            const shown = visibleText(String.fromCodePoint(cp));
            expect(shown, `U+${cp.toString(16)}`).to.match(/^\\/);
            expect(hidden.test(shown), `U+${cp.toString(16)} rendered ${shown}`).to.equal(false);
          }
      });
    }

    it('names are unique, every row says why, and no code point is in two rows', () => {
      expect(new Set(visibleRules.map((r) => r.name)).size).to.equal(visibleRules.length);
      for (const rule of visibleRules) expect(rule.why, rule.name).to.match(/\w{3}/);
      const ranges = visibleRules.flatMap((r) => r.ranges.map(([from, to]) => ({ from, to, name: r.name }))).sort((a, b) => a.from - b.from);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]!.from, `${ranges[i - 1]!.name} and ${ranges[i]!.name}`).to.be.greaterThan(ranges[i - 1]!.to);
    });

    it('covers every control, format, separator, surrogate, default-ignorable and odd-space code point of this Unicode', () => {
      const inTable = (cp: number) => visibleRules.some((r) => r.ranges.some(([from, to]) => cp >= from && cp <= to));
      const missing: string[] = [];
      for (let cp = 0; cp <= 0x10ffff; cp++) if (hidden.test(String.fromCodePoint(cp)) && !inTable(cp)) missing.push(`U+${cp.toString(16)}`);
      expect(missing).to.deep.equal([]);
    });
  });

  it('shows the line-erasing command with its escapes, not as `ls -la`', () => {
    const shown = visibleText('rm -r build/ # \x1b[2K\x1b[1Gls -la');
    expect(shown).to.equal('rm -r build/ # \\x1b[2K\\x1b[1Gls -la');
    expect(shown).to.not.include('\x1b');
  });

  it('leaves ordinary text alone: ASCII, accents, CJK, Arabic, Hebrew, emoji without selectors', () => {
    const plain = 'ls -la ~/src | grep "x" > out.txt && echo $? é 中文 مرحبا שלום 😀 ~!@#$%^&*()_+{}[]:;\'<>,.?/`|=-';
    expect(visibleText(plain)).to.equal(plain);
  });

  it('multi-line fields keep line feeds and still escape carriage returns and everything else', () => {
    expect(visibleText('a\nb\r\n\u202ec', { multiline: true })).to.equal('a\nb\\r\n\\u202ec');
  });

  it('property: the rendering holds no control or invisible character (a multi-line one only line feeds)', () => {
    fc.assert(fc.property(richText, (text) => {
      expect(hiddenOtherThanNewline(visibleText(text))).to.deep.equal([]);
      expect(visibleText(text)).to.not.include('\n');
      expect(hiddenOtherThanNewline(visibleText(text, { multiline: true }))).to.deep.equal([]);
    }), { numRuns: 2000 });
  });

  it('property: the rendering reads back to the input, so different inputs never render alike', () => {
    fc.assert(fc.property(richText, (text) => {
      expect(readBack(visibleText(text))).to.equal(text);
      expect(readBack(visibleText(text, { multiline: true }))).to.equal(text);
    }), { numRuns: 2000 });
    fc.assert(fc.property(richText, richText, (a, b) => {
      fc.pre(a !== b);
      expect(visibleText(a)).to.not.equal(visibleText(b));
    }), { numRuns: 2000 });
  });

  describe('visibleJson', () => {
    it('property: JSON readers get the exact value back; the raw text holds no control or invisible character', () => {
      const value = fc.dictionary(richText, fc.oneof(richText, fc.array(richText, { maxLength: 3 }), fc.integer()), { maxKeys: 4 });
      fc.assert(fc.property(value, (v) => {
        const json = visibleJson(v);
        expect(JSON.parse(json)).to.deep.equal(v);
        expect(hiddenOtherThanNewline(json)).to.deep.equal([]);
        expect(json).to.not.include('\n');
      }), { numRuns: 1000 });
    });

    it('escapes what JSON.stringify leaves raw: U+202E, DEL, C1, tags', () => {
      expect(JSON.stringify('\u202e\x7f\u009b\u{e0041}')).to.match(/\u202e/);
      expect(visibleJson('\u202e\x7f\u009b\u{e0041}')).to.equal('"\\u202e\\u007f\\u009b\\udb40\\udc41"');
    });

    it('keeps pretty-printed JSON valid (newlines between tokens stay) and leaves JSON\'s own escapes alone', () => {
      const value = { a: 'x\\y\n\u200b' };
      expect(JSON.parse(visibleJson(value, 2))).to.deep.equal(value);
      expect(visibleJsonText('{"a":"\\\\\\n"}')).to.equal('{"a":"\\\\\\n"}');
    });
  });
});
