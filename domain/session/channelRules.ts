/**
 * Which caller may give which command to a session. The rule per command is data; `checkCaller` reads it.
 *
 * - `any-caller`: tool calls, outputs, results, expiry. The shell hook is a new process per call and cannot hold a
 *   key, and proposing a call grants nothing: the gate decides it either way.
 * - `session-owner`: user words, session start, end and reset. Only the registration that opened the session (its
 *   owner; anonymous sessions are owned by every anonymous caller) — or a registration claiming a session whose
 *   owner's process is gone (Hermes restarted with --resume).
 * - `parent-owner`: a subagent's session opens linked to its parent only when the parent's owner asks.
 * - `answer`: the human channel; the owner relaying its own runtime's prompt; unregistered callers only when
 *   `approvals.out_of_band` is on.
 */
import type { SessionCommand } from './commands.ts';
import { describeCaller, principalOf, type Caller } from './caller.ts';
import type { SessionState } from './sessionState.ts';

export type ChannelRule = 'any-caller' | 'session-owner' | 'parent-owner' | 'answer';

export const channelRules: Readonly<Record<SessionCommand['type'], ChannelRule>> = {
  ObserveUserMessage: 'session-owner',
  ObserveSession: 'session-owner',
  EndSession: 'session-owner',
  StartSubagent: 'parent-owner',
  AnswerApproval: 'answer',
  ProposeToolCall: 'any-caller',
  ProposeOutput: 'any-caller',
  RecordToolResult: 'any-caller',
  ExpireApprovals: 'any-caller',
};

export type CallerCheck =
  | { readonly kind: 'allowed'; readonly answeredBy: string | null }
  | { readonly kind: 'claim'; readonly from: string; readonly to: string }
  | { readonly kind: 'refused'; readonly caller: string; readonly reason: string };

const allowed = (answeredBy: string | null = null): CallerCheck => ({ kind: 'allowed', answeredBy });
const refused = (caller: Caller, reason: string): CallerCheck => ({ kind: 'refused', caller: describeCaller(caller), reason });

/** The session's owner: a registration id, null for anonymous (and for sessions recorded before owners existed). */
export const ownerOf = (state: SessionState): string | null | undefined =>
  state.status === 'unknown' ? undefined : (state.owner ?? null);

export const checkCaller = (command: SessionCommand, state: SessionState): CallerCheck => {
  const caller: Caller = ('caller' in command.data ? command.data.caller : undefined) ?? { kind: 'in-process' };
  const ownerGone = 'ownerGone' in command.data && command.data.ownerGone === true;
  if (caller.kind === 'in-process') return allowed(command.type === 'AnswerApproval' ? command.data.answeredBy : null);
  switch (channelRules[command.type]) {
    case 'any-caller': return allowed();
    case 'session-owner': return ownerCheck(caller, state, ownerGone);
    case 'parent-owner': {
      if (command.type !== 'StartSubagent') return refused(caller, 'channel:internal');
      if (caller.kind !== 'runtime') return refused(caller, 'channel:not-a-runtime');
      const parentOwner = command.data.parentOwner;
      if (parentOwner !== undefined && parentOwner !== principalOf(caller)) return refused(caller, 'channel:not-parent-owner');
      return ownerCheck(caller, state, false);
    }
    case 'answer': {
      if (command.type !== 'AnswerApproval') return refused(caller, 'channel:internal');
      if (caller.kind === 'human') return allowed(caller.channel);
      if (caller.registrationId === null)
        return command.data.outOfBand === true ? allowed('out-of-band') : refused(caller, 'channel:out-of-band-refused');
      if (ownerOf(state) !== caller.registrationId) return refused(caller, 'channel:not-session-owner');
      return allowed(`${runtimePromptPrefix}${caller.registrationId}/${command.data.surface ?? 'unknown'}`);
    }
  }
};

const ownerCheck = (caller: Caller, state: SessionState, ownerGone: boolean): CallerCheck => {
  if (caller.kind !== 'runtime') return refused(caller, 'channel:not-a-runtime');
  const owner = ownerOf(state);
  const principal = principalOf(caller);
  if (owner === undefined || owner === principal) return allowed();
  // Only a registered runtime may take over, only a registered owner's session, and only once that owner is gone.
  if (principal !== null && owner !== null && ownerGone) return { kind: 'claim', from: owner, to: principal };
  return refused(caller, 'channel:not-session-owner');
};

/**
 * Whether an answer may put its action on the allowlist of every session (`always`). Not when a runtime relayed it:
 * any process of the agent's user can register as a runtime and answer questions in sessions it opened itself, so a
 * relayed `always` would let the agent allowlist its own actions for the user's sessions. A relayed `always` counts
 * for the session it was given in; a lasting entry needs the human channel (or `approvals.allowlist`).
 */
export const mayAllowlist = (answeredBy: string | null): boolean => !(answeredBy ?? '').startsWith(runtimePromptPrefix);
export const runtimePromptPrefix = 'runtime-prompt:';

/**
 * Who may change the allowlist (revoke an `always` entry): the human channel; an unregistered caller only when
 * `approvals.out_of_band` is on; never a runtime registration (the agent's side). Recorded as `revokedBy`.
 */
export const allowlistChangeBy = (caller: Caller, outOfBand: boolean): { readonly by: string } | { readonly refused: string } =>
  caller.kind === 'human' ? { by: caller.channel }
    : caller.kind === 'in-process' ? { by: 'in-process' }
      : caller.registrationId === null && outOfBand ? { by: 'out-of-band' }
        : { refused: caller.registrationId === null ? 'channel:out-of-band-refused' : 'channel:not-a-human' };
