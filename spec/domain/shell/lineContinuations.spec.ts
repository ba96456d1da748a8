import { expect } from 'chai';
import { joinLineContinuations } from '../../../domain/shell/lineContinuations.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

describe('backslash-newline, which bash removes before it splits words', () => {
  it('joins a word broken across lines', () => {
    expect(joinLineContinuations('her\\\nmes config')).to.equal('hermes config');
    expect(joinLineContinuations('a \\\n  b \\\n  c')).to.equal('a   b   c');
  });

  it('leaves an escaped backslash before a newline alone: that newline ends the command', () => {
    expect(joinLineContinuations('echo a\\\\\nls')).to.equal('echo a\\\\\nls');
    expect(joinLineContinuations('echo a\\\\\\\nb')).to.equal('echo a\\\\b');
  });

  it('returns a line without one unchanged', () => {
    const line = 'echo "a\\nb"';
    expect(joinLineContinuations(line)).to.equal(line);
  });

  describe('through the real bash grammar', () => {
    const analyze = useBashAnalyzer();
    const commands = (line: string) => analyze(line).commands.map((c) => [c.program, ...c.args].join(' '));

    it('sees the joined command, and the command as written where bash keeps the pair (a comment, single quotes)', () => {
      expect(commands('her\\\nmes config set approvals.yolo true')).to.include('hermes config set approvals.yolo true');
      expect(commands('# note \\\nhermes plugins list')).to.include('hermes plugins list');
    });

    it('keeps the source as typed, for the human who reads it', () => {
      expect(analyze('make \\\n  test').source).to.equal('make \\\n  test');
    });

    it('a line whose joined reading fails to parse stays unparsed', () => {
      expect(analyze("cat <<EOF\nx \\\nEOF").parsed).to.equal(false);
    });
  });
});
