/** The pure fold from a session's events to its state. */
import { cdpathAfter, variablesAfter } from './terminalEnvironment.ts';
import type { TollgateEvent } from '../events/catalogue.ts';
import { recentDecisionsKept, type OpenSession, type SessionState } from './sessionState.ts';
import { ownEntry } from '../encoding/ownEntry.ts';

export const evolve = (state: SessionState, event: TollgateEvent): SessionState => {
  switch (event.type) {
    case 'SessionStarted':
      return {
        status: 'open', sessionId: event.data.sessionId, parentSessionId: event.data.parentSessionId,
        platform: event.data.platform, owner: event.data.owner, userMessages: 0, pending: {}, nextExpiryMs: null, grants: {}, recentDecisions: [],
      };
    case 'UserMessageReceived':
      return state.status === 'open' ? { ...state, userMessages: state.userMessages + 1 } : state;
    case 'ToolCallDecided': {
      if (state.status !== 'open') return state;
      const { callId, tool, fingerprint, verdict, layer, reasons, message, approvalId } = event.data;
      const kept = state.recentDecisions.length >= recentDecisionsKept ? state.recentDecisions.slice(1) : state.recentDecisions;
      const recentDecisions = [...kept, { callId, tool, fingerprint, verdict, layer, reasons, message, approvalId }];
      const { terminalCwd } = event.data;
      const before = { known: state.terminalEnv ?? {}, unknown: state.terminalUnknown ?? [], pinned: state.terminalPinned ?? [] };
      const variables = variablesAfter(before, event.data);
      const terminalCdpath = cdpathAfter(state.terminalCdpath === true, event.data);
      const env = {
        ...(variables === before ? {} : { terminalEnv: variables.known, terminalUnknown: variables.unknown, terminalPinned: variables.pinned ?? [] }),
        ...(terminalCdpath === (state.terminalCdpath === true) ? {} : { terminalCdpath }),
      };
      return terminalCwd === undefined ? { ...state, recentDecisions, ...env } : { ...state, recentDecisions, terminalCwd, ...env };
    }
    case 'ApprovalRequested': {
      if (state.status !== 'open') return state;
      const { approvalId, callId, tool, fingerprint, summary, resumption, expiresAt } = event.data;
      const pending = { approvalId, callId, tool, fingerprint, summary, resumption, expiresAt };
      const expiry = Date.parse(expiresAt);
      return { ...state, pending: { ...state.pending, [approvalId]: pending }, nextExpiryMs: Math.min(expiry, state.nextExpiryMs ?? expiry) };
    }
    case 'ApprovalAnswered':
    case 'ApprovalExpired': {
      if (state.status !== 'open') return state;
      const pending = without(state.pending, event.data.approvalId);
      const outcome = event.type === 'ApprovalExpired' ? 'expired' : event.data.callAllowed ? `answered-${event.data.answer}` : 'denied';
      const allowed = event.type === 'ApprovalAnswered' && event.data.callAllowed;
      return { ...state, pending, nextExpiryMs: earliestExpiry(pending), recentDecisions: settleAsked(state.recentDecisions, event.data.callId, allowed, outcome) };
    }
    case 'GrantIssued': {
      if (state.status !== 'open') return state;
      const { grantId, scope, tool, fingerprint } = event.data;
      return { ...state, grants: { ...state.grants, [grantId]: { grantId, scope, tool, fingerprint } } };
    }
    case 'GrantConsumed':
      return state.status === 'open' ? consume(state, event.data.grantId) : state;
    case 'SessionClaimed':
      return state.status === 'open' || state.status === 'ended' ? { ...state, owner: event.data.to } : state;
    case 'SessionEnded':
      // The owner outlives the session: reopening it (Hermes --resume) is the owner's, or a claimant's, to do.
      return { status: 'ended', sessionId: event.data.sessionId, owner: state.status === 'unknown' ? null : (state.owner ?? null) };
    default:
      return state;
  }
};

/** What a held question turned into, so the same call asked again hears the human's answer. */
const settleAsked = (recent: OpenSession['recentDecisions'], callId: string, allowed: boolean, outcome: string): OpenSession['recentDecisions'] =>
  recent.map((d) => (d.callId === callId && d.verdict === 'ask'
    ? { ...d, verdict: allowed ? 'allow' as const : 'block' as const, reasons: [...d.reasons, `approvals:${outcome}`] }
    : d));

const consume = (state: OpenSession, grantId: string): OpenSession =>
  ownEntry(state.grants, grantId)?.scope === 'once' ? { ...state, grants: without(state.grants, grantId) } : state;

const without = <T>(record: Readonly<Record<string, T>>, key: string): Readonly<Record<string, T>> => {
  const { [key]: _removed, ...rest } = record;
  return rest;
};

const earliestExpiry = (pending: Readonly<Record<string, { readonly expiresAt: string }>>): number | null => {
  let earliest: number | null = null;
  for (const p of Object.values(pending)) {
    const expiry = Date.parse(p.expiresAt);
    if (earliest === null || expiry < earliest) earliest = expiry;
  }
  return earliest;
};
