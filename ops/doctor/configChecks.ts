/**
 * Doctor's view of the configuration the daemon runs with, read from the ledger (ConfigLoaded at every start):
 * the guard-relevant settings (warn when yolo, approvals off or out-of-band answers are on), what changed between
 * starts and when, whether the file on disk still matches, and checkpoints the daemon rejected since it started.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openLedger, sqlitePath } from '../../adapters/ledger/openLedger.ts';
import type { Ledger } from '../../adapters/ledger/port.ts';
import { decodeEvent } from '../../domain/events/codec.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import {
  configDigest, configHistory, configSettings, describeChange, settingChanges, type ConfigSettings, type LoadedConfig,
} from '../runtime/configRecord.ts';
import { registrationChecks } from './registrationChecks.ts';
import { ok, warn, type Check } from './checks.ts';

export const describeSettings = (s: ConfigSettings): string => [
  `approvals.mode ${s.approvalsMode}`, `yolo ${s.yolo}`, ...(s.outOfBand === null ? [] : [`out_of_band ${s.outOfBand}`]),
  `timeout ${s.timeoutSeconds} s`, `allowlist ${s.allowlistLength} entries`,
  ...Object.entries(s.guardModes).map(([guard, mode]) => `${guard} ${mode}`),
  `ledger ${s.ledgerKind}`, `socket ${s.socket}`, ...(s.humanSocket === null ? [] : [`human socket ${s.humanSocket}`]),
  ...(s.protection.rulesFiles.length === 0 ? [] : [`protected rules files ${s.protection.rulesFiles.join(' ')}`]),
].join(', ');

/** The settings that switch part of the guard off, each with what to do. */
const loosened = (s: ConfigSettings): { what: string; fix: string }[] => [
  ...(s.yolo ? [{ what: 'approvals.yolo is on: every question is answered allow without a human', fix: 'set approvals.yolo: false' }] : []),
  ...(s.approvalsMode === 'off' ? [{ what: 'approvals.mode is off: nothing is asked', fix: 'set approvals.mode: manual' }] : []),
  ...(s.outOfBand === true ? [{ what: 'approvals.out_of_band is on: answers from outside the runtime\'s prompt are taken, and in single-user mode the agent can give them', fix: 'set approvals.out_of_band: false (or run the separate-principal setup)' }] : []),
];

export interface ConfigCheckInput {
  readonly config: TollgateConfig;
  /** The file doctor read, or null for the defaults. */
  readonly configPath: string | null;
}

const openRecorded = async (config: TollgateConfig): Promise<Ledger | string> => {
  if (config.ledger.url === 'memory:') return 'the memory ledger keeps nothing between processes';
  if (config.ledger.url.startsWith('sqlite:')) {
    let file: string;
    try { file = sqlitePath(config.ledger.url, process.cwd()); } catch (error) { return (error as Error).message; }
    // Opening a missing file would create a ledger; doctor only looks.
    if (!existsSync(file)) return `${file} does not exist yet (no daemon has started on it)`;
  }
  // The daemon's key path (openRuntime), so a ledger outside data.dir does not get a second key beside it.
  const keyPath = join(resolve(config.data.dir), 'keys', 'checkpoint.ed25519');
  try { return await openLedger(config.ledger.url, { sqlite: { keyPath } }); } catch (error) { return `cannot open the ledger: ${(error as Error).message}`; }
};

const changesAt = (history: readonly LoadedConfig[]): { at: LoadedConfig; changes: ReturnType<typeof settingChanges> } | null => {
  for (let i = history.length - 1; i > 0; i--) {
    const before = history[i - 1]!;
    const after = history[i]!;
    if (before.data.digest === after.data.digest) continue;
    return { at: after, changes: settingChanges(before.data.settings, after.data.settings) };
  }
  return null;
};

export const configChecks = async ({ config, configPath }: ConfigCheckInput): Promise<Check[]> => {
  const ledger = await openRecorded(config);
  if (typeof ledger === 'string') {
    const mine = configSettings(config);
    const risky = loosened(mine);
    const detail = `not recorded (${ledger}); this configuration: ${describeSettings(mine)}`;
    return [risky.length > 0 ? warn('config.settings', 'configuration', `${detail}. ${risky.map((r) => r.what).join('; ')}`, risky.map((r) => r.fix).join('; ')) : ok('config.settings', 'configuration', detail)];
  }
  try {
    const history = await configHistory(ledger);
    const rejected = (await ledger.readAll({ filter: { types: ['CheckpointRejected'] } })).map((r) => ({ position: r.position, event: decodeEvent(r) }));
    return [...settingsChecks(history, config, configPath), ...rejectionChecks(history.at(-1) ?? null, rejected),
      ...await registrationChecks(ledger, config, history.at(-1)?.position ?? 0)];
  } catch (error) {
    return [warn('config.settings', 'configuration', `cannot read the configuration history: ${(error as Error).message}`, 'run doctor as the daemon\'s user')];
  } finally {
    await ledger.close().catch(() => undefined);
  }
};

const settingsChecks = (history: readonly LoadedConfig[], config: TollgateConfig, configPath: string | null): Check[] => {
  const latest = history.at(-1);
  if (latest === undefined) {
    return [warn('config.settings', 'configuration the daemon runs with', 'no ConfigLoaded in the ledger: the daemon was started by an older tollgate (or never)', 'restart the daemon (tollgate serve) so its configuration is recorded')];
  }
  const s = latest.data.settings;
  const source = latest.data.path ?? 'built-in defaults';
  const risky = loosened(s);
  const summary = `started ${latest.data.at} with ${source}: ${describeSettings(s)}`;
  const checks: Check[] = [risky.length > 0
    ? warn('config.settings', 'configuration the daemon runs with', `${summary}. ${risky.map((r) => r.what).join('; ')}`, risky.map((r) => r.fix).join('; '))
    : ok('config.settings', 'configuration the daemon runs with', summary)];

  const change = changesAt(history);
  const starts = `${history.length} start${history.length === 1 ? '' : 's'} recorded`;
  if (change === null) checks.push(ok('config.changes', 'configuration changes', `unchanged since ${history[0]!.data.at} (${starts})`));
  else if (change.changes.length === 0) checks.push(ok('config.changes', 'configuration changes', `changed at ${change.at.data.at}, no guard-relevant setting (${starts})`));
  else {
    const said = change.changes.map((c) => `${describeChange(c)} at ${change.at.data.at}`).join('; ');
    const looser = change.changes.filter((c) => c.looser);
    checks.push(looser.length > 0
      ? warn('config.changes', 'configuration changes', `${said} (${starts}): the guard lets more through since then`, `if you did not make this change, someone with write access to ${change.at.data.path ?? 'the configuration'} did: undo it and restart`)
      : ok('config.changes', 'configuration changes', `${said} (${starts})`));
  }

  // The file on disk now: an edit takes effect at the next start, so an edit nobody made should be seen before then.
  const samePath = (configPath === null ? null : resolve(configPath)) === latest.data.path;
  if (samePath && configDigest(config) !== latest.data.digest) {
    const pending = settingChanges(s, configSettings(config));
    const what = pending.length > 0 ? pending.map(describeChange).join('; ') : 'no guard-relevant setting';
    const fileTitle = 'configuration file';
    checks.push(pending.some((c) => c.looser)
      ? warn('config.file', fileTitle, `${latest.data.path ?? 'the configuration'} differs from what the daemon started with (${what}); it takes effect at the next start`, 'if you did not edit it, someone did: undo the edit before restarting')
      : ok('config.file', fileTitle, `${latest.data.path ?? 'the configuration'} differs from what the daemon started with (${what}); it takes effect at the next start`));
  }
  return checks;
};

const rejectionChecks = (latest: LoadedConfig | null, rejected: { position: number; event: ReturnType<typeof decodeEvent> }[]): Check[] => {
  const since = latest === null ? rejected : rejected.filter((r) => r.position > latest.position);
  const title = 'projection checkpoints';
  if (since.length === 0) {
    return [ok('projections.checkpoints', title, `none rejected since the daemon started${rejected.length > 0 ? ` (${rejected.length} before)` : ''}`)];
  }
  const names = since.map((r) => (r.event.type === 'CheckpointRejected' ? `${r.event.data.projection} at ${r.event.data.at}: ${r.event.data.problem}` : r.event.type));
  return [warn('projections.checkpoints', title, `${since.length} rejected at the daemon's start and rebuilt from the ledger (${names.join('; ')}): someone edited tollgate's data folder`, 'find who wrote there (the agent\'s user can, in the single-user setup); the separate-principal setup prevents it')];
};
