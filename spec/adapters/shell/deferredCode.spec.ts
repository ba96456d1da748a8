import { expect } from 'chai';
import { deferredCodeSources } from '../../../adapters/shell/deferredCode.ts';
import { exampleFacts } from '../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

describe('text bash expands as code later: prompts and array subscripts (real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const blocked = (line: string) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).some((f) => f.verdict === 'block');

  for (const source of deferredCodeSources) {
    describe(source.name, () => {
      for (const line of source.stops) {
        it(`walks the text as code, and the floor blocks: ${line}`, () => {
          const analysis = analyze(line);
          expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
          expect(analysis.commands.some((c) => c.via.includes(`${source.name} expanded later`))).to.equal(true);
          expect(blocked(line)).to.equal(true);
        });
      }
      for (const line of source.allows) it(`allows: ${line}`, () => expect(blocked(line)).to.equal(false));
    });
  }

  it('walks an alias defined through BASH_ALIASES as the code it runs where its name is typed', () => {
    const commands = analyze("BASH_ALIASES[x]='tollgate approve a1 always'; x").commands;
    expect(commands.filter((c) => c.via.includes('BASH_ALIASES')).map((c) => [c.program, ...c.args])).to.deep.include(['tollgate', 'approve', 'a1', 'always']);
    expect(blocked("BASH_ALIASES[ls]='hermes config set approvals.yolo true'")).to.equal(true);
    expect(blocked("BASH_ALIASES[ll]='ls -la'; declare -A m; m[k]='tollgate approve a1 always'")).to.equal(false);
  });

  it('runs the callback mapfile -C evaluates for every line it reads', () => {
    const commands = analyze("mapfile -t -C 'tollgate approve a1 always' -c 1 lines <<< x").commands;
    expect(commands.map((c) => [c.program, ...c.args])).to.deep.include(['tollgate', 'approve', 'a1', 'always']);
    expect(blocked("readarray -C'hermes plugins disable tollgate' -c1 a < /dev/null")).to.equal(true);
    expect(blocked('mapfile -t -C echo -c 100 lines < big.txt')).to.equal(false);
  });

  it('runs the backticks of an unquoted heredoc body, which the grammar leaves as text', () => {
    const commands = analyze('cat > notes.md <<EOF\nrun `tollgate approve a1 always` now\nEOF').commands;
    expect(commands.map((c) => [c.program, ...c.args])).to.deep.include(['tollgate', 'approve', 'a1', 'always']);
    expect(analyze("cat <<'EOF'\n`tollgate approve a1`\nEOF").commands.map((c) => c.program)).to.deep.equal(['cat']);
    expect(analyze('cat <<EOF\n\\`tollgate approve a1\\`\nEOF').commands.map((c) => c.program)).to.deep.equal(['cat']);
  });
});
