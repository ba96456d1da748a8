import { expect } from 'chai';
import { programCandidates } from '../../../adapters/shell/programCandidates.ts';
import { exampleFacts } from '../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

describe('a program word the line does not determine, judged as each guard program it may be (real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const blocked = (line: string) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).some((f) => f.verdict === 'block');

  for (const candidate of programCandidates) {
    describe(candidate.program, () => {
      for (const line of candidate.stops) {
        it(`reports a candidate, and the floor blocks: ${line}`, () => {
          const analysis = analyze(line);
          expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
          expect(analysis.commands.some((c) => c.via.some((label) => label.startsWith('candidate ')))).to.equal(true);
          expect(blocked(line)).to.equal(true);
        });
      }
      for (const line of candidate.allows) {
        it(`allows: ${line}`, () => {
          expect(blocked(line)).to.equal(false);
          // An expansion whose arguments reach nothing is no candidate at all (the approval rules never see one).
          if (!/[*?]/.test(line)) expect(analyze(line).commands.filter((c) => c.via.some((label) => label.startsWith('candidate ')))).to.deep.equal([]);
        });
      }
    });
  }

  it('a program word the line determines is judged as itself only', () => {
    const commands = analyze("c=$(printf 'tollgat\\x65'); $c approve a1").commands;
    expect(commands.filter((c) => c.via.some((label) => label.startsWith('candidate ')))).to.deep.equal([]);
    expect(commands.map((c) => c.program)).to.include('tollgate');
  });
});
