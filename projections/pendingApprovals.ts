/** Questions to a human that are still open, across every session (what `tollgate approve` lists). */
import type { Projection } from './projection.ts';

export interface PendingApprovalView {
  readonly approvalId: string;
  readonly sessionId: string;
  readonly callId: string;
  readonly tool: string;
  readonly summary: string;
  readonly reasons: readonly string[];
  readonly expiresAt: string;
  readonly requestedAt: string;
}

export type PendingApprovals = Readonly<Record<string, PendingApprovalView>>;

export const pendingApprovals: Projection<PendingApprovals> = {
  name: 'pending-approvals',
  version: 1,
  initial: () => ({}),
  evolve: (state, { event }) => {
    switch (event.type) {
      case 'ApprovalRequested': {
        const d = event.data;
        return { ...state, [d.approvalId]: {
          approvalId: d.approvalId, sessionId: d.sessionId, callId: d.callId, tool: d.tool, summary: d.summary,
          reasons: d.hits.map((h) => `dangerous:${h.ruleId}`), expiresAt: d.expiresAt, requestedAt: d.at,
        } };
      }
      case 'ApprovalAnswered':
      case 'ApprovalExpired': {
        if (!Object.hasOwn(state, event.data.approvalId)) return state;
        const { [event.data.approvalId]: _closed, ...rest } = state;
        return rest;
      }
      default:
        return state;
    }
  },
};
