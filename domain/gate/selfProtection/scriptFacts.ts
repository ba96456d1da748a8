/**
 * The content of the scripts a command line runs from disk (`bash /tmp/a.sh`, `source x.sh`, `python3 a.py`,
 * `./run.sh`, `bash < x.sh`), read by ops/gate/scriptFacts.ts before decide and recorded in the ProposeToolCall:
 * a script written in an earlier call is judged by what it holds when it is run (red team F12).
 */
import { z } from 'zod';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** At most this many files are read per line (ops/gate/scriptFacts.ts); past it a file named later is unknown. */
export const maxScriptFiles = 8;

/** Absolute path (as the floor resolves the word) -> the start of the file's text. */
export const scriptFactsSchema = z.record(z.string(), z.string());
export type ScriptFacts = z.infer<typeof scriptFactsSchema>;

export const shellInterpreters = /^(?:sh|bash|dash|zsh|ksh|mksh|ash|fish|yash|rbash|posh|source|\.)$/;
export const interpreterPrograms = /^(?:python[0-9.]*|pypy[0-9.]*|node|nodejs|bun|deno|perl|ruby|php|tclsh[0-9.]*|wish[0-9.]*|expect|lua[0-9.]*|luajit|Rscript|osascript|jshell|awk|gawk|mawk|nawk|julia|groovy)$/;
/** A shell's own: only `-c` (bundled too: `-ec`) takes code; `-e` there is errexit. */
const shellCodeOption = /^-[a-zA-Z]*c[a-zA-Z]*$/;
/** Options after which an interpreter's next word is code or a module, not a script file. */
const codeOptions = /^-(?:[a-zA-Z]*[ceEm]|-command|-eval|-print)$/;

/** Per interpreter family, the options whose value is the next word (`python3 -X dev a.py`, `bash -o errexit a.sh`). */
const valueOptionRows: readonly { readonly programs: RegExp; readonly options: RegExp }[] = [
  { programs: /^(?:python[0-9.]*|pypy[0-9.]*)$/, options: /^(?:-[WX]|--check-hash-based-pycs)$/ },
  { programs: /^(?:node|nodejs|bun|deno)$/, options: /^(?:-[rC]|--(?:require|import|loader|experimental-loader|env-file|conditions|title))$/ },
  { programs: /^(?:sh|bash|dash|zsh|ksh|mksh|ash)$/, options: /^(?:[-+][oO]|--(?:rcfile|init-file))$/ },
  { programs: /^(?:ruby|perl)$/, options: /^-[Ir]$/ },
];
const takesValue = (program: string, option: string): boolean =>
  valueOptionRows.some((row) => row.programs.test(program) && row.options.test(option));
/** Of those, the ones whose value is a file run before the script. */
const loadOptions = /^(?:-r|--(?:require|import|loader|experimental-loader|rcfile|init-file))$/;

/** The words of one command that name a script file it runs. */
export const scriptWords = (command: SimpleCommand): string[] => {
  const { program, args, programPath } = command;
  const out: string[] = [];
  const runsFile = interpreterPrograms.test(program) || shellInterpreters.test(program);
  if (runsFile && !/^(?:awk|gawk|mawk|nawk)$/.test(program)) {
    // `python3 -X dev a.txt`, `bash -o errexit a.sh`: an option's own value is not the script.
    let first = -1;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      if (!arg.startsWith('-') && !arg.startsWith('+')) { first = i; break; }
      if ((shellInterpreters.test(program) || /^(?:bash|zsh|ksh|mksh|ash|dash)$/.test(program) ? shellCodeOption : codeOptions).test(arg)) break;
      // `node --require=./x.js`: the attached spelling of the same load option.
      const attached = /^(--(?:require|import|loader|experimental-loader|rcfile|init-file))=(.+)$/.exec(arg);
      if (attached !== null && loadOptions.test(attached[1]!) && !/^(?:ruby|perl)$/.test(program)) { out.push(attached[2]!); continue; }
      const value = takesValue(program, arg) ? args[i + 1] : undefined;
      // Files an option makes the interpreter load and run first (`node -r ./x.js`, `bash --rcfile x`).
      if (value !== undefined && loadOptions.test(arg) && !/^(?:ruby|perl)$/.test(program)) out.push(value);
      if (value !== undefined) i++;
    }
    if (first >= 0) out.push(args[first]!);
    for (const r of command.redirects) if (/^0?<$/.test(r.op)) out.push(r.target);
  }
  if (programPath.includes('/')) out.push(programPath);
  return out;
};
