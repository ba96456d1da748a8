/**
 * Step 1 of the gate: what a proposed call would do. For tools that run a shell command line, the line is
 * parsed (by the analyzer handed in: the real bash grammar) into the simple commands that would run.
 */
import type { ShellAnalysis } from '../shell/shellAnalysis.ts';
import { actionFingerprint } from './actionFingerprint.ts';
import { pythonShellOuts } from './pythonShellOuts.ts';
import { shellArgumentOf } from './shellTools.ts';

/** `environment`: variables the session's terminal exported earlier (terminalEnvironment.ts). */
export type AnalyzeShell = (source: string, environment?: Readonly<Record<string, string>>) => ShellAnalysis;

export interface ClassifiedCall {
  readonly runsShell: boolean;
  readonly shell: ShellAnalysis | null;
  readonly fingerprint: string;
}

export const classifyToolCall = (
  tool: string,
  args: Readonly<Record<string, unknown>>,
  analyze: AnalyzeShell,
  shellArguments: Readonly<Record<string, string>> = {},
): ClassifiedCall => {
  const argument = shellArgumentOf(tool, shellArguments, args);
  if (argument !== null) {
    const line = args[argument];
    if (typeof line !== 'string') return { runsShell: true, shell: null, fingerprint: actionFingerprint(tool, { args }) };
    return { runsShell: true, shell: analyze(line), fingerprint: actionFingerprint(tool, { commandLine: line.trim() }) };
  }
  if (tool === 'execute_code' && typeof args['code'] === 'string') {
    const shellOuts = pythonShellOuts(args['code']);
    if (shellOuts.length > 0) return { runsShell: true, shell: mergeAnalyses(shellOuts.map((s) => analyze(s.commandLine))), fingerprint: actionFingerprint(tool, { args }) };
  }
  return { runsShell: false, shell: null, fingerprint: actionFingerprint(tool, { args }) };
};

/** Several shell-outs of one code cell, seen as one command line: every command counts, any failure counts. */
const mergeAnalyses = (analyses: readonly ShellAnalysis[]): ShellAnalysis => ({
  source: analyses.map((a) => a.source).join('\n'),
  parsed: analyses.every((a) => a.parsed),
  problems: analyses.flatMap((a) => a.problems),
  commands: analyses.flatMap((a) => a.commands),
});
