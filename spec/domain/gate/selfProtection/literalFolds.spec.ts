import { expect } from 'chai';
import { literalFolds } from '../../../../domain/gate/selfProtection/literalFolds.ts';
import { foldLiterals, pythonStringLiterals } from '../../../../domain/gate/selfProtection/pythonCode.ts';

describe('strings code builds from literals (literalFolds.ts)', () => {
  for (const fold of literalFolds) {
    describe(fold.name, () => {
      it('has examples both ways', () => {
        expect(fold.stops).to.have.length.greaterThan(0);
        expect(fold.allows).to.have.length.greaterThan(0);
      });
      for (const [code, built] of fold.stops) it(`reads ${built} in ${code}`, () => expect(pythonStringLiterals(code)).to.include(built));
      for (const code of fold.allows) it(`leaves ${code} as written`, () => expect(foldLiterals(code)).to.equal(code));
    });
  }
});
