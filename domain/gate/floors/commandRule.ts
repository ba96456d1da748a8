/**
 * One row of a command rule table: a stable kebab-case id (allowlists and the ledger use it), a matcher over one
 * parsed simple command, a one-sentence reason, and examples that the table's spec runs through the real parser.
 */
import { recentMemo } from '../../shell/recentMemo.ts';
import type { RuleHit, ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';

export interface CommandRule {
  readonly id: string;
  readonly reason: string;
  /** Programs the rule can match, checked before `matches` (a cheap filter); omitted when any program can. */
  readonly programs?: ReadonlySet<string>;
  readonly matches: (command: SimpleCommand) => boolean;
  /** Lines the rule must not match. */
  readonly allows: readonly string[];
}

export interface HardlineRule extends CommandRule {
  /** Lines the rule must match. */
  readonly blocks: readonly string[];
}

export interface DangerousRule extends CommandRule {
  /** Lines the rule must match. */
  readonly asks: readonly string[];
}

/** Each line's hits per table: the gate and the question it asks read the same line's hits more than once. */
const hitsOfLine = recentMemo((_analysis: ShellAnalysis) => new Map<readonly CommandRule[], readonly RuleHit[]>(), 4);

/** Every (rule, command) pair that matches, once per rule and command text, in table order. */
export const matchRules = (rules: readonly CommandRule[], analysis: ShellAnalysis): readonly RuleHit[] => {
  const lines = hitsOfLine(analysis);
  let hits = lines.get(rules);
  if (hits === undefined) lines.set(rules, hits = Object.freeze(findHits(rules, analysis)));
  return hits;
};

const findHits = (rules: readonly CommandRule[], analysis: ShellAnalysis): RuleHit[] => {
  const hits: RuleHit[] = [];
  const seen = new Set<string>();
  for (const rule of rules) {
    for (const command of analysis.commands) {
      if (rule.programs && !rule.programs.has(command.program)) continue;
      if (!rule.matches(command)) continue;
      const key = `${rule.id}\u0000${command.text}`;
      if (seen.has(key)) continue;
      seen.add(key);
      hits.push({ ruleId: rule.id, reason: rule.reason, command: command.text });
    }
  }
  return hits;
};

export const programs = (...names: string[]): ReadonlySet<string> => new Set(names);
