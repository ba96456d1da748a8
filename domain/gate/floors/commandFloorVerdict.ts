/**
 * The command floor's verdict for one shell line: block on any hardline hit, and block a line that could not be
 * fully parsed (what we cannot read we cannot call safe); ask on any dangerous hit; otherwise allow.
 */
import type { RuleHit, ShellAnalysis } from '../../shell/shellAnalysis.ts';
import type { Verdict } from '../verdict.ts';
import { matchDangerous } from '../approvals/dangerousCommands.ts';
import { matchHardline } from './hardlineFloor.ts';

export interface CommandFloorVerdict {
  readonly verdict: Verdict;
  /** Hardline hits, then the unparseable marker, then dangerous hits. */
  readonly hits: readonly RuleHit[];
  readonly unparsed: boolean;
}

export const unparseableRuleId = 'shell-unparseable';

export const commandFloorVerdict = (analysis: ShellAnalysis): CommandFloorVerdict => {
  const hardline = matchHardline(analysis);
  const unparsed = !analysis.parsed;
  const unparseable: RuleHit[] = unparsed
    ? [{ ruleId: unparseableRuleId, reason: `The command could not be fully parsed: ${analysis.problems.join('; ')}.`, command: analysis.source }]
    : [];
  const dangerous = matchDangerous(analysis);
  const verdict: Verdict = hardline.length > 0 || unparsed ? 'block' : dangerous.length > 0 ? 'ask' : 'allow';
  return { verdict, hits: [...hardline, ...unparseable, ...dangerous], unparsed };
};
