/** Tamper hooks for the memory ledger: they edit the store a closed ledger leaves behind. */
import { eventHash, GENESIS_HASH } from '../../../adapters/ledger/hashChain.ts';
import type { MemoryLedgerStore } from '../../../adapters/ledger/memory/memoryLedgerStore.ts';
import { flipOneBit, flipSignature, forgedData } from './tamperer.ts';
import type { Tamperer } from './tamperer.ts';

export const memoryTamperer = (store: MemoryLedgerStore): Tamperer => {
  const indexOf = (position: number) => {
    const index = store.events.findIndex((event) => event.position === position);
    if (index < 0) throw new Error(`no event at position ${position}`);
    return index;
  };
  return {
    changeField: async (position, field) => {
      const index = indexOf(position);
      const event = store.events[index]!;
      store.events[index] = { ...event, [field]: flipOneBit(event[field]) };
    },
    deleteEvent: async (position) => {
      store.events.splice(indexOf(position), 1);
    },
    deleteTail: async (count) => {
      store.events.splice(-count, count);
    },
    rewriteFrom: async (position) => {
      let prevHash = store.events[indexOf(position) - 1]?.hash ?? GENESIS_HASH;
      for (let i = indexOf(position); i < store.events.length; i += 1) {
        const event = store.events[i]!;
        const data = event.position === position ? forgedData(event.data) : event.data;
        const fields = { ...event, data };
        store.events[i] = { ...fields, prevHash, hash: eventHash(prevHash, fields) };
        prevHash = store.events[i]!.hash;
      }
    },
    breakCheckpointSignature: async () => {
      const checkpoint = JSON.parse(store.checkpoint.text!) as { signature: string };
      store.checkpoint.text = JSON.stringify({ ...checkpoint, signature: flipSignature(checkpoint.signature) });
    },
  };
};
