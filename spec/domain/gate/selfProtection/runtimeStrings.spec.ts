import { expect } from 'chai';
import { runtimeStringFolds } from '../../../../domain/gate/selfProtection/runtimeStrings.ts';
import { foldLiterals, pythonStringLiterals } from '../../../../domain/gate/selfProtection/pythonCode.ts';
import { fromBase32, fromBase64, fromHex, reversed, rot13, translated } from '../../../../domain/shell/textDecoders.ts';

describe('strings inline code builds at run time are read as the value they make (runtimeStrings.ts, red team 8)', () => {
  for (const fold of runtimeStringFolds) {
    describe(fold.name, () => {
      for (const [code, built] of fold.stops) it(`sees ${built} built by ${code}`, () => expect(pythonStringLiterals(code)).to.include(built));
      for (const code of fold.allows) it(`leaves ordinary code as written: ${code}`, () => expect(foldLiterals(code)).to.equal(code));
    });
  }

  it('reads the home asked of the runtime as ~, so a join below it names the Hermes home', () => {
    expect(pythonStringLiterals("open(os.path.join(os.getenv('HOME'), '.hermes', 'config.yaml'), 'w')")).to.include('~/.hermes/config.yaml');
    expect(pythonStringLiterals("(pathlib.Path.home() / '.hermes' / 'config.yaml').write_text('x')")).to.include('~/.hermes/config.yaml');
  });

  it('keeps a benign path built below the home benign', () =>
    expect(pythonStringLiterals("open(os.path.join(os.environ['HOME'], 'proj', 'README.md'), 'w')")).to.include('~/proj/README.md'));

  it('leaves an encoding that does not decode to text as written', () =>
    expect(foldLiterals("base64.b64decode('////')")).to.equal("base64.b64decode('////')"));
});

describe('the plain encodings a word hides in decode exactly (textDecoders.ts)', () => {
  it('base64, also without padding and url-safe', () => {
    expect(fromBase64('dG9sbGdhdGU=')).to.equal('tollgate');
    expect(fromBase64('dG9sbGdhdGU')).to.equal('tollgate');
    expect(fromBase64('not base64!')).to.equal(null);
  });
  it('base32', () => expect(fromBase32('ORXWY3DHMF2GK===')).to.equal('tollgate'));
  it('hex, with or without \\x', () => {
    expect(fromHex('746f6c6c67617465')).to.equal('tollgate');
    expect(fromHex('\\x74\\x6f')).to.equal('to');
    expect(fromHex('7')).to.equal(null);
  });
  it('binary output is not text', () => expect(fromHex('00ff')).to.equal(null));
  it('rot13 and reversal', () => {
    expect(rot13('gbyytngr')).to.equal('tollgate');
    expect(reversed('etagllot')).to.equal('tollgate');
  });
  it("tr's ranges, classes, padding and -d", () => {
    expect(translated('gbyytngr', ['a-z', 'n-za-m'])).to.equal('tollgate');
    expect(translated('TOLLGATE', ['[:upper:]', '[:lower:]'])).to.equal('tollgate');
    expect(translated('tXollgate', ['-d', 'X'])).to.equal('tollgate');
    expect(translated('abc', ['-s', 'a'])).to.equal(null);
  });
});
