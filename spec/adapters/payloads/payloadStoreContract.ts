/** The suite every payload store passes (memory, sqlite). */
import { expect } from 'chai';
import { hmacDigest } from '../../../adapters/payloads/hmacDigest.ts';
import { PayloadInputError } from '../../../adapters/payloads/payloadStore.ts';
import type { PayloadStore } from '../../../adapters/payloads/payloadStore.ts';

export interface OpenedPayloadStore {
  readonly store: PayloadStore;
  /** The HMAC key the store digests with. */
  readonly key: () => Promise<Buffer>;
  /** Opens a new store over the same storage (after closing `store`), when the engine persists. */
  readonly reopen?: () => Promise<PayloadStore>;
}

const rejectionOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

export const payloadStoreContract = (name: string, open: () => Promise<OpenedPayloadStore>): void => {
  describe(`${name} payload store (contract)`, () => {
    let opened: OpenedPayloadStore;
    const stores: PayloadStore[] = [];
    beforeEach(async () => {
      opened = await open();
      stores.push(opened.store);
    });
    afterEach(async () => {
      await Promise.all(stores.splice(0).map((store) => store.close()));
    });

    it('gives back exactly the text it was given, by a random ref', async () => {
      const text = 'Please send the report to anna@example.com — ünïcödé 👋\n\tand keep it short.';
      const { ref } = await opened.store.put(text, '2026-01-01T00:00:00.000Z');
      expect(await opened.store.get(ref)).to.equal(text);
      const again = await opened.store.put(text, '2026-01-01T00:00:00.000Z');
      expect(again.ref).to.not.equal(ref);
      expect(await opened.store.get('no-such-ref')).to.equal(undefined);
    });

    it('digests with HMAC-SHA256 under its key: stable for equal text, different for different text', async () => {
      const key = await opened.key();
      const first = await opened.store.put('same words', '2026-01-01T00:00:00.000Z');
      const second = await opened.store.put('same words', '2026-01-02T00:00:00.000Z');
      const other = await opened.store.put('other words', '2026-01-02T00:00:00.000Z');
      expect(first.digest).to.equal(hmacDigest(key, 'same words')).and.match(/^[0-9a-f]{64}$/);
      expect(second.digest).to.equal(first.digest);
      expect(other.digest).to.not.equal(first.digest);
    });

    it('purges only payloads stored before the cutoff, returns their refs, and is idempotent', async () => {
      const old1 = await opened.store.put('old one', '2026-01-01T00:00:00.000Z');
      const old2 = await opened.store.put('old two', '2026-01-02T10:00:00+02:00');
      const atCutoff = await opened.store.put('at cutoff', '2026-01-03T00:00:00.000Z');
      const fresh = await opened.store.put('fresh', '2026-01-05T00:00:00.000Z');
      const purged = await opened.store.purgeOlderThan('2026-01-03T00:00:00.000Z');
      expect(purged).to.deep.equal([old1.ref, old2.ref]);
      expect(await opened.store.get(old1.ref)).to.equal(undefined);
      expect(await opened.store.get(old2.ref)).to.equal(undefined);
      expect(await opened.store.get(atCutoff.ref)).to.equal('at cutoff');
      expect(await opened.store.get(fresh.ref)).to.equal('fresh');
      expect(await opened.store.purgeOlderThan('2026-01-03T00:00:00.000Z')).to.deep.equal([]);
    });

    it('refuses a time that is not ISO-8601 and a payload that is not text', async () => {
      expect(await rejectionOf(opened.store.put('x', 'yesterday'))).to.be.instanceOf(PayloadInputError);
      expect(await rejectionOf(opened.store.purgeOlderThan('not a time'))).to.be.instanceOf(PayloadInputError);
      expect(await rejectionOf(opened.store.put(42 as unknown as string, '2026-01-01T00:00:00.000Z'))).to.be.instanceOf(PayloadInputError);
    });

    it('keeps payloads and their digests across a reopen', async function () {
      if (!opened.reopen) return this.skip();
      const { ref, digest } = await opened.store.put('kept', '2026-01-01T00:00:00.000Z');
      await opened.store.close();
      const reopened = await opened.reopen();
      stores.push(reopened);
      expect(await reopened.get(ref)).to.equal('kept');
      expect((await reopened.put('kept', '2026-01-02T00:00:00.000Z')).digest).to.equal(digest);
    });
  });
};
