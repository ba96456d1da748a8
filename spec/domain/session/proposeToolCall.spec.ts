import { expect } from 'chai';
import { event } from '../../../domain/events/catalogue.ts';
import { decide, maxOpenQuestions } from '../../../domain/session/decide.ts';
import { evolve } from '../../../domain/session/evolve.ts';
import { initialState } from '../../../domain/session/sessionState.ts';
import { given } from '../../support/deciderSpec.ts';
import { analysed, at, manualSettings, proposeTerminal, sessionStarted, userMessageReceived } from '../../support/sessionFixtures.ts';

const openSession = [sessionStarted(), userMessageReceived()];

describe('ProposeToolCall', () => {
  describe('when the session is unknown', () => {
    it('blocks and records the block, because there is no authority without a user message', () => {
      const call = proposeTerminal('ls -la');
      const [decided] = given([]).when(call).events;
      expect(decided).to.deep.include({ type: 'ToolCallDecided' });
      expect(decided?.data).to.include({ verdict: 'block', layer: 'session' });
      expect((decided?.data as { reasons: string[] }).reasons).to.deep.equal(['session:unknown-session']);
    });

    it("opens a subagent's session linked to a known parent and decides its call", () => {
      const call = proposeTerminal('ls -la', { sessionId: 'child', parentSessionId: 'main', parentKnown: true });
      const events = given([]).when(call).events;
      expect(events.map((e) => e.type)).to.deep.equal(['SessionStarted', 'ToolCallDecided']);
      expect(events[0]?.data).to.include({ sessionId: 'child', parentSessionId: 'main' });
      expect(events[1]?.data).to.include({ verdict: 'allow' });
    });

    it('blocks a call naming a parent the gate has never seen', () => {
      const call = proposeTerminal('ls -la', { sessionId: 'child', parentSessionId: 'ghost', parentKnown: false });
      expect(given([]).when(call).events[0]?.data).to.include({ verdict: 'block', layer: 'session' });
    });
  });

  describe('when the session is open', () => {
    it('allows a plain command with no objection from any layer', () => {
      const call = proposeTerminal('ls -la src');
      given(openSession).when(call).then([event('ToolCallDecided', {
        sessionId: 'main', callId: 'call-1', tool: 'terminal', args: { command: 'ls -la src' }, fingerprint: call.data.fingerprint,
        shell: analysed('ls -la src'), verdict: 'allow', layer: 'gate', reasons: [], message: 'Allowed: no guard objected.',
        mode: 'enforce', wouldBlock: [], approvalId: null, grantId: null, at: at(1),
      })]);
    });

    it('blocks a command line that did not parse, whatever the approval settings', () => {
      const broken = { source: 'ls ((', parsed: false, problems: ['syntax error at byte 3'], commands: [] };
      const call = proposeTerminal('ls ((', { shell: broken, settings: { approvals: { ...manualSettings.approvals, yolo: true, mode: 'off' } } });
      expect(given(openSession).when(call).events[0]?.data).to.deep.include({ verdict: 'block', layer: 'parse', reasons: ['parse:shell-unparseable'] });
    });

    it('blocks a shell tool whose command line is missing', () => {
      const call = proposeTerminal('', { shell: null, args: {} });
      expect(given(openSession).when(call).events[0]?.data).to.deep.include({ verdict: 'block', reasons: ['parse:shell-missing'] });
    });

    it('asks a human about a dangerous command and records the question with its expiry', () => {
      const call = proposeTerminal('rm -r build/');
      const events = given(openSession).when(call).events;
      expect(events.map((e) => e.type)).to.deep.equal(['ToolCallDecided', 'ApprovalRequested']);
      expect(events[0]?.data).to.include({ verdict: 'ask', layer: 'approvals', approvalId: 'approval-1' });
      expect(events[1]?.data).to.include({ approvalId: 'approval-1', callId: 'call-1', expiresAt: at(61), resumption: 'held' });
    });

    it('lets yolo auto-approve a dangerous command and says so in the reasons', () => {
      const call = proposeTerminal('rm -r build/', { settings: { approvals: { ...manualSettings.approvals, yolo: true } } });
      const decided = given(openSession).when(call).events[0]?.data as { verdict: string; reasons: string[] };
      expect(decided.verdict).to.equal('allow');
      expect(decided.reasons).to.include('approvals:yolo');
    });

    it('lets approvals.mode off auto-approve a dangerous command', () => {
      const call = proposeTerminal('rm -r build/', { settings: { approvals: { ...manualSettings.approvals, mode: 'off' } } });
      expect((given(openSession).when(call).events[0]?.data as { reasons: string[] }).reasons).to.include('approvals:mode-off');
    });

    it('escalates smart mode without a model to a human', () => {
      const call = proposeTerminal('rm -r build/', { settings: { approvals: { ...manualSettings.approvals, mode: 'smart' } } });
      const decided = given(openSession).when(call).events[0]?.data as { verdict: string; reasons: string[] };
      expect(decided.verdict).to.equal('ask');
      expect(decided.reasons).to.include('approvals:smart-no-model');
    });

    it('allows an allowlisted dangerous command without asking', () => {
      const call = proposeTerminal('rm -r build/', { allowlisted: true });
      expect(given(openSession).when(call).events[0]?.data).to.include({ verdict: 'allow', layer: 'approvals' });
    });
  });

  describe('when a session ended', () => {
    it('blocks further calls', () => {
      const history = [...openSession, event('SessionEnded', { sessionId: 'main', at: at(0) })];
      expect(given(history).when(proposeTerminal('ls')).events[0]?.data).to.deep.include({ verdict: 'block', reasons: ['session:session-ended'] });
    });
  });
});

describe('ProposeToolCall with many unanswered questions', () => {
  it('blocks a further ask once the limit of open questions is reached, so the human is not buried', () => {
    let state = openSession.reduce(evolve, initialState());
    for (let i = 0; i < maxOpenQuestions; i++) {
      const events = decide(proposeTerminal('rm -r build/', { callId: `c${i}`, approvalId: `a${i}` }), state);
      expect(events[0]?.data).to.include({ verdict: 'ask' });
      state = events.reduce(evolve, state);
    }
    const [refused] = decide(proposeTerminal('rm -r build/', { callId: 'over', approvalId: 'over' }), state);
    expect(refused?.data).to.include({ verdict: 'block' });
    expect((refused?.data as { reasons: string[] }).reasons).to.include('approvals:too-many-open-questions');
    expect(decide(proposeTerminal('ls', { callId: 'plain', approvalId: 'plain' }), state)[0]?.data).to.include({ verdict: 'allow' });
  });
});

describe('StartSubagent', () => {
  const start = (parentKnown: boolean) => ({
    type: 'StartSubagent' as const,
    data: { sessionId: 'child', now: at(2), parentSessionId: 'main', parentKnown, role: 'leaf' },
  });

  it("opens the child's session linked to a known parent, so its calls are decided", () => {
    given([]).when(start(true)).then([event('SessionStarted', { sessionId: 'child', platform: 'subagent', parentSessionId: 'main', owner: null, at: at(2) })]);
    const opened = [event('SessionStarted', { sessionId: 'child', platform: 'subagent', parentSessionId: 'main', owner: null, at: at(2) })];
    expect(given(opened).when(proposeTerminal('ls', { sessionId: 'child' })).events[0]?.data).to.include({ verdict: 'allow' });
  });

  it('gives a subagent of an unknown parent no authority', () => {
    given([]).when(start(false)).then([]);
  });

  it('does not reopen or relink a session that already exists', () => {
    given([sessionStarted('child')]).when(start(true)).then([]);
  });
});

describe('ProposeToolCall asked again with the same call id', () => {
  const opened = () => openSession.reduce(evolve, initialState());

  it('decides nothing new: the call already has its answer', () => {
    const state = decide(proposeTerminal('ls -la'), opened()).reduce(evolve, opened());
    expect(decide(proposeTerminal('ls -la', { approvalId: 'other' }), state)).to.deep.equal([]);
    expect(state.status === 'open' && state.recentDecisions.map((d) => d.verdict)).to.deep.equal(['allow']);
  });

  it('blocks the same call id used for another action', () => {
    const state = decide(proposeTerminal('ls -la'), opened()).reduce(evolve, opened());
    const [refused] = decide(proposeTerminal('rm -rf build/'), state);
    expect(refused?.data).to.deep.include({ verdict: 'block', layer: 'input', reasons: ['input:call-id-reused'] });
  });

  it("remembers the human's answer to an asked call, so asking again hears it", () => {
    let state = decide(proposeTerminal('rm -r build/'), opened()).reduce(evolve, opened());
    state = decide({ type: 'AnswerApproval', data: { sessionId: 'main', now: at(3), approvalId: 'approval-1', answer: 'once', answeredBy: null, grantId: 'g' } }, state).reduce(evolve, state);
    expect(state.status === 'open' && state.recentDecisions[0]).to.deep.include({ verdict: 'allow', reasons: ['dangerous:recursive-delete', 'approvals:answered-once'] });
  });
});
