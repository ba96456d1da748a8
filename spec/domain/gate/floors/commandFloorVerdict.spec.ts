import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandFloorVerdict, unparseableRuleId } from '../../../../domain/gate/floors/commandFloorVerdict.ts';
import type { ShellAnalysis } from '../../../../domain/shell/shellAnalysis.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

const analysis = (commands: ShellAnalysis['commands'], parsed = true): ShellAnalysis => ({
  source: commands.map((command) => command.text).join('; '),
  parsed,
  problems: parsed ? [] : ['syntax error at byte 3'],
  commands,
});
const command = (program: string, ...args: string[]) => ({
  program, programPath: program, args, redirects: [], pipedFrom: [], via: [], text: [program, ...args].join(' '),
});

describe('command floor verdict', () => {
  it('allows a line with no hits', () =>
    expect(commandFloorVerdict(analysis([command('ls', '-la')]))).to.deep.equal({ verdict: 'allow', hits: [], unparsed: false }));

  it('asks on a dangerous hit', () => {
    const verdict = commandFloorVerdict(analysis([command('git', 'reset', '--hard')]));
    expect(verdict.verdict).to.equal('ask');
    expect(verdict.hits.map((hit) => hit.ruleId)).to.deep.equal(['git-reset-hard']);
  });

  it('blocks on a hardline hit and lists hardline hits before dangerous ones', () => {
    const verdict = commandFloorVerdict(analysis([command('rm', '-rf', '/')]));
    expect(verdict.verdict).to.equal('block');
    expect(verdict.hits.map((hit) => hit.ruleId)).to.deep.equal(['delete-filesystem-root', 'recursive-delete', 'delete-in-root-path']);
  });

  it('blocks a line that was not fully parsed, even with nothing else found, and says why', () => {
    const verdict = commandFloorVerdict(analysis([command('ls')], false));
    expect(verdict).to.deep.include({ verdict: 'block', unparsed: true });
    expect(verdict.hits).to.have.length(1);
    expect(verdict.hits[0]).to.include({ ruleId: unparseableRuleId });
    expect(verdict.hits[0]!.reason).to.include('syntax error at byte 3');
  });

  describe('public command scenarios (/work/shared/scenarios/commands.jsonl), first decisions', function () {
    const analyze = useBashAnalyzer();
    const path = fileURLToPath(new URL('../../../../../shared/scenarios/commands.jsonl', import.meta.url));
    before(function () {
      if (!existsSync(path)) this.skip();
    });
    const scenarios = existsSync(path)
      ? readFileSync(path, 'utf8').split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Scenario)
      : [];
    for (const scenario of scenarios) {
      // Only what the floor alone decides: nothing after a human answered, and under yolo only the blocks.
      const yolo = scenario.config?.approvals?.yolo === true;
      const firstAnswer = scenario.steps.findIndex((step) => 'approve' in step);
      const steps = scenario.steps.slice(0, firstAnswer < 0 ? undefined : firstAnswer);
      for (const step of steps) {
        if (step.tool !== 'terminal' || typeof step.args?.command !== 'string' || !step.expect) continue;
        if (yolo && step.expect !== 'block') continue;
        const expected = step.expect === 'deny' ? 'ask' : step.expect; // a human (or the timeout) denies what asks
        it(`${scenario.id}: ${expected} ${JSON.stringify(step.args.command)}`, () =>
          expect(commandFloorVerdict(analyze(step.args!.command!)).verdict).to.equal(expected));
      }
    }
  });
});

interface Scenario {
  readonly id: string;
  readonly config?: { readonly approvals?: { readonly yolo?: boolean } };
  readonly steps: readonly { readonly tool?: string; readonly args?: { readonly command?: string }; readonly expect?: string; readonly approve?: string }[];
}
