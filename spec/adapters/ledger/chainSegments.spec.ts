import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalEventText, chainReport, chainWalker, eventHash, GENESIS_HASH, type CheckedCheckpoint } from '../../../adapters/ledger/hashChain.ts';
import type { StoredEvent } from '../../../adapters/ledger/storedEvent.ts';
import { joinSegments, type SegmentResult } from '../../../adapters/ledger/sqlite/chainSegments.ts';
import { checkSegment, segmentEventText } from '../../../adapters/ledger/sqlite/chainSegmentWorker.mjs';

const chain = (n: number): StoredEvent[] => {
  const out: StoredEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const fields = { position: i, id: `id-${i}`, stream: `s-${i % 3}`, revision: Math.floor(i / 3), type: 'T', version: 1, data: `{"n":${i},"t":"é \\"q\\""}`, metadata: '{}', recordedAt: '2026-01-01T00:00:00.000Z' };
    const hash = eventHash(prevHash, fields);
    out.push({ ...fields, prevHash, hash });
    prevHash = hash;
  }
  return out;
};
const raw = (e: StoredEvent) => [e.position, e.id, e.stream, e.revision, e.type, e.version, e.data, e.metadata, e.recordedAt, e.prevHash, e.hash];

/** The one-thread walk's report and the ranges' joined report on the same rows. */
const bothWays = (rows: readonly StoredEvent[], head: number, cuts: readonly number[], checkpoint?: CheckedCheckpoint) => {
  const walker = chainWalker(checkpoint);
  for (const row of rows) if (!walker.push(row)) break;
  const bounds = [0, ...cuts, head];
  const results: SegmentResult[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [after, through] = [bounds[i]!, bounds[i + 1]!];
    results.push(checkSegment(rows.filter((r) => r.position > after && r.position <= through).map(raw), after, through, checkpoint?.position ?? 0));
  }
  return { sequential: walker.report(head), joined: chainReport(joinSegments(results), head, checkpoint) };
};

describe('verify in parallel ranges (chainSegments.ts)', () => {
  it("hashes the same text as hashChain.ts' canonicalEventText", () => {
    for (const e of chain(5)) expect(segmentEventText(e.position, e.id, e.stream, e.revision, e.type, e.version, e.data, e.metadata, e.recordedAt)).to.equal(canonicalEventText(e));
  });

  it('reports a link broken where two ranges meet, as the one-thread walk does', () => {
    const rows = chain(10);
    rows[4] = { ...rows[4]!, prevHash: 'f'.repeat(64) };
    const { sequential, joined } = bothWays(rows, 10, [4, 8]);
    expect(joined).to.deep.equal(sequential);
    expect(joined).to.include({ ok: false, firstBadPosition: 5 });
  });

  it('names the next stored position when rows are missing at the end of a range', () => {
    const rows = chain(10).filter((r) => r.position !== 4 && r.position !== 5);
    const { sequential, joined } = bothWays(rows, 10, [5]);
    expect(joined).to.deep.equal(sequential);
    expect(joined.problem).to.match(/position 4 is missing: the next stored event has position 6/);
  });

  it('gives the report of the one-thread walk for any split and any single change (property)', () => {
    const rows = chain(24);
    const checkpointHash = rows[17]!.hash;
    fc.assert(fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: 23 }), { maxLength: 5 }).map((c) => [...c].sort((a, b) => a - b)),
      fc.integer({ min: 1, max: 24 }), fc.constantFrom('delete', 'hash', 'prevHash', 'data', 'none', 'cut'), fc.boolean(),
      (cuts, at, change, signed) => {
        let changed = rows.map((r) => ({ ...r }));
        if (change === 'delete') changed = changed.filter((r) => r.position !== at);
        else if (change === 'cut') changed = changed.filter((r) => r.position < at);
        else if (change === 'hash') changed[at - 1] = { ...changed[at - 1]!, hash: '0'.repeat(64) };
        else if (change === 'prevHash') changed[at - 1] = { ...changed[at - 1]!, prevHash: '1'.repeat(64) };
        else if (change === 'data') changed[at - 1] = { ...changed[at - 1]!, data: '{"n":-1}' };
        const head = change === 'cut' ? Math.max(0, at - 1) : 24;
        const usable = cuts.filter((c) => c < head);
        const checkpoint: CheckedCheckpoint | undefined = signed ? { position: 18, hash: checkpointHash, signatureValid: true } : undefined;
        const { sequential, joined } = bothWays(changed, head, usable, checkpoint);
        expect(joined).to.deep.equal(sequential);
      },
    ), { numRuns: 400 });
  });
});
