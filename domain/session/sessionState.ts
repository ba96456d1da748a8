/** What the gate remembers about one session, folded from its stream. */
import type { LayerName } from '../gate/verdict.ts';

export interface PendingApproval {
  readonly approvalId: string;
  readonly callId: string;
  readonly tool: string;
  readonly fingerprint: string;
  /** The command or action asked about, for the grant it may become. */
  readonly summary: string;
  readonly resumption: 'held' | 'retry';
  readonly expiresAt: string;
}

export interface SessionGrant {
  readonly grantId: string;
  readonly scope: 'once' | 'session' | 'always';
  readonly tool: string;
  readonly fingerprint: string;
}

/** A decision as the runtime heard it, kept so the same call asked twice gets the same answer. */
export interface RecentDecision {
  readonly callId: string;
  readonly tool: string;
  readonly fingerprint: string;
  readonly verdict: 'allow' | 'ask' | 'block';
  readonly layer: LayerName;
  readonly reasons: readonly string[];
  readonly message: string;
  readonly approvalId: string | null;
}

/** How many recent decisions a session remembers for repeated calls (a plugin and a shell hook, a resent request). */
export const recentDecisionsKept = 16;

export interface OpenSession {
  readonly status: 'open';
  readonly sessionId: string;
  readonly parentSessionId: string | null;
  readonly platform: string | null;
  /** The runtime registration that owns the session (see channelRules.ts); null: anonymous. */
  readonly owner: string | null;
  readonly userMessages: number;
  /** Questions to a human not yet answered or expired, by approval id. */
  readonly pending: Readonly<Record<string, PendingApproval>>;
  /** The earliest `expiresAt` among pending questions (ms since the epoch), so most commands skip the expiry scan. */
  readonly nextExpiryMs: number | null;
  /** Grants usable in this session (once grants until consumed), by grant id. */
  readonly grants: Readonly<Record<string, SessionGrant>>;
  /** The last few decisions, oldest first. */
  readonly recentDecisions: readonly RecentDecision[];
  /**
   * Where the session's terminal is after its last call that moved it (Hermes keeps it between calls); null when
   * unknown; absent until a call moves it (the runtime's reported cwd stands until then).
   */
  readonly terminalCwd?: string | null;
  /**
   * Variables the session's terminal exported with a known value (Hermes re-sources exported variables before each
   * command), so a later `rm -rf $D` is judged as what D holds. A name exported with an unknown value, unset, or
   * exported by a call that may still run (asked) is absent: unknown, as any unset variable.
   */
  readonly terminalEnv?: Readonly<Record<string, string>>;
  /** Names the terminal exported with a value the gate cannot know: `$NAME` there may be anything. */
  readonly terminalUnknown?: readonly string[];
  /** Names made read-only in the terminal (terminalEnvironment.ts): they stay unknown. */
  readonly terminalPinned?: readonly string[];
  /** CDPATH is exported in the terminal (terminalEnvironment.ts): a relative `cd` may land anywhere on it. */
  readonly terminalCdpath?: boolean;
}

export type SessionState =
  | { readonly status: 'unknown' }
  | OpenSession
  | { readonly status: 'ended'; readonly sessionId: string; readonly owner?: string | null };

export const initialState = (): SessionState => ({ status: 'unknown' });
