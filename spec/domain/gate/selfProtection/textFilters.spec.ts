/** The filter table (textFilters.ts): which stages pass lines of their files on, which rewrite text; each entry by the real grammar. */
import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { pipedFiles } from '../../../../domain/gate/selfProtection/handedOnFiles.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { filterEffect, filterPrograms, rewritingStage } from '../../../../domain/gate/selfProtection/textFilters.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

/** A stage that selects lines of /tmp/f, per program (its own script first where it has one). */
const selectorExamples: Readonly<Record<string, string>> = {
  cat: 'cat /tmp/f', tac: 'tac /tmp/f', head: 'head -n 3 /tmp/f', tail: 'tail -1 /tmp/f', pv: 'pv -q /tmp/f', sort: 'sort -r /tmp/f',
  uniq: 'uniq /tmp/f', shuf: 'shuf -n 1 /tmp/f', nl: 'nl /tmp/f', more: 'more /tmp/f', less: 'less /tmp/f',
  grep: 'grep -v "^#" /tmp/f', egrep: 'egrep tollgate /tmp/f', fgrep: 'fgrep -i x /tmp/f', zgrep: 'zgrep -e x /tmp/f',
  sed: 'sed -n 2p /tmp/f', gsed: "gsed -n '2,3p' /tmp/f", awk: "awk 'NR==2' /tmp/f", gawk: "gawk '/x/' /tmp/f", mawk: "mawk '{print}' /tmp/f", nawk: "nawk '{ print $0 }' /tmp/f",
};

/** The same programs where they compute new text. */
const rewriterExamples: Readonly<Record<string, string>> = {
  grep: 'grep -o "t.*s" /tmp/f', egrep: 'egrep --only-matching x /tmp/f', fgrep: 'fgrep -o x /tmp/f', zgrep: 'zgrep -o x /tmp/f',
  sed: 'sed s/X//g /tmp/f', gsed: "gsed -e 'y/abc/xyz/' /tmp/f", awk: "awk '{print $2}' /tmp/f", gawk: "gawk 'BEGIN{print \"x\"}'", mawk: "mawk '{gsub(/X/,\"\")}1' /tmp/f",
  nawk: "nawk -f prog.awk /tmp/f", uudecode: 'uudecode -o /dev/stdout /tmp/f',
};

describe('text filters: what a pipeline stage hands on (textFilters.ts)', () => {
  const analyze = useBashAnalyzer();
  const blocks = (line: string, scripts: Record<string, string> = {}) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, scripts }).some((f) => f.verdict === 'block');
  const shellOf = (line: string) => { const a = analyze(line); return { a, sh: a.commands.find((c) => c.program === 'sh')! }; };

  for (const program of filterPrograms) {
    const selector = selectorExamples[program];
    const rewriter = rewriterExamples[program] ?? (selector === undefined ? `${program} /tmp/f` : undefined);
    if (selector !== undefined) {
      it(`${program}: lines of its files reach the shell, so the files' text is judged (${selector} | sh)`, () => {
        const { a, sh } = shellOf(`${selector} | sh`);
        expect(filterEffect(a.commands[0]!)).to.equal('selects-lines');
        expect(pipedFiles(sh, a)).to.deep.equal(['/tmp/f']);
        expect(blocks(`${selector} | sh`, { '/tmp/f': 'echo hi\ntollgate approve a1 always\n' })).to.equal(true);
        expect(blocks(`${selector} | sh`, { '/tmp/f': 'echo hi\n' })).to.equal(false);
      });
    }
    if (rewriter !== undefined) {
      it(`${program}: rewritten text fed to a shell is hidden (${rewriter} | sh)`, () => {
        const { a, sh } = shellOf(`${rewriter} | sh`);
        expect(filterEffect(a.commands[0]!)).to.equal('rewrites');
        expect(rewritingStage(sh, a)?.program).to.equal(program);
        expect(blocks(`${rewriter} | sh`)).to.equal(true);
        expect(blocks(`${rewriter} | wc -l`)).to.equal(false);
      });
    }
  }

  it('follows selectors that read their input back to the file (cat f | grep x | sh)', () => {
    const { a, sh } = shellOf('cat /tmp/f | grep -v x | tail -2 | sh');
    expect(pipedFiles(sh, a)).to.deep.equal(['/tmp/f']);
  });

  it('a rewriter anywhere before the shell hides the text, even when the walk passed echoed text through it', () => {
    expect(blocks('echo tolXlgate approve a1 always | sed s/X//g | sh')).to.equal(true);
    expect(blocks('cat /tmp/f | tr -d X | grep . | bash')).to.equal(true);
  });

  it('a shell reading a here-document or a file of its own does not read the pipe', () => {
    expect(blocks("sed s/X// /tmp/f | sh <<'EOF'\necho hi\nEOF")).to.equal(false);
    expect(blocks('cut -d: -f1 /tmp/f | sh -c "cat > /tmp/out"')).to.equal(false);
  });
});
