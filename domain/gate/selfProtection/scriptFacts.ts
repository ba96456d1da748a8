/**
 * The content of the scripts a command line runs from disk (`bash /tmp/a.sh`, `source x.sh`, `python3 a.py`,
 * `./run.sh`, `bash < x.sh`), read by ops/gate/scriptFacts.ts before decide and recorded in the ProposeToolCall:
 * a script written in an earlier call is judged by what it holds when it is run (red team F12).
 */
import { z } from 'zod';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** Absolute path (as the floor resolves the word) -> the start of the file's text. */
export const scriptFactsSchema = z.record(z.string(), z.string());
export type ScriptFacts = z.infer<typeof scriptFactsSchema>;

export const shellInterpreters = /^(?:sh|bash|dash|zsh|ksh|mksh|ash|source|\.)$/;
export const interpreterPrograms = /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|tclsh[0-9.]*|wish[0-9.]*|expect|lua[0-9.]*|luajit|Rscript|osascript|jshell|awk|gawk|mawk|nawk|julia|groovy)$/;
/** Options after which an interpreter's next word is code or a module, not a script file. */
const codeOptions = /^-(?:[a-zA-Z]*[ceEm]|-command|-eval|-print)$/;

/** The words of one command that name a script file it runs. */
export const scriptWords = (command: SimpleCommand): string[] => {
  const { program, args, programPath } = command;
  const out: string[] = [];
  const runsFile = interpreterPrograms.test(program) || shellInterpreters.test(program);
  if (runsFile && !/^(?:awk|gawk|mawk|nawk)$/.test(program)) {
    const first = args.findIndex((a) => !a.startsWith('-'));
    if (first >= 0 && !args.slice(0, first).some((a) => codeOptions.test(a))) out.push(args[first]!);
    for (const r of command.redirects) if (r.op === '<') out.push(r.target);
  }
  if (programPath.includes('/')) out.push(programPath);
  return out;
};
