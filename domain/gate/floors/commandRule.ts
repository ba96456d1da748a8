/**
 * One row of a command rule table: a stable kebab-case id (allowlists and the ledger use it), a matcher over one
 * parsed simple command, a one-sentence reason, and examples that the table's spec runs through the real parser.
 */
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

/** Rules by the program they can match, and those that can match any program, with their table positions. */
interface RuleIndex {
  readonly byProgram: ReadonlyMap<string, readonly number[]>;
  readonly anyProgram: readonly number[];
}

const ruleIndexes = new WeakMap<readonly CommandRule[], RuleIndex>();

const indexOf = (rules: readonly CommandRule[]): RuleIndex => {
  let index = ruleIndexes.get(rules);
  if (index !== undefined) return index;
  const byProgram = new Map<string, number[]>();
  const anyProgram: number[] = [];
  rules.forEach((rule, at) => {
    if (rule.programs === undefined) { anyProgram.push(at); return; }
    for (const program of rule.programs) byProgram.set(program, [...(byProgram.get(program) ?? []), at]);
  });
  ruleIndexes.set(rules, index = { byProgram, anyProgram });
  return index;
};

/** Each line's hits per table: the gate and the question it asks read the same line's hits more than once. */
const hitsOfLine = new WeakMap<ShellAnalysis, Map<readonly CommandRule[], readonly RuleHit[]>>();

/** Every (rule, command) pair that matches, once per rule and command text, in table order. */
export const matchRules = (rules: readonly CommandRule[], analysis: ShellAnalysis): readonly RuleHit[] => {
  let lines = hitsOfLine.get(analysis);
  if (lines === undefined) hitsOfLine.set(analysis, lines = new Map());
  let hits = lines.get(rules);
  if (hits === undefined) lines.set(rules, hits = Object.freeze(findHits(rules, analysis)));
  return hits;
};

const findHits = (rules: readonly CommandRule[], analysis: ShellAnalysis): RuleHit[] => {
  const { byProgram, anyProgram } = indexOf(rules);
  // Only the rows that can match each command are asked; the pairs found are then put back in table order.
  const found: { rule: number; command: number }[] = [];
  analysis.commands.forEach((command, at) => {
    for (const rows of [byProgram.get(command.program), anyProgram]) {
      for (const rule of rows ?? []) if (rules[rule]!.matches(command)) found.push({ rule, command: at });
    }
  });
  found.sort((a, b) => a.rule - b.rule || a.command - b.command);
  const hits: RuleHit[] = [];
  const seen = new Set<string>();
  for (const { rule: at, command: which } of found) {
    const rule = rules[at]!;
    const command = analysis.commands[which]!;
    const key = `${rule.id}\u0000${command.text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    hits.push({ ruleId: rule.id, reason: rule.reason, command: command.text });
  }
  return hits;
};

export const programs = (...names: string[]): ReadonlySet<string> => new Set(names);
