/**
 * The approvals table: commands that run only after a human says yes (Hermes' DANGEROUS_PATTERNS and the
 * "What Triggers Approval" table, as rules over parsed commands). One pack per tool family; the hardline floor
 * (floors/hardlineCommands.ts) sits below it and blocks regardless of approvals.
 */
import type { RuleHit, ShellAnalysis } from '../../shell/shellAnalysis.ts';
import { matchRules, type DangerousRule } from '../floors/commandRule.ts';
import { codeRules } from './dangerousCommandsCode.ts';
import { fileRules } from './dangerousCommandsFiles.ts';
import { gitRules } from './dangerousCommandsGit.ts';
import { sqlRules } from './dangerousCommandsSql.ts';
import { systemRules } from './dangerousCommandsSystem.ts';

export const dangerousCommands: readonly DangerousRule[] = [...fileRules, ...systemRules, ...codeRules, ...gitRules, ...sqlRules];

export const matchDangerous = (analysis: ShellAnalysis): readonly RuleHit[] => matchRules(dangerousCommands, analysis);
