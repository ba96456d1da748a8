/** The channel rule of every command (channelRules.ts), each row exercised through the pure decider. */
import { expect } from 'chai';
import { anonymousRuntime, humanCaller, registeredRuntime } from '../../../domain/session/caller.ts';
import { channelRules } from '../../../domain/session/channelRules.ts';
import type { SessionCommand } from '../../../domain/session/commands.ts';
import { decide } from '../../../domain/session/decide.ts';
import { evolve } from '../../../domain/session/evolve.ts';
import { initialState, type SessionState } from '../../../domain/session/sessionState.ts';
import { event, type TollgateEvent } from '../../../domain/events/catalogue.ts';
import { at, proposeTerminal } from '../../support/sessionFixtures.ts';

const hermes = registeredRuntime('reg-hermes');
const other = registeredRuntime('reg-other');
const owned = (owner: string | null, more: TollgateEvent[] = []): SessionState =>
  [event('SessionStarted', { sessionId: 'main', platform: 'cli', parentSessionId: null, owner, at: at(0) }), ...more].reduce(evolve, initialState());
const asked = event('ApprovalRequested', { sessionId: 'main', approvalId: 'q1', callId: 'c1', tool: 'terminal', fingerprint: 'f', summary: 'rm -r build/', hits: [], resumption: 'held', expiresAt: at(600), at: at(0) });
const types = (events: readonly TollgateEvent[]) => events.map((e) => e.type);
const refusal = (events: readonly TollgateEvent[]) => events.find((e) => e.type === 'CallerRefused')?.data as { reason: string } | undefined;

const commands: Record<SessionCommand['type'], (caller: SessionCommand['data'] extends infer D ? D extends { caller?: infer C } ? C : never : never, ownerGone?: boolean) => SessionCommand> = {
  ObserveUserMessage: (caller, ownerGone) => ({ type: 'ObserveUserMessage', data: { sessionId: 'main', now: at(1), textRef: 'r', textDigest: 'd', length: 1, senderId: null, platform: 'cli', parentSessionId: null, caller, ownerGone } }),
  ObserveSession: (caller, ownerGone) => ({ type: 'ObserveSession', data: { sessionId: 'main', now: at(1), platform: 'cli', parentSessionId: null, caller, ownerGone } }),
  EndSession: (caller, ownerGone) => ({ type: 'EndSession', data: { sessionId: 'main', now: at(1), caller, ownerGone } }),
  StartSubagent: (caller) => ({ type: 'StartSubagent', data: { sessionId: 'kid', now: at(1), parentSessionId: 'main', parentKnown: true, role: null, caller, parentOwner: 'reg-hermes' } }),
  AnswerApproval: (caller) => ({ type: 'AnswerApproval', data: { sessionId: 'main', now: at(1), approvalId: 'q1', answer: 'once', answeredBy: 'human', grantId: 'g1', caller, outOfBand: false, surface: 'hermes-cli' } }),
  ProposeToolCall: (caller) => proposeTerminal('ls', { caller }),
  ProposeOutput: () => ({ type: 'ProposeOutput', data: { sessionId: 'main', now: at(1), outputId: 'o1', channel: 'final-reply', textDigest: 'd', length: 1 } }),
  RecordToolResult: () => ({ type: 'RecordToolResult', data: { sessionId: 'main', now: at(1), callId: 'c1', tool: 'terminal', status: 'ok', durationMs: null } }),
  ExpireApprovals: () => ({ type: 'ExpireApprovals', data: { sessionId: 'main', now: at(1) } }),
};

describe('channel rules (who may give which command to a session)', () => {
  for (const [type, rule] of Object.entries(channelRules) as [SessionCommand['type'], string][]) {
    const build = commands[type];
    if (rule === 'any-caller') {
      it(`${type} (${rule}): an anonymous caller is not refused in a registered runtime's session`, () => {
        expect(refusal(decide(build(anonymousRuntime), owned('reg-hermes')))).to.equal(undefined);
      });
    } else if (rule === 'session-owner') {
      it(`${type} (${rule}): the owner is accepted; anonymous and other registrations are refused; a claim needs the owner gone`, () => {
        expect(refusal(decide(build(hermes), owned('reg-hermes')))).to.equal(undefined);
        expect(refusal(decide(build(anonymousRuntime), owned('reg-hermes')))?.reason).to.equal('channel:not-session-owner');
        expect(refusal(decide(build(other), owned('reg-hermes')))?.reason).to.equal('channel:not-session-owner');
        expect(refusal(decide(build(humanCaller('human-socket')), owned('reg-hermes')))?.reason).to.equal('channel:not-a-runtime');
        expect(types(decide(build(other, true), owned('reg-hermes')))[0]).to.equal('SessionClaimed');
        expect(refusal(decide(build(anonymousRuntime, true), owned('reg-hermes')))?.reason).to.equal('channel:not-session-owner');
        expect(refusal(decide(build(other, true), owned(null)))?.reason, 'nobody claims an anonymous session').to.equal('channel:not-session-owner');
        expect(refusal(decide(build(anonymousRuntime), owned(null)))).to.equal(undefined);
      });
    } else if (rule === 'parent-owner') {
      it(`${type} (${rule}): only the parent's owner starts its subagents`, () => {
        expect(types(decide(build(hermes), initialState()))).to.deep.equal(['SessionStarted']);
        expect(refusal(decide(build(anonymousRuntime), initialState()))?.reason).to.equal('channel:not-parent-owner');
        expect(refusal(decide(build(other), initialState()))?.reason).to.equal('channel:not-parent-owner');
      });
    } else {
      it(`${type} (${rule}): the human channel and the owner's prompt answer; who answered is the channel, never the body`, () => {
        const state = owned('reg-hermes', [asked]);
        const answeredBy = (events: readonly TollgateEvent[]) => (events.find((e) => e.type === 'ApprovalAnswered')?.data as { answeredBy: string } | undefined)?.answeredBy;
        expect(answeredBy(decide(build(humanCaller('human-socket')), state))).to.equal('human-socket');
        expect(answeredBy(decide(build(hermes), state))).to.equal('runtime-prompt:reg-hermes/hermes-cli');
        expect(refusal(decide(build(other), state))?.reason).to.equal('channel:not-session-owner');
        expect(refusal(decide(build(anonymousRuntime), state))?.reason).to.equal('channel:out-of-band-refused');
        const outOfBand = { ...build(anonymousRuntime), data: { ...build(anonymousRuntime).data, outOfBand: true } } as SessionCommand;
        expect(answeredBy(decide(outOfBand, state))).to.equal('out-of-band');
      });
    }
  }

  it('a session keeps its owner when it ends, so reopening it is the owner\'s to do', () => {
    const ended = owned('reg-hermes', [event('SessionEnded', { sessionId: 'main', at: at(0) })]);
    expect(refusal(decide(commands.ObserveUserMessage(anonymousRuntime), ended))?.reason).to.equal('channel:not-session-owner');
    expect(types(decide(commands.ObserveUserMessage(hermes), ended))).to.deep.equal(['SessionStarted', 'UserMessageReceived']);
  });

  it('commands recorded before callers existed replay as in-process (accepted)', () => {
    const legacy = commands.ObserveUserMessage(hermes);
    const { caller: _c, ownerGone: _g, ...data } = legacy.data as Record<string, unknown>;
    expect(refusal(decide({ ...legacy, data } as SessionCommand, owned('reg-hermes')))).to.equal(undefined);
  });
});
