/** given(events).when(command).then(events): fold the history, decide, and compare whole events. */
import { expect } from 'chai';
import type { TollgateEvent } from '../../domain/events/catalogue.ts';
import type { SessionCommand } from '../../domain/session/commands.ts';
import { decide } from '../../domain/session/decide.ts';
import { evolve } from '../../domain/session/evolve.ts';
import { initialState } from '../../domain/session/sessionState.ts';

export const given = (history: readonly TollgateEvent[]) => ({
  when: (command: SessionCommand) => {
    const produced = decide(command, history.reduce(evolve, initialState()));
    return {
      then: (expected: readonly TollgateEvent[]) => expect(produced).to.deep.equal(expected),
      /** For assertions on part of the outcome. */
      events: produced,
    };
  },
});
