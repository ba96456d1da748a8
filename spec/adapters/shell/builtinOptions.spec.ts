import { expect } from 'chai';
import { builtinOptions } from '../../../adapters/shell/builtinOptions.ts';
import { exampleFacts } from '../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

describe('builtin option letters, read once for both the values a line gives and the names it may assign', () => {
  it('a valued letter takes the rest of its cluster or the next word', () => {
    expect(builtinOptions(['-rp', 'Name? ', 'x'], 'p')).to.deep.equal({ letters: [{ letter: 'r', value: undefined }, { letter: 'p', value: 'Name? ' }], operands: ['x'], malformed: false });
    expect(builtinOptions(['-vout', '%s', 'a'], 'v').letters).to.deep.equal([{ letter: 'v', value: 'out' }]);
  });

  it('options end at -- and at the first word that is not a dash and a letter', () => {
    expect(builtinOptions(['--', '-r', 'x'], 'p').operands).to.deep.equal(['-r', 'x']);
    expect(builtinOptions(['-', 'x'], '').operands).to.deep.equal(['-', 'x']);
  });

  it('a valued letter without its value, or a digit inside a cluster, marks the parse malformed but keeps reading', () => {
    expect(builtinOptions(['-a'], 'a')).to.deep.equal({ letters: [{ letter: 'a', value: undefined }], operands: [], malformed: true });
    expect(builtinOptions(['-r1a', 'arr'], 'a')).to.deep.equal({ letters: [{ letter: 'r', value: undefined }, { letter: 'a', value: 'arr' }], operands: [], malformed: true });
  });

  describe('through the real bash grammar', () => {
    const analyze = useBashAnalyzer();
    const programOf = (line: string) => analyze(line).commands.map((c) => c.program);
    const blocked = (line: string) =>
      findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).some((f) => f.verdict === 'block');

    it('a cleanly parsed read from a here-string gives its variable a value the line then runs', () => {
      expect(programOf('read -r c <<< hermes; $c status')).to.include('hermes');
    });

    it('a read the values do not follow (-u reads another descriptor) still counts as assigning its name: the old value is not trusted', () => {
      expect(blocked('c=ls; exec 3<<< hermes; read -u 3 c; $c config set approvals.yolo true')).to.equal(true);
      expect(blocked('c=ls; exec 3<<< hermes; read -u 3 c; $c -la')).to.equal(false);
    });

    it('an invalid option makes bash refuse the read, so the earlier value stands', () => {
      expect(programOf('c=ls; read -r1 c <<< hermes; $c status')).to.include('ls');
    });
  });
});
