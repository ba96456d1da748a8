import { expect } from 'chai';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { openMemoryLedger } from '../../adapters/ledger/memory/memoryLedger.ts';
import type { Ledger } from '../../adapters/ledger/port.ts';
import { encodeEvent } from '../../domain/events/codec.ts';
import { event } from '../../domain/events/catalogue.ts';
import { fileCheckpointStore, MAC_MISMATCH, NO_MAC, type CheckpointRejection } from '../../adapters/projections/fileCheckpointStore.ts';
import { memoryCheckpointStore } from '../../projections/checkpointStore.ts';
import type { Projection } from '../../projections/projection.ts';
import { projectionCodeHash, runProjection } from '../../projections/runProjection.ts';
import { useTempDir } from '../support/tempDir.ts';

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

  describe('checkpoints in files (authenticated with the daemon\'s key)', () => {
    const temp = useTempDir('tollgate-projection-checkpoints');
    const file = () => temp.current.file('ended-counter.json');
    const storeWith = (rejections: CheckpointRejection[] = [], storeKey = key) =>
      fileCheckpointStore(temp.current.path, { key: storeKey, onRejected: (r) => { rejections.push(r); } });

    it('resumes from an authentic checkpoint instead of re-reading what it already folded', async () => {
      const ledger = openMemoryLedger();
      const checkpoints = storeWith();
      await appendEnded(ledger, 2);
      const first = await runProjection(counter(), ledger, checkpoints);
      await first.reached(2);
      await first.stop();
      expect(JSON.parse(readFileSync(file(), 'utf8'))).to.include({ position: 2 });
      // Saved by the key holder with a state the ledger never produced: the fold continuing from 100 proves resumption.
      await checkpoints.save('ended-counter', { codeHash: projectionCodeHash(counter() as Projection<unknown>), position: 2, state: { count: 100, tag: 'a' } });
      await appendEnded(ledger, 1);
      const second = await runProjection(counter(), ledger, checkpoints);
      await second.reached(3);
      expect(second.view().state.count).to.equal(101);
      await second.stop();
    });

    it('discards a checkpoint doctored without the key and rebuilds from the ledger, reporting why', async () => {
      const ledger = openMemoryLedger();
      const rejections: CheckpointRejection[] = [];
      const checkpoints = storeWith(rejections);
      await appendEnded(ledger, 2);
      const first = await runProjection(counter(), ledger, checkpoints);
      await first.reached(2);
      await first.stop();
      // The edit an agent could make to the file: new state, MAC left as it was.
      const saved = JSON.parse(readFileSync(file(), 'utf8')) as { state: { count: number } };
      saved.state.count = 100;
      writeFileSync(file(), JSON.stringify(saved));
      await appendEnded(ledger, 1);
      const second = await runProjection(counter(), ledger, checkpoints);
      await second.reached(3);
      expect(second.view().state.count).to.equal(3);
      expect(rejections).to.deep.equal([{ name: 'ended-counter', problem: MAC_MISMATCH }]);
      await second.stop();
    });

    it('discards a checkpoint without a MAC, one made under another key, one saved for another projection, and garbage', async () => {
      const ledger = openMemoryLedger();
      await appendEnded(ledger, 2);
      const rejections: CheckpointRejection[] = [];
      const ours = storeWith(rejections);
      const theirs = storeWith([], Buffer.alloc(32, 9));
      const doctored = { codeHash: projectionCodeHash(counter() as Projection<unknown>), position: 2, state: { count: 100, tag: 'a' } };
      const plants: (() => Promise<void>)[] = [
        async () => writeFileSync(file(), JSON.stringify(doctored)),
        () => theirs.save('ended-counter', doctored),
        async () => { await ours.save('other-counter', doctored); renameSync(temp.current.file('other-counter.json'), file()); },
        async () => writeFileSync(file(), '{"codeHash": "x", "mac":"00"'),
      ];
      for (const plant of plants) {
        await plant();
        const running = await runProjection(counter(), ledger, ours);
        await running.reached(2);
        expect(running.view().state.count).to.equal(2);
        await running.stop();
        rmSync(file(), { force: true });
      }
      expect(rejections.map((r) => r.problem)).to.deep.equal([NO_MAC, MAC_MISMATCH, MAC_MISMATCH, NO_MAC]);
    });

    it('writes its files 0600 in a 0700 folder', async () => {
      const checkpoints = fileCheckpointStore(temp.current.file('projections'), { key });
      await checkpoints.save('ended-counter', { codeHash: 'c', position: 1, state: {} });
      expect(statSync(temp.current.file('projections')).mode & 0o777).to.equal(0o700);
      expect(statSync(temp.current.file('projections', 'ended-counter.json')).mode & 0o777).to.equal(0o600);
    });

    it('discards a checkpoint that is ahead of the ledger (the ledger it came from is gone)', async () => {
      const ledger = openMemoryLedger();
      const checkpoints = storeWith();
      await checkpoints.save('ended-counter', { codeHash: projectionCodeHash(counter() as Projection<unknown>), position: 50, state: { count: 100, tag: 'a' } });
      await appendEnded(ledger, 2);
      const running = await runProjection(counter(), ledger, checkpoints);
      await running.reached(2);
      expect(running.view()).to.deep.include({ position: 2, state: { count: 2, tag: 'a' } });
      await running.stop();
    });
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
