/** Payloads in memory, for tests and eval. */
import { randomBytes, randomUUID } from 'node:crypto';
import { hmacDigest } from './hmacDigest.ts';
import { checkText, isoInstant } from './payloadStore.ts';
import type { PayloadStore } from './payloadStore.ts';

export interface MemoryPayloadStoreOptions {
  /** @defaultValue 32 random bytes for this store */
  readonly key?: Buffer;
}

export const openMemoryPayloadStore = (options: MemoryPayloadStoreOptions = {}): PayloadStore => {
  const key = options.key ?? randomBytes(32);
  const payloads = new Map<string, { text: string; storedAt: string }>();
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('The payload store is closed.');
  };
  return {
    put: async (text, now) => {
      ensureOpen();
      const storedAt = isoInstant(now, 'now');
      const ref = randomUUID();
      payloads.set(ref, { text: checkText(text), storedAt });
      return { ref, digest: hmacDigest(key, text) };
    },
    get: async (ref) => {
      ensureOpen();
      return payloads.get(ref)?.text;
    },
    purgeOlderThan: async (cutoffIso) => {
      ensureOpen();
      const cutoff = isoInstant(cutoffIso, 'cutoff');
      const purged = [...payloads].filter(([, p]) => p.storedAt < cutoff).sort(([, a], [, b]) => (a.storedAt < b.storedAt ? -1 : 1));
      for (const [ref] of purged) payloads.delete(ref);
      return purged.map(([ref]) => ref);
    },
    close: async () => {
      closed = true;
      payloads.clear();
    },
  };
};
