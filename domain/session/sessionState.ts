/** What the gate remembers about one session, folded from its stream. */

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

export interface OpenSession {
  readonly status: 'open';
  readonly sessionId: string;
  readonly parentSessionId: string | null;
  readonly platform: string | null;
  readonly userMessages: number;
  /** Questions to a human not yet answered or expired, by approval id. */
  readonly pending: Readonly<Record<string, PendingApproval>>;
  /** The earliest `expiresAt` among pending questions (ms since the epoch), so most commands skip the expiry scan. */
  readonly nextExpiryMs: number | null;
  /** Grants usable in this session (once grants until consumed), by grant id. */
  readonly grants: Readonly<Record<string, SessionGrant>>;
}

export type SessionState =
  | { readonly status: 'unknown' }
  | OpenSession
  | { readonly status: 'ended'; readonly sessionId: string };

export const initialState = (): SessionState => ({ status: 'unknown' });
