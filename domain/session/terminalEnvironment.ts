/**
 * The variables a session's terminal keeps between calls. Hermes dumps `export -p` after every command and
 * sources it before the next, so `export D=/srv/app/data` in one call is `$D` in the next: the floor must read
 * `rm -rf $D` as what D holds. A value is known only when the analyzer is sure of it (a straight line that sets
 * it once); anything else makes the name unknown, and so does an asked call (it may run later or never). A
 * blocked call changes nothing.
 */
import type { ShellAnalysis } from '../shell/shellAnalysis.ts';
import { terminalTool } from './terminalDirectory.ts';

/** Variables kept per session; past this, every variable counts as unknown (`*`): the floor then refuses them all. */
const maxVariables = 256;
export const everyVariable = '*';

export interface TerminalVariables {
  /** Exported with a value the gate knows. */
  readonly known: Readonly<Record<string, string>>;
  /** Exported with a value it cannot know (or by a call that may still run): `$NAME` may hold anything. */
  readonly unknown: readonly string[];
  /** Made read-only while exported: a later export may fail without the gate seeing it, so they stay unknown. */
  readonly pinned?: readonly string[];
}

export const variablesAfter = (
  before: TerminalVariables,
  decided: { readonly tool: string; readonly verdict: string; readonly shell: ShellAnalysis | null },
): TerminalVariables => {
  const shell = decided.shell;
  if (decided.tool !== terminalTool || shell === null || decided.verdict === 'block') return before;
  const { exports = {}, touched = [], unsets = [], readonly = [], walked } = shell;
  // `source f`, `. f`, `eval …`: text the line does not show may give any exported name another value.
  // Also spelt with quotes or escapes (`"source" f`, `\eval …`): the analyzer reports those by the program's name.
  const opaque = /(?:^|[\s;&|(){}])(?:source|eval|\.)\s/.test(shell.source) || shell.commands.some(({ program }) => program === 'source' || program === '.' || program === 'eval');
  if (Object.keys(exports).length === 0 && touched.length === 0 && readonly.length === 0 && walked === undefined && !(opaque && Object.keys(before.known).length > 0)) return before;
  const pinned = new Set([...(before.pinned ?? []), ...readonly]);
  const known: Record<string, string> = { ...before.known };
  const unknown = new Set(before.unknown);
  const lose = (name: string) => { delete known[name]; unknown.add(unknown.size < maxVariables ? name : everyVariable); };
  if (opaque) for (const name of Object.keys(before.known)) lose(name);
  for (const [name, value] of Object.entries(exports)) {
    if (name === '__proto__') continue;
    if (decided.verdict !== 'allow') lose(name);
    else if (unsets.includes(name)) { delete known[name]; unknown.delete(name); }
    else if (value === null) lose(name);
    else if (name in known || Object.keys(known).length < maxVariables) { known[name] = value; unknown.delete(name); }
    else lose(name);
  }
  // A name the session exported keeps whatever a plain assignment gives it (`export D=a` then `D=b`).
  for (const name of touched) if (!(name in exports) && (name in known || unknown.has(name))) lose(name);
  // Assigned or exported in ways the line's text does not show (`"read" D`, `\export D=…`): the value is not known.
  for (const name of walked?.exported ?? []) if (name !== '__proto__') lose(name);
  for (const name of walked?.touched ?? []) if (name in known || unknown.has(name)) lose(name);
  for (const name of pinned) if (name in known || unknown.has(name) || name in exports) lose(name);
  return { known, unknown: [...unknown], pinned: [...pinned] };
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
