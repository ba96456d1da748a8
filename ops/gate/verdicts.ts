/** What the gate answers the runtime. */
import type { LayerName, Verdict } from '../../domain/gate/verdict.ts';

export interface ToolCallVerdict {
  readonly verdict: Verdict;
  readonly layer: LayerName;
  readonly reasons: readonly string[];
  readonly message: string;
  readonly callId: string;
  readonly sessionId: string;
  /** Set when the verdict is ask: the question a human must answer. */
  readonly approvalId: string | null;
  readonly expiresAt: string | null;
  readonly wouldBlock: readonly { readonly layer: string; readonly reasons: readonly string[] }[];
  /** Ledger position of the decision (0 when it could not be recorded). */
  readonly position: number;
}

export interface OutputVerdict {
  readonly verdict: Verdict;
  readonly layer: LayerName;
  readonly reasons: readonly string[];
  readonly message: string;
  readonly outputId: string;
  /** The text to send instead when the verdict is not allow. */
  readonly replacement: string | null;
  readonly position: number;
}

export type ApprovalOutcome = 'allowed' | 'denied' | 'expired' | 'unknown' | 'pending' | 'refused';

export interface ApprovalResult {
  readonly approvalId: string;
  readonly outcome: ApprovalOutcome;
  readonly sessionId: string | null;
  readonly answer: string | null;
  /** Why the caller's channel may not answer this question (outcome `refused`), e.g. `channel:out-of-band-refused`. */
  readonly refused?: string;
}

export const heldReplyNotice = '[tollgate held this reply back: it could not be checked or a guard stopped it.]';

/** A block given because the gate itself failed: the action is not allowed, and the reason says why. */
export const failClosed = (sessionId: string, callId: string, reason: string, message: string): ToolCallVerdict => ({
  verdict: 'block', layer: 'input', reasons: [reason], message, callId, sessionId, approvalId: null, expiresAt: null,
  wouldBlock: [], position: 0,
});
