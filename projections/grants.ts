/**
 * Grants and the allowlist. "always" answers become allowlist entries that cover the same action in every
 * session until revoked; session and once grants are listed for people reviewing what humans approved.
 */
import type { Projection } from './projection.ts';
import { ownEntry } from '../domain/encoding/ownEntry.ts';

export interface GrantView {
  readonly grantId: string;
  readonly sessionId: string;
  readonly scope: 'once' | 'session' | 'always';
  readonly tool: string;
  readonly fingerprint: string;
  readonly summary: string;
  readonly issuedAt: string;
  readonly consumed: boolean;
}

export interface GrantsState {
  readonly grants: Readonly<Record<string, GrantView>>;
  /** Allowlist keys (`tool` + NUL + fingerprint) → the grant that put them there. */
  readonly allowlist: Readonly<Record<string, string>>;
}

export const allowlistKey = (tool: string, fingerprint: string): string => `${tool}\u0000${fingerprint}`;

export const grants: Projection<GrantsState> = {
  name: 'grants',
  version: 1,
  initial: () => ({ grants: {}, allowlist: {} }),
  evolve: (state, { event }) => {
    switch (event.type) {
      case 'GrantIssued': {
        const d = event.data;
        const view: GrantView = { grantId: d.grantId, sessionId: d.sessionId, scope: d.scope, tool: d.tool,
          fingerprint: d.fingerprint, summary: d.summary, issuedAt: d.at, consumed: false };
        const allowlist = d.scope === 'always' ? { ...state.allowlist, [allowlistKey(d.tool, d.fingerprint)]: d.grantId } : state.allowlist;
        return { grants: { ...state.grants, [d.grantId]: view }, allowlist };
      }
      case 'GrantConsumed': {
        const grant = ownEntry(state.grants, event.data.grantId);
        return grant ? { ...state, grants: { ...state.grants, [grant.grantId]: { ...grant, consumed: true } } } : state;
      }
      case 'AllowlistEntryRevoked': {
        const key = allowlistKey(event.data.tool, event.data.fingerprint);
        if (!Object.hasOwn(state.allowlist, key)) return state;
        const { [key]: _revoked, ...allowlist } = state.allowlist;
        return { ...state, allowlist };
      }
      default:
        return state;
    }
  },
};
