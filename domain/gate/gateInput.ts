/** What every layer of the gate sees for one proposed tool call. */
import type { GateSettings } from '../session/commands.ts';
import type { SessionGrant } from '../session/sessionState.ts';
import type { ShellAnalysis } from '../shell/shellAnalysis.ts';
import type { ProtectionFacts } from './selfProtection/protectionFacts.ts';
import type { CallPathFacts } from './selfProtection/callPathFacts.ts';
import type { ScriptFacts } from './selfProtection/scriptFacts.ts';

export interface GateInput {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly fingerprint: string;
  /** The parsed command line when the tool runs one; null for tools that do not. */
  readonly shell: ShellAnalysis | null;
  /** Whether the tool runs a shell command line (then a missing or failed parse is never safe). */
  readonly runsShell: boolean;
  readonly settings: GateSettings;
  /** Grants of this session, to cover dangerous actions a human approved. */
  readonly grants: readonly SessionGrant[];
  readonly allowlisted: boolean;
  /** What the self-protection floor protects on this machine; null when the command did not record it. */
  readonly protection: ProtectionFacts | null;
  /** The working directory, symlinks and folders of this call's paths, looked up before decide; null when unknown. */
  readonly pathFacts?: CallPathFacts | null;
  /** The text of the scripts the command line runs from disk (absolute path -> start of the file); null when unknown. */
  readonly scripts?: ScriptFacts | null;
  /**
   * The session's terminal moved where the gate could not follow (a `cd` to an unknown place, an asked call that
   * may run later): its relative paths may be anywhere, tollgate's data folder or a Hermes home included.
   */
  readonly directoryLost?: boolean;
  /** CDPATH is exported in the session's terminal: a relative `cd` on the line may land anywhere on it. */
  readonly cdpathSet?: boolean;
  /** Variables the session's terminal exported with values the gate cannot know (HOME among them changes `~`). */
  readonly unknownVariables?: readonly string[];
  /** A HOME the session's terminal exported with a known value: `~` there is that folder. */
  readonly exportedHome?: string | null;
}
