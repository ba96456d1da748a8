import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { hermesHomeCodeRows } from '../../../../domain/gate/selfProtection/hermesHomeCode.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';

const written = (path: string) => findSelfProtection({ tool: 'write_file', args: { path, content: 'x' }, shell: null, protection: exampleFacts });

describe('what a Hermes home holds that Hermes runs (hermesHomeCode.ts, exampleFacts)', () => {
  for (const row of hermesHomeCodeRows) {
    describe(row.name, () => {
      it('says why', () => expect(row.why).to.not.equal(''));
      for (const path of row.stops)
        it(`blocks a write of ${path}`, () => expect(written(path).map((f) => f.verdict)).to.include('block'));
      for (const path of row.allows)
        it(`does not block a write of ${path}`, () => expect(written(path).map((f) => f.verdict)).to.not.include('block'));
    });
  }
});
