/**
 * The projection runtime: one ledger subscription (catch up, then live) feeds every projection of the process,
 * each event decoded once. Each projection keeps its own position and caught-up flag — the gate waits on them —
 * and its own checkpoint, so a restart resumes instead of re-reading everything. A checkpoint made by other code
 * (another version or another fold) is discarded and that projection is rebuilt from the start of the ledger.
 * Whether a checkpoint is authentic is the store's business (the file store checks a MAC under the daemon's key).
 */
import { createHash } from 'node:crypto';
import { map, type Subscription } from 'rxjs';
import type { Ledger, LedgerMessage } from '../adapters/ledger/port.ts';
import { decodeEvent, isKnownEventType } from '../domain/events/codec.ts';
import type { CheckpointStore } from './checkpointStore.ts';
import type { PositionedEvent, Projection } from './projection.ts';

export interface ProjectionView<S> {
  readonly state: S;
  readonly position: number;
  readonly caughtUp: boolean;
}

/** Identifies the fold's code, so a checkpoint made by different code is never trusted. */
export const projectionCodeHash = (projection: Projection<unknown>): string =>
  createHash('sha256').update(`${projection.name}@${projection.version}\n${projection.evolve.toString()}`).digest('hex').slice(0, 16);

export interface RunningProjection<S> {
  readonly name: string;
  view(): ProjectionView<S>;
  /** Resolves once the projection has folded every event up to `position` (rejects if the feed failed). */
  reached(position: number): Promise<void>;
  /** Set when the feed failed (undecodable event, ledger error); readers must fail closed. */
  failure(): Error | null;
  /** Writes a checkpoint now. */
  checkpoint(): Promise<void>;
}

export interface RunOptions {
  /** Checkpoint at most this often while events flow. @defaultValue 5000 */
  readonly checkpointEveryMs?: number;
}

type Projections = Readonly<Record<string, Projection<any>>>;
export type Running<P extends Projections> = { readonly [K in keyof P]: RunningProjection<P[K] extends Projection<infer S> ? S : never> };

export interface ProjectionHost<P extends Projections> {
  readonly projections: Running<P>;
  stop(): Promise<void>;
}

type Item = PositionedEvent | { readonly caughtUp: number };

const toItem = (m: LedgerMessage): Item | null => {
  if (m.kind === 'caught-up') return { caughtUp: m.position };
  if (!isKnownEventType(m.event.type)) return null;
  return { position: m.event.position, stream: m.event.stream, recordedAt: m.event.recordedAt, event: decodeEvent(m.event) };
};

class Slot<S> implements RunningProjection<S> {
  private current: ProjectionView<S>;
  private savedPosition: number;
  private lastSave = 0;
  private waiters: { position: number; resolve: () => void; reject: (e: Error) => void }[] = [];
  failed: Error | null = null;

  constructor(
    private readonly projection: Projection<S>, private readonly codeHash: string, start: ProjectionView<S>,
    private readonly checkpoints: CheckpointStore, private readonly every: number,
  ) {
    this.current = start;
    this.savedPosition = start.position === 0 ? -1 : start.position;
  }

  get name(): string { return this.projection.name; }
  view(): ProjectionView<S> { return this.current; }
  failure(): Error | null { return this.failed; }

  apply(item: Item): void {
    if ('caughtUp' in item) this.current = { ...this.current, caughtUp: true, position: Math.max(this.current.position, item.caughtUp) };
    else if (item.position > this.current.position) this.current = { ...this.current, state: this.projection.evolve(this.current.state, item), position: item.position };
    else return;
    this.settle();
    const now = Date.now();
    if (this.current.caughtUp && now - this.lastSave >= this.every) { this.lastSave = now; void this.checkpoint().catch(() => undefined); }
  }

  fail(error: Error): void { this.failed = error; this.settle(); }

  reached(position: number): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    if (this.current.position >= position) return Promise.resolve();
    return new Promise((resolve, reject) => { this.waiters.push({ position, resolve, reject }); });
  }

  /** Saves one after another: a save still in flight when `stop` runs must not land after it (or over a later one). */
  checkpoint(): Promise<void> {
    const next = this.saving.then(() => this.saveNow());
    this.saving = next.catch(() => undefined);
    return next;
  }

  private saving: Promise<void> = Promise.resolve();

  private async saveNow(): Promise<void> {
    const snapshot = this.current;
    if (snapshot.position === this.savedPosition || this.failed) return;
    const serialize = this.projection.serialize ?? ((state: S) => state as unknown);
    await this.checkpoints.save(this.projection.name, { codeHash: this.codeHash, position: snapshot.position, state: serialize(snapshot.state) });
    this.savedPosition = snapshot.position;
  }

  close(): void {
    const stopped = new Error(`projection ${this.projection.name} stopped`);
    this.waiters.forEach((w) => w.reject(stopped));
    this.waiters = [];
  }

  private settle(): void {
    if (this.failed) { const failed = this.failed; this.waiters.forEach((w) => w.reject(failed)); this.waiters = []; return; }
    if (!this.waiters.some((w) => this.current.position >= w.position)) return;
    const ready = this.waiters.filter((w) => this.current.position >= w.position);
    this.waiters = this.waiters.filter((w) => this.current.position < w.position);
    ready.forEach((w) => w.resolve());
  }
}

const startOf = async <S>(projection: Projection<S>, codeHash: string, checkpoints: CheckpointStore, head: number): Promise<ProjectionView<S>> => {
  // A store that cannot produce a checkpoint costs a rebuild, never the start: the ledger holds every fact.
  const saved = await checkpoints.load(projection.name).catch(() => null);
  // A checkpoint beyond the head belongs to a ledger that is no longer there (deleted or replaced): not this one's state.
  if (saved === null || saved.codeHash !== codeHash || saved.position > head) return { state: projection.initial(), position: 0, caughtUp: false };
  const deserialize = projection.deserialize ?? ((json: unknown) => json as S);
  return { state: deserialize(saved.state), position: saved.position, caughtUp: false };
};

export const startProjections = async <P extends Projections>(
  projections: P, ledger: Ledger, checkpoints: CheckpointStore, options: RunOptions = {},
): Promise<ProjectionHost<P>> => {
  const slots: Slot<unknown>[] = [];
  const running: Record<string, RunningProjection<unknown>> = {};
  const head = await ledger.headPosition();
  for (const [key, projection] of Object.entries(projections)) {
    const codeHash = projectionCodeHash(projection);
    const slot = new Slot(projection, codeHash, await startOf(projection, codeHash, checkpoints, head), checkpoints, options.checkpointEveryMs ?? 5000);
    slots.push(slot);
    running[key] = slot;
  }
  const from = Math.min(...slots.map((s) => s.view().position));
  const subscription: Subscription = ledger.subscribe({ fromPosition: Number.isFinite(from) ? from : 0 }).pipe(map(toItem)).subscribe({
    next: (item) => { if (item !== null) for (const slot of slots) slot.apply(item); },
    error: (error: unknown) => {
      const failure = error instanceof Error ? error : new Error(String(error));
      for (const slot of slots) slot.fail(failure);
    },
  });
  return {
    projections: running as Running<P>,
    stop: async () => {
      subscription.unsubscribe();
      await Promise.all(slots.map((s) => s.checkpoint().catch(() => undefined)));
      slots.forEach((s) => s.close());
    },
  };
};

/** One projection on its own feed (tools and tests). */
export const runProjection = async <S>(
  projection: Projection<S>, ledger: Ledger, checkpoints: CheckpointStore, options: RunOptions = {},
): Promise<RunningProjection<S> & { stop(): Promise<void> }> => {
  const host = await startProjections({ only: projection }, ledger, checkpoints, options);
  return Object.assign(host.projections.only, { stop: host.stop });
};
