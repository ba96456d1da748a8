/**
 * Files whose lines a reader hands on unchanged (cat, head, tail, grep, sort, `sed -n 2p`: textFilters.ts), shared
 * by the rows that judge where that text lands: a shell (`cat f | sh`, `bash <(cat f)`), xargs, or a variable the line runs.
 */
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import { earlierStages, filterEffect, inputRedirected, selectedFiles } from './textFilters.ts';

/** `<(cat f)`, `<(head -n1 f)`: a process substitution that prints one file. */
export const catOf = /^<\(\s*(?:\S*\/)?(?:cat|tac|head|tail)\s+(?:--?\s+)?(?:-\S+\s+)*("[^"]*"|'[^']*'|[^\s)]+)\s*\)$/;

export const unquote = (word: string): string => word.replace(/^"([^"]*)"$|^'([^']*)'$/, (_m, a?: string, b?: string) => a ?? b ?? '');

/**
 * The files whose lines reach this command through its pipeline: the nearest line selector's (textFilters.ts) that
 * names files, through selectors that read their input (`cat f | grep x | sh`); none past a rewriter or tee (which
 * passes on its own input), nor when the command reads a here-document instead.
 */
export const pipedFiles = (c: SimpleCommand, analysis: ShellAnalysis): string[] => {
  if (inputRedirected(c)) return [];
  for (const stage of earlierStages(c, analysis)) {
    if (filterEffect(stage) !== 'selects-lines') return [];
    const files = selectedFiles(stage);
    if (files.length > 0) return files;
  }
  return [];
};
