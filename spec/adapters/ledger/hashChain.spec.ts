import { createHash } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalJson } from '../../../domain/encoding/canonicalJson.ts';
import { canonicalEventText, chainWalker, eventHash, GENESIS_HASH } from '../../../adapters/ledger/hashChain.ts';
import type { HashedFields } from '../../../adapters/ledger/hashChain.ts';
import type { StoredEvent } from '../../../adapters/ledger/storedEvent.ts';

const json = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const name = fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' });

const fieldsArbitrary = fc.record({
  id: name,
  position: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  stream: name,
  revision: fc.nat(),
  type: name,
  version: fc.integer({ min: 1, max: 1000 }),
  data: json,
  metadata: fc.dictionary(fc.string(), json),
  recordedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
});

const chain = (count: number): StoredEvent[] => {
  const events: StoredEvent[] = [];
  let prevHash = GENESIS_HASH;
  for (let position = 1; position <= count; position += 1) {
    const fields: HashedFields = {
      id: `id-${position}`,
      position,
      stream: 'session-a',
      revision: position - 1,
      type: 'Tested',
      version: 1,
      data: canonicalJson({ position }),
      metadata: '{}',
      recordedAt: '2026-01-01T00:00:00.000Z',
    };
    const hash = eventHash(prevHash, fields);
    events.push({ ...fields, prevHash, hash });
    prevHash = hash;
  }
  return events;
};

describe('hash chain', () => {
  it('hashes exactly canonicalJson of the event fields, whatever the data', () => {
    fc.assert(
      fc.property(fieldsArbitrary, (fields) => {
        const stored = { ...fields, data: canonicalJson(fields.data), metadata: canonicalJson(fields.metadata) };
        expect(canonicalEventText(stored)).to.equal(canonicalJson(fields));
        const expected = createHash('sha256').update(GENESIS_HASH + canonicalJson(fields)).digest('hex');
        expect(eventHash(GENESIS_HASH, stored)).to.equal(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('links each event to the hash of the one before, starting from 64 zeros', () => {
    const events = chain(3);
    expect(events[0]!.prevHash).to.equal('0'.repeat(64));
    expect(events[1]!.prevHash).to.equal(events[0]!.hash);
    const walker = chainWalker();
    for (const event of events) walker.push(event);
    expect(walker.report(3)).to.deep.equal({ ok: true, checked: 3, head: 3 });
  });

  it('names a position the head promises but the walk never reached', () => {
    const walker = chainWalker();
    for (const event of chain(3)) walker.push(event);
    expect(walker.report(4)).to.include({ ok: false, firstBadPosition: 4 });
  });

  it('stops at the first break and reports it, not a later one', () => {
    const events = chain(6);
    events[1] = { ...events[1]!, data: '{"position":9}' };
    events[4] = { ...events[4]!, data: '{"position":9}' };
    const walker = chainWalker();
    const pushed = events.map((event) => walker.push(event));
    expect(pushed).to.deep.equal([true, false, false, false, false, false]);
    expect(walker.report(6)).to.include({ ok: false, firstBadPosition: 2, checked: 1 });
  });

  it('does not trust a checkpoint whose signature failed, even when the chain is whole', () => {
    const events = chain(2);
    const walker = chainWalker({ position: 2, hash: events[1]!.hash, signatureValid: false, signatureProblem: 'it was signed by a different key' });
    for (const event of events) walker.push(event);
    const report = walker.report(2);
    expect(report).to.include({ ok: false });
    expect(report.problem).to.match(/different key/);
  });
});
