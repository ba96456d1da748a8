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
import { loadCheckpointHmacKey } from '../../adapters/projections/checkpointKey.ts';
import { fileCheckpointStore } from '../../adapters/projections/fileCheckpointStore.ts';
import { encodeEvent } from '../../domain/events/codec.ts';
import { memoryCheckpointStore, type CheckpointStore } from '../../projections/checkpointStore.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { Gate } from '../gate/gate.ts';
import { RuntimeRegistry } from '../gate/runtimeRegistry.ts';
import { openRegistrations } from './openRegistrations.ts';
import { configSettings, describeChange, recordConfigLoaded, settingChanges } from './configRecord.ts';
import { privateDataDirRules, securePrivateDataDir } from './privateDataDir.ts';
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
  /** Files earlier calls wrote, read before the disk (eval: see GateDeps.writtenFiles). */
  readonly writtenFiles?: ReadonlyMap<string, string>;
  /** The daemon sets this: the configuration is recorded as ConfigLoaded (stream `config`) before the gate opens. */
  readonly recordConfig?: { readonly path: string | null; readonly version: string };
  /** Told about modes tightened, checkpoints rejected, settings changed. @defaultValue a line on stderr */
  readonly log?: (line: string) => void;
}

/** Projection checkpoints under data.dir, each checked against the daemon's key; a rejected one is recorded. */
const projectionCheckpoints = async (dataDir: string, ledger: Ledger, now: () => string, log: (line: string) => void): Promise<CheckpointStore> =>
  fileCheckpointStore(join(dataDir, 'projections'), {
    key: await loadCheckpointHmacKey(join(dataDir, 'keys', 'checkpoint-hmac.key')),
    onRejected: async ({ name, problem }) => {
      log(`projection checkpoint ${name} rejected: ${problem}; rebuilding it from the ledger`);
      await ledger.append('ops-daemon', [encodeEvent({ type: 'CheckpointRejected', data: { projection: name, problem, at: now() } })]);
    },
  });

export const openRuntime = async (config: TollgateConfig, options: RuntimeOptions = {}): Promise<Runtime> => {
  const dataDir = resolve(config.data.dir);
  const inMemory = config.ledger.url === 'memory:';
  const log = options.log ?? ((line: string) => process.stderr.write(`tollgate: ${line}\n`));
  const clock = options.clock ?? Date.now;
  const now = () => new Date(clock()).toISOString();
  if (!inMemory) securePrivateDataDir(dataDir, { ...privateDataDirRules(config, dataDir), tightened: log });
  const analyzer = await sharedBashAnalyzer();
  const ledger = await openLedger(config.ledger.url, inMemory ? {} : { sqlite: { keyPath: join(dataDir, 'keys', 'checkpoint.ed25519'), onTightened: log } });
  let payloads: PayloadStore | null = null;
  try {
    const hmacKey = inMemory ? randomBytes(32) : await loadPayloadKey(join(dataDir, 'keys', 'payload-hmac.key'));
    payloads = inMemory
      ? openMemoryPayloadStore({ key: hmacKey })
      : await openSqlitePayloadStore(join(dataDir, 'payloads.db'), { keyPath: join(dataDir, 'keys', 'payload-hmac.key'), onTightened: log });
    if (options.recordConfig) {
      const previous = await recordConfigLoaded(ledger, { config, ...options.recordConfig, now: now() });
      const changes = previous ? settingChanges(previous.data.settings, configSettings(config)) : [];
      if (changes.length > 0) log(`configuration changed since the start at ${previous!.data.at}: ${changes.map(describeChange).join('; ')}`);
    }
    const gate = await Gate.open({
      config, ledger, payloads,
      digest: (text) => hmacDigest(hmacKey, text),
      analyzeShell: (source, environment) => analyzer.analyze(source, environment),
      checkpoints: inMemory ? memoryCheckpointStore() : await projectionCheckpoints(dataDir, ledger, now, log),
      clock,
      newId: options.newId ?? randomUUID,
      expiryTimers: options.expiryTimers ?? true,
      ...(options.writtenFiles === undefined ? {} : { writtenFiles: options.writtenFiles }),
      // Registrations survive a daemon restart: a running Hermes keeps its key and must keep its sessions.
      runtimes: inMemory ? RuntimeRegistry.open(null) : await openRegistrations(ledger, join(dataDir, 'keys', 'runtime-registrations.json'), now, log),
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
