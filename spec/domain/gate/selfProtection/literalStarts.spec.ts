import { expect } from 'chai';
import { literalStarts, replaceFirstAtLiteral } from '../../../../domain/gate/selfProtection/literalStarts.ts';

describe('where string literals open (literalStarts.ts)', () => {
  it('reads literals left to right, so the text between two of them is none', () => {
    expect([...literalStarts("'~'/('.'+'x')")]).to.deep.equal([0, 5, 9]);
  });
  it('skips an escaped quote inside a literal', () => {
    expect([...literalStarts("'a\\'b' + 'c'")]).to.deep.equal([0, 9]);
  });
  it('folds only a match that starts where a literal opens', () => {
    const pattern = /'([^']*)'\s*\.\s*'([^']*)'/g;
    expect(replaceFirstAtLiteral("'~'/('.'+'x')", pattern, () => 'FOLDED')).to.equal("'~'/('.'+'x')");
    expect(replaceFirstAtLiteral("x = 'a' . 'b'", pattern, (_m, a, b) => `'${a}${b}'`)).to.equal("x = 'ab'");
  });
});
