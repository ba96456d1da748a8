/**
 * Files whose text a plain reader hands on unchanged (cat, tac, head, tail, tee, pv), shared by the rows that
 * judge where that text lands: a shell (`cat f | sh`, `bash <(cat f)`), xargs, or a variable the line runs.
 */
import { parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';

/** `<(cat f)`, `<(head -n1 f)`: a process substitution that prints one file. */
export const catOf = /^<\(\s*(?:\S*\/)?(?:cat|tac|head|tail)\s+(?:--?\s+)?(?:-\S+\s+)*("[^"]*"|'[^']*'|[^\s)]+)\s*\)$/;

export const unquote = (word: string): string => word.replace(/^"([^"]*)"$|^'([^']*)'$/, (_m, a?: string, b?: string) => a ?? b ?? '');

const fileReaders = /^(?:cat|tac|head|tail|tee|pv)$/;
const readerGrammar: OptionGrammar = { shortWithValue: 'ncL', longWithValue: ['lines', 'bytes', 'separator', 'size', 'rate-limit', 'interval', 'name'] };

/** The files the stage just before this one in its pipeline reads and passes on, when that stage is a plain reader. */
export const pipedFiles = (c: SimpleCommand, analysis: ShellAnalysis): string[] => {
  const last = c.pipedFrom[c.pipedFrom.length - 1];
  if (last === undefined || !fileReaders.test(last) || c.stdin !== undefined) return [];
  const at = analysis.commands.indexOf(c);
  for (let i = at - 1; i >= 0; i--) {
    const stage = analysis.commands[i]!;
    if (stage.program !== last || stage.pipedFrom.length !== c.pipedFrom.length - 1) continue;
    // tee writes its operands: what it passes on is its own input.
    return stage.program === 'tee' ? [] : [...parseOptions(stage.args, readerGrammar).operands].filter((a) => a !== '-');
  }
  return [];
};
