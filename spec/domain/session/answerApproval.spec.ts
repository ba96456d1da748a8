import { expect } from 'chai';
import type { TollgateEvent } from '../../../domain/events/catalogue.ts';
import type { AnswerApproval } from '../../../domain/session/commands.ts';
import { decide } from '../../../domain/session/decide.ts';
import { evolve } from '../../../domain/session/evolve.ts';
import { initialState } from '../../../domain/session/sessionState.ts';
import { given } from '../../support/deciderSpec.ts';
import { at, proposeTerminal, sessionStarted, userMessageReceived } from '../../support/sessionFixtures.ts';

const answer = (value: AnswerApproval['data']['answer'], seconds = 5, approvalId = 'approval-1'): AnswerApproval => ({
  type: 'AnswerApproval', data: { sessionId: 'main', now: at(seconds), approvalId, answer: value, answeredBy: 'alice', grantId: 'grant-1' },
});

/** History up to an asked `rm -r build/`, made by the decider itself so the fixtures cannot drift from it. */
const askedHistory = (resumption: 'held' | 'retry' = 'held'): TollgateEvent[] => {
  const opened = [sessionStarted(), userMessageReceived()];
  return [...opened, ...decide(proposeTerminal('rm -r build/', { resumption }), opened.reduce(evolve, initialState()))];
};

const run = (history: TollgateEvent[], ...commands: Parameters<typeof decide>[0][]): TollgateEvent[][] => {
  let state = history.reduce(evolve, initialState());
  return commands.map((c) => { const events = decide(c, state); state = events.reduce(evolve, state); return events; });
};

describe('AnswerApproval', () => {
  it('once lets the held call run and grants nothing more: the identical call asks again', () => {
    const [answered, again] = run(askedHistory(), answer('once'), proposeTerminal('rm -r build/', { callId: 'call-2', approvalId: 'approval-2', now: at(6) }));
    expect(answered?.map((e) => e.type)).to.deep.equal(['ApprovalAnswered']);
    expect(answered?.[0]?.data).to.include({ callAllowed: true, answer: 'once' });
    expect(again?.[0]?.data).to.include({ verdict: 'ask' });
  });

  it('once for a retrying runtime issues a one-use grant that the retry consumes, exactly once', () => {
    const retry = (n: number) => proposeTerminal('rm -r build/', { callId: `call-${n}`, approvalId: `approval-${n}`, now: at(5 + n), resumption: 'retry' });
    const [answered, first, second] = run(askedHistory('retry'), answer('once'), retry(2), retry(3));
    expect(answered?.map((e) => e.type)).to.deep.equal(['ApprovalAnswered', 'GrantIssued']);
    expect(first?.map((e) => e.type)).to.deep.equal(['ToolCallDecided', 'GrantConsumed']);
    expect(first?.[0]?.data).to.include({ verdict: 'allow', grantId: 'grant-1' });
    expect(second?.[0]?.data).to.include({ verdict: 'ask' });
  });

  it('session covers the same action for the rest of the session, and not another action', () => {
    const [, same, other] = run(askedHistory(), answer('session'),
      proposeTerminal('rm -r build/', { callId: 'call-2', approvalId: 'approval-2', now: at(6) }),
      proposeTerminal('rm -r dist/', { callId: 'call-3', approvalId: 'approval-3', now: at(7) }));
    expect(same?.[0]?.data).to.include({ verdict: 'allow', grantId: 'grant-1' });
    expect(other?.[0]?.data).to.include({ verdict: 'ask' });
  });

  it('always issues an always grant (the allowlist projection picks it up for every session)', () => {
    const [answered] = run(askedHistory(), answer('always'));
    expect(answered?.[1]).to.deep.include({ type: 'GrantIssued' });
    expect(answered?.[1]?.data).to.include({ scope: 'always', summary: 'rm -r build/' });
  });

  it('deny stops the call and grants nothing', () => {
    given(askedHistory()).when(answer('deny')).then([{ type: 'ApprovalAnswered', data: {
      sessionId: 'main', approvalId: 'approval-1', callId: 'call-1', answer: 'deny', callAllowed: false, answeredBy: 'alice', at: at(5),
    } }]);
  });

  it('an answer after the timeout is too late: the question expired, which counts as deny', () => {
    given(askedHistory()).when(answer('once', 61)).then([{ type: 'ApprovalExpired', data: {
      sessionId: 'main', approvalId: 'approval-1', callId: 'call-1', at: at(61),
    } }]);
  });

  it('an answer to an unknown question changes nothing', () => {
    given(askedHistory()).when(answer('once', 5, 'nope')).then([]);
  });

  it('no approval lifts a hardline block, even a session grant for the same line', () => {
    const line = 'rm -rf /';
    const history = [...askedHistory(), { type: 'GrantIssued', data: {
      sessionId: 'main', grantId: 'g', approvalId: 'approval-1', scope: 'session', tool: 'terminal',
      fingerprint: proposeTerminal(line).data.fingerprint, summary: line, at: at(2) } } as TollgateEvent];
    const decided = given(history).when(proposeTerminal(line, { callId: 'call-9', approvalId: 'approval-9', now: at(3), allowlisted: true })).events[0];
    expect(decided?.data).to.include({ verdict: 'block', layer: 'hardline' });
  });
});
