/** The decider reads the floor's facts from the command alone: the same recorded command decides the same way. */
import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { decide } from '../../../../domain/session/decide.ts';
import { evolve } from '../../../../domain/session/evolve.ts';
import { initialState } from '../../../../domain/session/sessionState.ts';
import { sessionCommandSchema } from '../../../../domain/session/commands.ts';
import { manualSettings, proposeTerminal, sessionStarted, userMessageReceived } from '../../../support/sessionFixtures.ts';

describe('self-protection facts travel in the command', () => {
  const state = [sessionStarted(), userMessageReceived()].reduce(evolve, initialState());
  const yolo = { approvals: { ...manualSettings.approvals, yolo: true } };

  it('blocks by the recorded facts, with yolo on and the line allowlisted', () => {
    const command = proposeTerminal('kill 4242', { protection: exampleFacts, settings: yolo, allowlisted: true });
    const decided = decide(command, state)[0]!;
    expect(decided.type).to.equal('ToolCallDecided');
    expect(decided.data).to.deep.include({ verdict: 'block', layer: 'self-protection' });
  });

  it('decides a recorded command (after its schema round trip) exactly as it did', () => {
    const command = proposeTerminal('kill 4242', { protection: exampleFacts });
    const replayed = sessionCommandSchema.parse(JSON.parse(JSON.stringify(command)));
    expect(decide(replayed, state)).to.deep.equal(decide(command, state));
  });

  it('without facts (an older ledger) the name-based rules still apply', () => {
    expect(decide(proposeTerminal('tollgate approve abc always', { settings: yolo }), state)[0]!.data).to.deep.include({ verdict: 'block', layer: 'self-protection' });
    expect(decide(proposeTerminal('kill 4242', { settings: yolo }), state)[0]!.data).to.deep.include({ verdict: 'allow' });
  });
});
