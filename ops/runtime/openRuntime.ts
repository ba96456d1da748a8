/**
 * Opens everything a gate needs from the configuration: the ledger named by `ledger.url`, the payload store
 * and keys under `data.dir`, projection checkpoints, and the bash grammar. The daemon and eval both use it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { openLedger } from '../../adapters/ledger/openLedger.ts';
import type { Ledger } from '../../adapters/ledger/port.ts';
import { hmacDigest } from '../../adapters/payloads/hmacDigest.ts';
import { openMemoryPayloadStore } from '../../adapters/payloads/memoryPayloadStore.ts';
import { loadPayloadKey } from '../../adapters/payloads/payloadKey.ts';
import type { PayloadStore } from '../../adapters/payloads/payloadStore.ts';
import { openSqlitePayloadStore } from '../../adapters/payloads/sqlitePayloadStore.ts';
import { fileCheckpointStore } from '../../adapters/projections/fileCheckpointStore.ts';
import { memoryCheckpointStore } from '../../projections/checkpointStore.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { Gate } from '../gate/gate.ts';
import { RuntimeRegistry } from '../gate/runtimeRegistry.ts';
import { sharedBashAnalyzer } from './sharedAnalyzer.ts';

export interface Runtime {
  readonly gate: Gate;
  readonly ledger: Ledger;
  readonly payloads: PayloadStore;
  readonly config: TollgateConfig;
  readonly dataDir: string;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  readonly clock?: () => number;
  readonly expiryTimers?: boolean;
  readonly newId?: () => string;
}

export const openRuntime = async (config: TollgateConfig, options: RuntimeOptions = {}): Promise<Runtime> => {
  const dataDir = resolve(config.data.dir);
  const inMemory = config.ledger.url === 'memory:';
  const analyzer = await sharedBashAnalyzer();
  const ledger = await openLedger(config.ledger.url, inMemory ? {} : { sqlite: { keyPath: join(dataDir, 'keys', 'checkpoint.ed25519') } });
  let payloads: PayloadStore | null = null;
  try {
    const hmacKey = inMemory ? randomBytes(32) : await loadPayloadKey(join(dataDir, 'keys', 'payload-hmac.key'));
    payloads = inMemory
      ? openMemoryPayloadStore({ key: hmacKey })
      : await openSqlitePayloadStore(join(dataDir, 'payloads.db'), { keyPath: join(dataDir, 'keys', 'payload-hmac.key') });
    const gate = await Gate.open({
      config, ledger, payloads,
      digest: (text) => hmacDigest(hmacKey, text),
      analyzeShell: (source) => analyzer.analyze(source),
      checkpoints: inMemory ? memoryCheckpointStore() : fileCheckpointStore(join(dataDir, 'projections')),
      clock: options.clock ?? Date.now,
      newId: options.newId ?? randomUUID,
      expiryTimers: options.expiryTimers ?? true,
      // Registrations survive a daemon restart: a running Hermes keeps its key and must keep its sessions.
      runtimes: RuntimeRegistry.open(inMemory ? null : join(dataDir, 'keys', 'runtime-registrations.json')),
    });
    const store = payloads;
    return {
      gate, ledger, payloads: store, config, dataDir,
      close: async () => {
        await gate.close();
        await store.close();
        await ledger.close();
      },
    };
  } catch (error) {
    await payloads?.close().catch(() => undefined);
    await ledger.close().catch(() => undefined);
    throw error;
  }
};
