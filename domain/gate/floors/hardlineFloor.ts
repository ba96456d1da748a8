/** The hardline floor as a pure function: every hardline rule that matches a command of the line. */
import type { RuleHit, ShellAnalysis } from '../../shell/shellAnalysis.ts';
import { matchRules } from './commandRule.ts';
import { hardlineCommands } from './hardlineCommands.ts';

export const matchHardline = (analysis: ShellAnalysis): readonly RuleHit[] => matchRules(hardlineCommands, analysis);
