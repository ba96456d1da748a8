import { expect } from 'chai';
import { openMemoryLedger } from '../../adapters/ledger/memory/memoryLedger.ts';
import type { Ledger } from '../../adapters/ledger/port.ts';
import { encodeEvent } from '../../domain/events/codec.ts';
import { event } from '../../domain/events/catalogue.ts';
import { authenticatedCheckpoints, type CheckpointRejection } from '../../projections/authenticatedCheckpoints.ts';
import { memoryCheckpointStore } from '../../projections/checkpointStore.ts';
import type { Projection } from '../../projections/projection.ts';
import { projectionCodeHash, runProjection } from '../../projections/runProjection.ts';

const ended = (sessionId: string) => encodeEvent(event('SessionEnded', { sessionId, at: '2026-03-01T10:00:00.000Z' }));

/** Counts SessionEnded events; `tag` changes the fold's code without changing its name or version. */
const counter = (tag = 'a'): Projection<{ count: number; tag: string }> => ({
  name: 'ended-counter',
  version: 1,
  initial: () => ({ count: 0, tag }),
  evolve: tag === 'a'
    ? (s, { event: e }) => (e.type === 'SessionEnded' ? { ...s, count: s.count + 1 } : s)
    : (s, { event: e }) => (e.type === 'SessionEnded' ? { ...s, count: s.count + 1, tag: 'b' } : s),
});

const key = Buffer.alloc(32, 3);

const appendEnded = async (ledger: Ledger, n: number) => {
  for (let i = 0; i < n; i++) await ledger.append(`session-${i}`, [ended(`${i}`)]);
};

describe('projection runtime', () => {
  it('catches up on history, marks caught-up, then folds live events', async () => {
    const ledger = openMemoryLedger();
    await appendEnded(ledger, 3);
    const running = await runProjection(counter(), ledger, memoryCheckpointStore());
    await running.reached(3);
    expect(running.view()).to.deep.include({ position: 3, caughtUp: true });
    expect(running.view().state.count).to.equal(3);
    const { position } = await ledger.append('session-live', [ended('live')]);
    await running.reached(position);
    expect(running.view().state.count).to.equal(4);
    await running.stop();
  });

  it('resumes from an authentic checkpoint instead of re-reading what it already folded', async () => {
    const ledger = openMemoryLedger();
    const stored = memoryCheckpointStore();
    const checkpoints = authenticatedCheckpoints(stored, { key });
    await appendEnded(ledger, 2);
    const first = await runProjection(counter(), ledger, checkpoints);
    await first.reached(2);
    await first.stop();
    expect(stored.saved.get('ended-counter')).to.include({ position: 2 });
    // Saved through the key holder with a state the ledger never produced: the fold continuing from 100 proves resumption.
    await checkpoints.save('ended-counter', { ...stored.saved.get('ended-counter')!, state: { count: 100, tag: 'a' } });
    await appendEnded(ledger, 1);
    const second = await runProjection(counter(), ledger, checkpoints);
    await second.reached(3);
    expect(second.view().state.count).to.equal(101);
    await second.stop();
  });

  it('discards a checkpoint doctored without the key and rebuilds from the ledger, reporting why', async () => {
    const ledger = openMemoryLedger();
    const stored = memoryCheckpointStore();
    const rejections: CheckpointRejection[] = [];
    const checkpoints = authenticatedCheckpoints(stored, { key, onRejected: (r) => { rejections.push(r); } });
    await appendEnded(ledger, 2);
    const first = await runProjection(counter(), ledger, checkpoints);
    await first.reached(2);
    await first.stop();
    // The edit an agent could make to the file: new state, MAC left as it was.
    stored.saved.set('ended-counter', { ...stored.saved.get('ended-counter')!, state: { count: 100, tag: 'a' } });
    await appendEnded(ledger, 1);
    const second = await runProjection(counter(), ledger, checkpoints);
    await second.reached(3);
    expect(second.view().state.count).to.equal(3);
    expect(rejections).to.deep.equal([{ name: 'ended-counter', problem: 'its MAC does not match (edited, or written under another key)' }]);
    await second.stop();
  });

  it('discards a checkpoint without a MAC, one made under another key, and one saved for another projection', async () => {
    const ledger = openMemoryLedger();
    await appendEnded(ledger, 2);
    const stored = memoryCheckpointStore();
    const rejections: string[] = [];
    const ours = authenticatedCheckpoints(stored, { key, onRejected: (r) => { rejections.push(r.problem); } });
    const theirs = authenticatedCheckpoints(stored, { key: Buffer.alloc(32, 9) });
    const doctored = { codeHash: projectionCodeHash(counter() as Projection<unknown>), position: 2, state: { count: 100, tag: 'a' } };
    const tries: (() => Promise<void>)[] = [
      async () => { stored.saved.set('ended-counter', doctored); },
      () => theirs.save('ended-counter', doctored),
      async () => { await ours.save('other-counter', doctored); stored.saved.set('ended-counter', stored.saved.get('other-counter')!); },
    ];
    for (const plant of tries) {
      await plant();
      const running = await runProjection(counter(), ledger, ours);
      await running.reached(2);
      expect(running.view().state.count).to.equal(2);
      await running.stop();
      stored.saved.clear();
    }
    expect(rejections).to.deep.equal(['it carries no MAC', 'its MAC does not match (edited, or written under another key)', 'its MAC does not match (edited, or written under another key)']);
  });

  it('discards a checkpoint that is ahead of the ledger (the ledger it came from is gone)', async () => {
    const ledger = openMemoryLedger();
    const checkpoints = authenticatedCheckpoints(memoryCheckpointStore(), { key });
    await checkpoints.save('ended-counter', { codeHash: projectionCodeHash(counter() as Projection<unknown>), position: 50, state: { count: 100, tag: 'a' } });
    await appendEnded(ledger, 2);
    const running = await runProjection(counter(), ledger, checkpoints);
    await running.reached(2);
    expect(running.view()).to.deep.include({ position: 2, state: { count: 2, tag: 'a' } });
    await running.stop();
  });

  it('rebuilds from the start when the fold code changed since the checkpoint', async () => {
    const ledger = openMemoryLedger();
    const checkpoints = memoryCheckpointStore();
    await appendEnded(ledger, 2);
    const old = await runProjection(counter('a'), ledger, checkpoints);
    await old.reached(2);
    await old.stop();
    checkpoints.saved.set('ended-counter', { ...checkpoints.saved.get('ended-counter')!, state: { count: 100, tag: 'a' } });
    expect(projectionCodeHash(counter('a') as Projection<unknown>)).not.to.equal(projectionCodeHash(counter('b') as Projection<unknown>));
    const rebuilt = await runProjection(counter('b'), ledger, checkpoints);
    await rebuilt.reached(2);
    expect(rebuilt.view().state).to.deep.equal({ count: 2, tag: 'b' });
    await rebuilt.stop();
  });

  it('fails, and tells its readers, when an event does not decode', async () => {
    const ledger = openMemoryLedger();
    await ledger.append('session-x', [{ type: 'SessionEnded', version: 1, data: { sessionId: 5 } }]);
    const running = await runProjection(counter(), ledger, memoryCheckpointStore());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.failure()?.message).to.match(/SessionEnded at position 1/);
    await running.reached(1).then(() => expect.fail('should have rejected'), (error: Error) => expect(error.message).to.match(/does not decode/));
    await running.stop();
  });
});
