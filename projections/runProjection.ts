/**
 * The projection runtime: folds a ledger feed with RxJS (catch up, then live), tracks the position and the
 * caught-up flag the gate waits for, and checkpoints the state so a restart resumes instead of re-reading
 * everything. A checkpoint made by other code (another version or another fold) is discarded and the
 * projection is rebuilt from the start of the ledger.
 */
import { createHash } from 'node:crypto';
import { filter, map, scan, type Observable, type Subscription } from 'rxjs';
import type { Ledger, LedgerMessage } from '../adapters/ledger/port.ts';
import { decodeEvent, isKnownEventType } from '../domain/events/codec.ts';
import type { CheckpointStore } from './checkpointStore.ts';
import type { PositionedEvent, Projection } from './projection.ts';

export interface ProjectionView<S> {
  readonly state: S;
  readonly position: number;
  readonly caughtUp: boolean;
}

/** The pure part: a feed of ledger messages folded into views. */
export const foldFeed = <S>(projection: Projection<S>, start: ProjectionView<S>) =>
  (feed$: Observable<LedgerMessage>): Observable<ProjectionView<S>> => feed$.pipe(
    filter((m) => m.kind === 'caught-up' || isKnownEventType(m.event.type)),
    map((m): PositionedEvent | { caughtUp: number } => m.kind === 'caught-up'
      ? { caughtUp: m.position }
      : { position: m.event.position, stream: m.event.stream, recordedAt: m.event.recordedAt, event: decodeEvent(m.event) }),
    scan<PositionedEvent | { caughtUp: number }, ProjectionView<S>>((view, item) => 'caughtUp' in item
      ? { ...view, caughtUp: true, position: Math.max(view.position, item.caughtUp) }
      : { ...view, state: projection.evolve(view.state, item), position: item.position }, start),
  );

/** Identifies the fold's code, so a checkpoint made by different code is never trusted. */
export const projectionCodeHash = (projection: Projection<unknown>): string =>
  createHash('sha256').update(`${projection.name}@${projection.version}\n${projection.evolve.toString()}`).digest('hex').slice(0, 16);

export interface RunningProjection<S> {
  readonly name: string;
  view(): ProjectionView<S>;
  /** Resolves once the projection has folded every event up to `position` (fails if the projection failed). */
  reached(position: number): Promise<void>;
  /** Set when the feed failed (undecodable event, ledger error); readers must fail closed. */
  failure(): Error | null;
  /** Writes a checkpoint now. */
  checkpoint(): Promise<void>;
  stop(): Promise<void>;
}

export interface RunOptions {
  /** Checkpoint at most this often while events flow. @defaultValue 5000 */
  readonly checkpointEveryMs?: number;
}

export const runProjection = async <S>(
  projection: Projection<S>, ledger: Ledger, checkpoints: CheckpointStore, options: RunOptions = {},
): Promise<RunningProjection<S>> => {
  const codeHash = projectionCodeHash(projection as Projection<unknown>);
  const saved = await checkpoints.load(projection.name);
  const resumable = saved !== null && saved.codeHash === codeHash;
  const deserialize = projection.deserialize ?? ((json: unknown) => json as S);
  const serialize = projection.serialize ?? ((state: S) => state as unknown);
  let view: ProjectionView<S> = resumable
    ? { state: deserialize(saved.state), position: saved.position, caughtUp: false }
    : { state: projection.initial(), position: 0, caughtUp: false };
  let failed: Error | null = null;
  let waiters: { position: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  let savedPosition = resumable ? saved.position : -1;
  let lastSave = 0;
  const every = options.checkpointEveryMs ?? 5000;

  const save = async (): Promise<void> => {
    if (view.position === savedPosition || failed) return;
    const snapshot = view;
    await checkpoints.save(projection.name, { codeHash, position: snapshot.position, state: serialize(snapshot.state) });
    savedPosition = snapshot.position;
  };

  const settle = (): void => {
    if (failed) { waiters.forEach((w) => w.reject(failed!)); waiters = []; return; }
    const ready = waiters.filter((w) => view.position >= w.position);
    if (ready.length === 0) return;
    waiters = waiters.filter((w) => view.position < w.position);
    ready.forEach((w) => w.resolve());
  };

  const subscription: Subscription = ledger.subscribe({ fromPosition: view.position })
    .pipe(foldFeed(projection, view))
    .subscribe({
      next: (next) => {
        view = next;
        settle();
        const now = Date.now();
        if (view.caughtUp && now - lastSave >= every) { lastSave = now; void save().catch(() => undefined); }
      },
      error: (error: unknown) => { failed = error instanceof Error ? error : new Error(String(error)); settle(); },
    });

  return {
    name: projection.name,
    view: () => view,
    failure: () => failed,
    reached: (position) => {
      if (failed) return Promise.reject(failed);
      if (view.position >= position) return Promise.resolve();
      return new Promise((resolve, reject) => { waiters.push({ position, resolve, reject }); });
    },
    checkpoint: save,
    stop: async () => {
      subscription.unsubscribe();
      await save().catch(() => undefined);
      const stopped = new Error(`projection ${projection.name} stopped`);
      waiters.forEach((w) => w.reject(stopped));
      waiters = [];
    },
  };
};
