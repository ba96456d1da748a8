import { expect } from 'chai';
import { z } from 'zod';
import { catalogue, event } from '../../../domain/events/catalogue.ts';
import { decodeEvent, decodeWith, encodeEvent, EventDecodeError } from '../../../domain/events/codec.ts';
import { eventType } from '../../../domain/events/eventType.ts';

describe('event codec', () => {
  it('gives every event type in the catalogue a unique name, a version and a schema', () => {
    const names = catalogue.map((t) => t.type);
    expect(new Set(names).size).to.equal(names.length);
    for (const t of catalogue) {
      expect(t.version, t.type).to.be.at.least(1);
      expect(t.upcasters.map((u) => u.from).sort(), t.type).to.deep.equal(Array.from({ length: t.version - 1 }, (_, i) => i + 1));
    }
  });

  it('round-trips an event through encode and decode', () => {
    const ended = event('SessionEnded', { sessionId: 's1', at: '2026-03-01T10:00:00.000Z' });
    const encoded = encodeEvent(ended);
    expect(encoded).to.include({ type: 'SessionEnded', version: 1 });
    expect(decodeEvent(encoded)).to.deep.equal(ended);
  });

  it('refuses to encode data that breaks its schema', () => {
    expect(() => encodeEvent({ type: 'SessionEnded', data: { sessionId: 5 } } as never)).to.throw(EventDecodeError);
  });

  it('names the position of a stored event that does not decode', () => {
    expect(() => decodeEvent({ type: 'SessionEnded', version: 1, data: {}, position: 42 })).to.throw(/position 42/);
    expect(() => decodeEvent({ type: 'NoSuchEvent', version: 1, data: {}, position: 7 })).to.throw(/unknown event type/);
  });

  it('refuses a version newer than this build knows instead of guessing', () => {
    expect(() => decodeEvent({ type: 'SessionEnded', version: 9, data: {}, position: 3 })).to.throw(/newer/);
  });

  it('upcasts old versions step by step on read, leaving the stored data as it was', () => {
    const renamed = eventType('Renamed', z.object({ fullName: z.string(), tags: z.array(z.string()) }), {
      version: 3,
      upcasters: [
        { from: 1, up: (d) => ({ fullName: (d as { name: string }).name }) },
        { from: 2, up: (d) => ({ ...(d as object), tags: [] }) },
      ],
    });
    const types = new Map([[renamed.type, renamed]]);
    const stored = { name: 'x' };
    expect(decodeWith(types, { type: 'Renamed', version: 1, data: stored, position: 4 })).to.deep.equal({ type: 'Renamed', data: { fullName: 'x', tags: [] } });
    expect(decodeWith(types, { type: 'Renamed', version: 2, data: { fullName: 'y' } })).to.deep.equal({ type: 'Renamed', data: { fullName: 'y', tags: [] } });
    expect(stored).to.deep.equal({ name: 'x' });
  });

  it('names a missing upcaster instead of reading old data as new', () => {
    const gap = eventType('Gap', z.object({ a: z.string() }), { version: 2 });
    expect(() => decodeWith(new Map([[gap.type, gap]]), { type: 'Gap', version: 1, data: { a: 'x' }, position: 9 })).to.throw(/position 9.*no upcaster from version 1/);
  });
});
