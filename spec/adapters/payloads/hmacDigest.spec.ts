import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { hmacDigest } from '../../../adapters/payloads/hmacDigest.ts';

describe('hmacDigest', () => {
  it('matches RFC 4231 test case 2 (HMAC-SHA256)', () => {
    expect(hmacDigest(Buffer.from('Jefe'), 'what do ya want for nothing?')).to.equal(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('is the hex HMAC-SHA256 of the UTF-8 text under the key, for any text', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.string({ unit: 'grapheme' }), (key, text) => {
        const buffer = Buffer.from(key);
        expect(hmacDigest(buffer, text)).to.equal(createHmac('sha256', buffer).update(Buffer.from(text, 'utf8')).digest('hex'));
      }),
    );
  });

  it('differs under a different key', () => {
    expect(hmacDigest(Buffer.alloc(32, 1), 'text')).to.not.equal(hmacDigest(Buffer.alloc(32, 2), 'text'));
  });
});
