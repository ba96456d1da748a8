import { expect } from 'chai';
import { typedInputFindings, typedInputHazards } from '../../../../domain/gate/selfProtection/typedInput.ts';

describe('input typed into a background shell may not lean on state the gate never saw (red team 3, F4)', () => {
  it('every hazard has a kebab-case name, a reason and examples both ways', () => {
    expect(new Set(typedInputHazards.map((h) => h.name)).size).to.equal(typedInputHazards.length);
    for (const h of typedInputHazards) {
      expect(h.name).to.match(/^[a-z]+(?:-[a-z]+)*$/);
      expect(h.why, h.name).to.not.equal('');
      expect(h.stops, h.name).to.have.length.greaterThan(0);
      expect(h.allows, h.name).to.have.length.greaterThan(0);
    }
  });

  for (const h of typedInputHazards) {
    describe(h.name, () => {
      for (const text of h.stops) it(`refuses ${JSON.stringify(text)}`, () => expect(h.test(text)).to.equal(true));
      for (const text of h.allows) it(`lets ${JSON.stringify(text)} through`, () => expect(h.test(text)).to.equal(false));
    });
  }

  it('submit sends Enter after the data, write sends it as is', () => {
    expect(typedInputFindings('ls -la', true)).to.deep.equal([]);
    expect(typedInputFindings('ls -la', false).map((h) => h.name)).to.deep.equal(['unfinished-line']);
    expect(typedInputFindings('rm -rf ~/.her\\', true).map((h) => h.name)).to.deep.equal(['unfinished-line']);
  });

  it('answers to prompts pass', () => {
    for (const answer of ['y', 'n', 'yes', '2', 'my-project', 'hunter2'])
      expect(typedInputFindings(answer, true), answer).to.deep.equal([]);
  });
});
