/**
 * A projection is a pure fold over recorded events. It never sees RxJS, the ledger or a clock; the runtime
 * (runProjection.ts) feeds it, keeps its position and caught-up flag, and checkpoints it.
 * `version` is bumped by hand for semantic changes; the runtime also rebuilds when the fold's code changes.
 */
import type { TollgateEvent } from '../domain/events/catalogue.ts';

/** An event with where it sits in the ledger, as projections receive it. */
export interface PositionedEvent {
  readonly position: number;
  readonly stream: string;
  readonly recordedAt: string;
  readonly event: TollgateEvent;
}

export interface Projection<S> {
  readonly name: string;
  readonly version: number;
  readonly initial: () => S;
  readonly evolve: (state: S, event: PositionedEvent) => S;
  /** Encoding for checkpoints (plain JSON by default). */
  readonly serialize?: (state: S) => unknown;
  readonly deserialize?: (json: unknown) => S;
}
