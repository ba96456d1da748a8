import { expect } from 'chai';
import fc from 'fast-check';
import { canonicalJson } from '../../../domain/encoding/canonicalJson.ts';

describe('canonicalJson', () => {
  it('encodes equal values to the same text whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'] })).to.equal(canonicalJson({ a: [true, null, 'x'], b: 1 }));
    expect(canonicalJson({ b: 1, a: 2 })).to.equal('{"a":2,"b":1}');
  });

  it('round-trips through JSON.parse for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
      expect(JSON.parse(canonicalJson(value))).to.deep.equal(JSON.parse(JSON.stringify(value)));
    }), { numRuns: 300 });
  });

  it('drops undefined members instead of writing them', () => {
    expect(canonicalJson({ a: undefined, b: 1 })).to.equal('{"b":1}');
  });

  it('refuses values JSON cannot carry exactly, naming where they are', () => {
    expect(() => canonicalJson({ a: [1, Number.NaN] })).to.throw('$.a[1]');
    expect(() => canonicalJson({ big: 1n })).to.throw('bigint');
  });
});
