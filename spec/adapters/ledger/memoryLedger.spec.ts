import { openMemoryLedger } from '../../../adapters/ledger/memory/memoryLedger.ts';
import { createMemoryLedgerStore } from '../../../adapters/ledger/memory/memoryLedgerStore.ts';
import { ledgerContract } from './ledgerContract.ts';
import { memoryTamperer } from './memoryTamperer.ts';

const quiet = () => undefined;

ledgerContract('memory', async () => {
  const store = createMemoryLedgerStore();
  const open = () => openMemoryLedger({ store, pageSize: 32, onCheckpointProblem: quiet });
  return { ledger: open(), reopen: async () => open(), tamper: memoryTamperer(store) };
});
