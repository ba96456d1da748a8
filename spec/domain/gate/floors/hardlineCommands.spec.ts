import { expect } from 'chai';
import { commandFloorVerdict } from '../../../../domain/gate/floors/commandFloorVerdict.ts';
import { hardlineCommands } from '../../../../domain/gate/floors/hardlineCommands.ts';
import { matchHardline } from '../../../../domain/gate/floors/hardlineFloor.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';
import { expectWellFormedTable } from './ruleTableStructure.ts';

describe('hardline command table', () => {
  const analyze = useBashAnalyzer();
  const hardlineIds = (line: string) => matchHardline(analyze(line)).map((hit) => hit.ruleId);

  expectWellFormedTable(hardlineCommands, (rule) => rule.blocks);

  for (const rule of hardlineCommands) {
    describe(rule.id, () => {
      for (const line of rule.blocks) {
        it(`blocks: ${line}`, () => {
          const analysis = analyze(line);
          expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
          const hits = matchHardline(analysis);
          expect(hits.map((hit) => hit.ruleId)).to.include(rule.id);
          expect(hits.find((hit) => hit.ruleId === rule.id)).to.include({ reason: rule.reason });
        });
      }
      for (const line of rule.allows) {
        it(`allows: ${line}`, () => expect(hardlineIds(line)).not.to.include(rule.id));
      }
    });
  }

  describe('false positives that stay fixed', () => {
    it('quoted prose about rm -rf / is data, not a command', () => {
      const verdict = commandFloorVerdict(analyze("echo 'never run rm -rf / on a server' > notes.txt"));
      expect(verdict).to.deep.include({ verdict: 'allow', hits: [], unparsed: false });
    });

    it('a heredoc body mentioning rm -rf / and mkfs is data', () => {
      const verdict = commandFloorVerdict(analyze("cat > checklist.md <<'EOF'\n- do not rm -rf /\n- do not mkfs\nEOF"));
      expect(verdict.verdict).to.equal('allow');
    });

    it('rm -rf ./build asks (dangerous) and is not hardline', () => {
      const analysis = analyze('rm -rf ./build');
      expect(matchHardline(analysis)).to.deep.equal([]);
      expect(commandFloorVerdict(analysis).verdict).to.equal('ask');
    });

    for (const line of ['git log', 'git log --oneline -20', 'ls -la src', 'npm test']) {
      it(`${line} hits nothing`, () => expect(commandFloorVerdict(analyze(line))).to.deep.include({ verdict: 'allow', hits: [] }));
    }

    it('a commit message quoting a hardline command is data', () => {
      expect(commandFloorVerdict(analyze('git commit -m "guard against rm -rf / and dd of=/dev/sda"')).verdict).to.equal('allow');
    });

    it('grep for a dangerous pattern is not the pattern', () => {
      expect(commandFloorVerdict(analyze("grep -rn 'mkfs.ext4 /dev/sda' docs/")).verdict).to.equal('allow');
    });
  });

  describe('a hardline command next to a syntax error still blocks', () => {
    it('names the rule and marks the line unparsed', () => {
      const analysis = analyze('rm -rf / ; echo "unterminated');
      expect(analysis.parsed).to.equal(false);
      expect(matchHardline(analysis).map((hit) => hit.ruleId)).to.include('delete-filesystem-root');
      expect(commandFloorVerdict(analysis).verdict).to.equal('block');
    });
  });
});
