import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { protectionRules } from '../../../../domain/gate/selfProtection/shellRules.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('self-protection command table (examples through the real bash grammar, against exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const ids = (line: string) => findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).map((f) => f.id);

  it('has unique kebab-case ids, a one-sentence reason and examples both ways', () => {
    expect(new Set(protectionRules.map((r) => r.id)).size).to.equal(protectionRules.length);
    for (const rule of protectionRules) {
      expect(rule.id).to.match(/^[a-z]+(?:-[a-z]+)*$/);
      expect(rule.reason, rule.id).to.match(/^[A-Z].*\.$/);
      expect(rule.stops, rule.id).to.have.length.greaterThan(0);
      expect(rule.allows, rule.id).to.have.length.greaterThan(0);
    }
  });

  for (const rule of protectionRules) {
    describe(rule.id, () => {
      for (const line of rule.stops) {
        it(`${rule.verdict === 'block' ? 'blocks' : 'asks'}: ${line}`, () => {
          const analysis = analyze(line);
          expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
          expect(ids(line)).to.include(rule.id);
        });
      }
      for (const line of rule.allows) it(`allows: ${line}`, () => expect(ids(line)).not.to.include(rule.id));
    });
  }
});
