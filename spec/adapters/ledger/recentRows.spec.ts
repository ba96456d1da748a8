import { expect } from 'chai';
import { recentRows } from '../../../adapters/ledger/sqlite/recentRows.ts';
import type { StoredEvent } from '../../../adapters/ledger/storedEvent.ts';

const row = (position: number): StoredEvent => ({
  position, id: `e${position}`, stream: 's', revision: position - 1, type: 'T', version: 1, data: '{}', metadata: '{}',
  recordedAt: '2026-01-01T00:00:00.000Z', prevHash: '0', hash: '1',
});
const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => row(from + i));

describe('recent rows of the sqlite ledger', () => {
  it('answers a read it fully holds, honouring the limit and the head', () => {
    const recent = recentRows();
    recent.committed(rows(1, 10));
    expect(recent.read(3, 10, 100)?.map((r) => r.position)).to.deep.equal([4, 5, 6, 7, 8, 9, 10]);
    expect(recent.read(3, 6, 100)?.map((r) => r.position)).to.deep.equal([4, 5, 6]);
    expect(recent.read(3, 10, 2)?.map((r) => r.position)).to.deep.equal([4, 5]);
    expect(recent.read(10, 10, 5)).to.deep.equal([]);
  });

  it('declines reads it cannot answer whole, so they go to the file', () => {
    const recent = recentRows();
    expect(recent.read(0, 3, 10)).to.equal(null);
    recent.committed(rows(5, 8));
    expect(recent.read(2, 8, 10), 'starts before the cache').to.equal(null);
    expect(recent.read(5, 9, 10), 'the head is past what this process wrote').to.equal(null);
  });

  it('restarts when another process wrote in between, never serving a gap', () => {
    const recent = recentRows();
    recent.committed(rows(1, 3));
    recent.committed(rows(6, 7));
    expect(recent.read(3, 7, 10)).to.equal(null);
    expect(recent.read(5, 7, 10)?.map((r) => r.position)).to.deep.equal([6, 7]);
  });

  it('stays within its capacity', () => {
    const recent = recentRows(8);
    for (let p = 1; p <= 100; p++) recent.committed([row(p)]);
    expect(recent.read(96, 100, 100)?.map((r) => r.position)).to.deep.equal([97, 98, 99, 100]);
    expect(recent.read(90, 100, 100), 'older than the capacity keeps').to.equal(null);
  });
});
