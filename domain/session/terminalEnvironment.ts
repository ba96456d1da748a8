/**
 * The variables a session's terminal keeps between calls. Hermes dumps `export -p` after every command and
 * sources it before the next, so `export D=/srv/app/data` in one call is `$D` in the next: the floor must read
 * `rm -rf $D` as what D holds. Only a call that ran counts (allowed); one that was asked may run later or never,
 * so what it exports becomes unknown; a blocked call changes nothing.
 */
import type { ShellAnalysis } from '../shell/shellAnalysis.ts';
import { terminalTool } from './terminalDirectory.ts';

/** Exported variables kept per session; beyond this, further names are unknown (as if never exported). */
const maxVariables = 256;

export const environmentAfter = (
  before: Readonly<Record<string, string>> | undefined,
  decided: { readonly tool: string; readonly verdict: string; readonly shell: ShellAnalysis | null },
): Readonly<Record<string, string>> | undefined => {
  const exports = decided.shell?.exports;
  if (decided.tool !== terminalTool || exports === undefined || decided.verdict === 'block') return before;
  const after: Record<string, string> = { ...before };
  for (const [name, value] of Object.entries(exports)) {
    if (name === '__proto__') continue;
    if (decided.verdict === 'allow' && value !== null && (name in after || Object.keys(after).length < maxVariables)) after[name] = value;
    else delete after[name];
  }
  return after;
};

/**
 * Whether the terminal has CDPATH exported after this call. bash then resolves a relative `cd DIR` against CDPATH's
 * folders first, so where it lands is unknown; an export whose value the gate cannot read counts as set, and only
 * an `unset CDPATH` (or an empty value) clears it.
 */
export const cdpathAfter = (
  before: boolean,
  decided: { readonly tool: string; readonly verdict: string; readonly shell: ShellAnalysis | null },
): boolean => {
  const exports = decided.shell?.exports;
  if (decided.tool !== terminalTool || decided.verdict === 'block' || exports === undefined || !('CDPATH' in exports)) return before;
  const value = exports['CDPATH'];
  if (value === null) return !/\bunset\b[^;&|\n]*\bCDPATH\b/.test(decided.shell!.source) || decided.verdict !== 'allow';
  return value !== '' || decided.verdict !== 'allow';
};
