import { randomBytes } from 'node:crypto';
import { openMemoryPayloadStore } from '../../../adapters/payloads/memoryPayloadStore.ts';
import { payloadStoreContract } from './payloadStoreContract.ts';

payloadStoreContract('memory', async () => {
  const key = randomBytes(32);
  return { store: openMemoryPayloadStore({ key }), key: async () => key };
});
