/**
 * `ConfigLoaded`: the configuration a daemon starts with, appended to stream `config` at every start. Always, not
 * only when it changed: a start is itself a fact worth keeping (a daemon killed and restarted shows), and one small
 * event per start does not grow the ledger in any way that matters. `doctor` compares the latest with the ones
 * before it, so a `yolo` turned on between two starts is named with the time it took effect.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { Ledger, RecordedEvent } from '../../adapters/ledger/port.ts';
import { canonicalJson } from '../../domain/encoding/canonicalJson.ts';
import { event, type EventData } from '../../domain/events/catalogue.ts';
import { decodeEvent, encodeEvent } from '../../domain/events/codec.ts';
import type { TollgateConfig } from '../config/configSchema.ts';

export const configStream = 'config';

export type ConfigLoadedData = EventData<'ConfigLoaded'>;
export type ConfigSettings = ConfigLoadedData['settings'];

export const configDigest = (config: TollgateConfig): string => createHash('sha256').update(canonicalJson(config)).digest('hex');

/** The settings that decide how much the guard lets through. Paths are made absolute, as the daemon uses them. */
export const configSettings = (config: TollgateConfig): ConfigSettings => {
  const humanSocket = config.server.human_socket;
  return {
    approvalsMode: config.approvals.mode,
    yolo: config.approvals.yolo,
    outOfBand: config.approvals.out_of_band,
    timeoutSeconds: config.approvals.timeout,
    allowlistLength: config.approvals.allowlist.length,
    guardModes: { fence: config.fence.mode, leak: config.leak.mode, provenance: config.provenance.mode },
    ledgerKind: /^([a-z][a-z0-9+.-]*):/i.exec(config.ledger.url)?.[1]?.toLowerCase() ?? 'unknown',
    socket: resolve(config.server.socket),
    humanSocket: humanSocket === null ? null : resolve(humanSocket),
    protection: {
      rulesFiles: [...config.protection.rules_files],
      paths: [...config.protection.paths],
      hermesHomes: [...config.protection.hermes_homes],
    },
  };
};

export interface LoadedConfig {
  readonly position: number;
  readonly recordedAt: string;
  readonly data: ConfigLoadedData;
}

const loaded = (record: RecordedEvent): LoadedConfig | null => {
  const decoded = decodeEvent(record);
  return decoded.type === 'ConfigLoaded' ? { position: record.position, recordedAt: record.recordedAt, data: decoded.data } : null;
};

/** Every ConfigLoaded in the ledger, oldest first. */
export const configHistory = async (ledger: Ledger): Promise<LoadedConfig[]> =>
  (await ledger.readStream(configStream)).map(loaded).filter((l): l is LoadedConfig => l !== null);

export interface ConfigRecordInput {
  readonly config: TollgateConfig;
  /** The configuration file, or null for the built-in defaults. */
  readonly path: string | null;
  readonly version: string;
  readonly now: string;
}

/** Appends this start's ConfigLoaded; returns the previous start's, if any, so the caller can say what changed. */
export const recordConfigLoaded = async (ledger: Ledger, input: ConfigRecordInput): Promise<LoadedConfig | null> => {
  const previous = (await configHistory(ledger)).at(-1) ?? null;
  const data: ConfigLoadedData = {
    digest: configDigest(input.config),
    path: input.path === null ? null : resolve(input.path),
    tollgateVersion: input.version,
    settings: configSettings(input.config),
    at: input.now,
  };
  await ledger.append(configStream, [encodeEvent(event('ConfigLoaded', data))]);
  return previous;
};

/** How one guard-relevant setting is compared between two starts: what counts as letting more through. */
interface SettingRule {
  readonly name: string;
  readonly read: (s: ConfigSettings) => unknown;
  readonly looser: (from: unknown, to: unknown) => boolean;
}

const modeRank: Record<string, number> = { manual: 0, smart: 1, off: 2 };
const observing = (mode: unknown) => mode === 'observe';
// Lists are compared as text (equal lists read equal); one loses cover when an entry it had is gone.
const listed = (items: readonly string[] | undefined) => (items ?? []).join(', ');
const dropped = (a: unknown, b: unknown) => String(a).split(', ').some((item) => item !== '' && !String(b).split(', ').includes(item));

export const settingRules: readonly SettingRule[] = [
  { name: 'approvals.mode', read: (s) => s.approvalsMode, looser: (a, b) => (modeRank[String(b)] ?? 2) > (modeRank[String(a)] ?? 2) },
  { name: 'approvals.yolo', read: (s) => s.yolo, looser: (_a, b) => b === true },
  // null: recorded by a tollgate without the key, which is the default (false) for comparing.
  { name: 'approvals.out_of_band', read: (s) => s.outOfBand ?? false, looser: (_a, b) => b === true },
  { name: 'approvals.timeout', read: (s) => s.timeoutSeconds, looser: () => false },
  { name: 'approvals.allowlist (entries)', read: (s) => s.allowlistLength, looser: (a, b) => Number(b) > Number(a) },
  { name: 'fence.mode', read: (s) => s.guardModes['fence'], looser: (a, b) => !observing(a) && observing(b) },
  { name: 'leak.mode', read: (s) => s.guardModes['leak'], looser: (a, b) => !observing(a) && observing(b) },
  { name: 'provenance.mode', read: (s) => s.guardModes['provenance'], looser: (a, b) => !observing(a) && observing(b) },
  { name: 'ledger kind', read: (s) => s.ledgerKind, looser: (_a, b) => b === 'memory' },
  { name: 'server.socket', read: (s) => s.socket, looser: () => false },
  { name: 'server.human_socket', read: (s) => s.humanSocket, looser: (a, b) => a !== null && b === null },
  { name: 'protection.rules_files', read: (s) => listed(s.protection?.rulesFiles), looser: dropped },
  { name: 'protection.paths', read: (s) => listed(s.protection?.paths), looser: dropped },
  { name: 'protection.hermes_homes', read: (s) => listed(s.protection?.hermesHomes), looser: dropped },
];

export interface SettingChange {
  readonly name: string;
  readonly from: unknown;
  readonly to: unknown;
  readonly looser: boolean;
}

export const settingChanges = (from: ConfigSettings, to: ConfigSettings): SettingChange[] =>
  settingRules.flatMap((rule) => {
    const a = rule.read(from);
    const b = rule.read(to);
    return a === b ? [] : [{ name: rule.name, from: a ?? null, to: b ?? null, looser: rule.looser(a ?? null, b ?? null) }];
  });

const shown = (value: unknown) => (value === '' ? '(none)' : String(value));

export const describeChange = (change: SettingChange): string => `${change.name} changed ${shown(change.from)} → ${shown(change.to)}`;
