/**
 * Hermes' own files, read and edited the way Hermes reads them (hermes-agent 0.19):
 * - `$HERMES_HOME/config.yaml` (hermes_cli/config.py `get_config_path`), loaded by PyYAML, so YAML 1.1: `off`, `no`
 *   and `yes` are booleans. Edits go through the `yaml` Document API, which keeps comments, order and other keys.
 * - `plugins.enabled` / `plugins.disabled` (hermes_cli/plugins.py `_get_enabled_plugins`, `_get_disabled_plugins`):
 *   a standalone plugin loads only when listed in `enabled`, and never when listed in `disabled`.
 * - `hooks.<event>: [{matcher, command, timeout}]` (agent/shell_hooks.py `_parse_hooks_block`), consent in
 *   `$HERMES_HOME/shell-hooks-allowlist.json` (`{"approvals": [{event, command, approved_at,
 *   script_mtime_at_approval}]}`, written with `json.dumps(indent=2, sort_keys=True)`).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { scriptOfCommand } from './shellWords.ts';

export const pluginName = 'tollgate';
export const allowlistFile = 'shell-hooks-allowlist.json';

/** `--hermes-home`, else `$HERMES_HOME`, else `~/.hermes` (hermes_constants.py `get_hermes_home`). */
export const hermesHomeOf = (flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string =>
  resolve(flag ?? (env['HERMES_HOME']?.trim() ? env['HERMES_HOME'].trim() : join(homedir(), '.hermes')));

export const configPathOf = (home: string): string => join(home, 'config.yaml');
export const pluginDirOf = (home: string): string => join(home, 'plugins', pluginName);

export const parseHermesYaml = (text: string): Document => parseDocument(text, { version: '1.1', uniqueKeys: false, keepSourceTokens: false });

/**
 * The document back as text, changing as little as the `yaml` printer allows: no line folding, `[a, b]` flow lists,
 * and block lists indented under their key only when the file already does so (PyYAML's default does not).
 */
export const printHermesYaml = (doc: Document, source: string): string =>
  doc.toString({ lineWidth: 0, flowCollectionPadding: false, indentSeq: !/^( *)[^\s#-][^\n]*:[ \t]*(#[^\n]*)?\n\1- /m.test(source) });

export class HermesConfigError extends Error {}

export interface HermesConfigFile {
  readonly path: string;
  readonly exists: boolean;
  readonly text: string;
  /** The configuration as Hermes sees it (plain values). */
  readonly value: Record<string, unknown>;
}

/** Reads config.yaml; a missing file is an empty configuration, a file PyYAML would not load is an error. */
export const readHermesConfig = (home: string): HermesConfigFile => {
  const path = configPathOf(home);
  if (!existsSync(path)) return { path, exists: false, text: '', value: {} };
  const text = readFileSync(path, 'utf8');
  const doc = parseHermesYaml(text);
  if (doc.errors.length > 0) throw new HermesConfigError(`${path} is not valid YAML: ${doc.errors[0]!.message.split('\n')[0]}`);
  const value: unknown = doc.toJS();
  if (value !== null && value !== undefined && !isPlainObject(value)) throw new HermesConfigError(`${path} does not hold a mapping at the top level`);
  return { path, exists: true, text, value: (value ?? {}) as Record<string, unknown> };
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Hermes' truthy strings (utils.py TRUTHY_STRINGS) for env vars and string config values. */
export const isTruthy = (value: unknown): boolean =>
  value === true || (typeof value === 'string' && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase()));

// -----------------------------------------------------------------------------------------------------------------
// Editing config.yaml

const scalarValue = (node: unknown): unknown => (isScalar(node) ? node.value : node);

/** The mapping at `key` of `parent`, created (or replaced when it is not a mapping) with a note of what happened. */
const mapAt = (doc: Document, parent: YAMLMap, key: string, notes: string[], where: string): YAMLMap => {
  const node = parent.get(key, true);
  if (isMap(node)) return node;
  if (node !== undefined && scalarValue(node) !== null) notes.push(`${where} was not a mapping (Hermes ignored it); replaced`);
  const created = doc.createNode({}) as YAMLMap;
  parent.set(key, created);
  return created;
};

const rootOf = (doc: Document, notes: string[]): YAMLMap => {
  if (isMap(doc.contents)) return doc.contents;
  if (doc.contents !== null && scalarValue(doc.contents) !== null) notes.push('config.yaml did not hold a mapping; replaced');
  const created = doc.createNode({}) as YAMLMap;
  doc.contents = created;
  return created;
};

/** `plugins.enabled` gets `tollgate`; `plugins.disabled` loses it (an explicit disable beats enabled). */
export const enablePlugin = (doc: Document): string[] => {
  const notes: string[] = [];
  const plugins = mapAt(doc, rootOf(doc, notes), 'plugins', notes, 'plugins');
  const enabled = plugins.get('enabled', true);
  if (isSeq(enabled)) {
    if (!enabled.items.some((item) => scalarValue(item) === pluginName)) {
      enabled.add(doc.createNode(pluginName));
      notes.push(`plugins.enabled: added ${pluginName}`);
    }
  } else {
    if (enabled !== undefined && scalarValue(enabled) !== null) notes.push('plugins.enabled was not a list (Hermes loaded no plugin from it); replaced');
    plugins.set('enabled', doc.createNode([pluginName]));
    notes.push(`plugins.enabled: [${pluginName}]`);
  }
  const disabled = plugins.get('disabled', true);
  if (isSeq(disabled)) {
    const before = disabled.items.length;
    disabled.items = disabled.items.filter((item) => scalarValue(item) !== pluginName);
    if (disabled.items.length !== before) notes.push(`plugins.disabled: removed ${pluginName} (an explicit disable beats plugins.enabled)`);
  }
  return notes;
};

export interface ShellHookEntry {
  readonly event: string;
  readonly matcher?: string;
  readonly command: string;
  readonly timeout: number;
  readonly fail_closed: boolean;
}

/** A hooks entry that runs `tollgate hook --hermes` (from this clone or another). */
export const isTollgateHookCommand = (command: unknown): boolean =>
  typeof command === 'string' && /tollgate/.test(command) && /(^|\s)hook(\s+\S+)*\s+--hermes(\s|$)/.test(command);

const entryFields = (entry: ShellHookEntry): Record<string, unknown> => ({
  ...(entry.matcher === undefined ? {} : { matcher: entry.matcher }), command: entry.command, timeout: entry.timeout, fail_closed: entry.fail_closed,
});

/**
 * Each wanted entry is added to `hooks.<event>`, or an existing tollgate entry there is brought up to date (other
 * keys and comments stay). Tollgate entries for `removeEvents` are taken out.
 */
export const registerShellHooks = (doc: Document, wanted: readonly ShellHookEntry[], removeEvents: readonly string[] = []): string[] => {
  const notes: string[] = [];
  const hooks = mapAt(doc, rootOf(doc, notes), 'hooks', notes, 'hooks');
  for (const entry of wanted) {
    const list = hooks.get(entry.event, true);
    let seq: YAMLSeq;
    if (isSeq(list)) seq = list;
    else {
      if (list !== undefined && scalarValue(list) !== null) notes.push(`hooks.${entry.event} was not a list (Hermes ignored it); replaced`);
      seq = doc.createNode([]) as YAMLSeq;
      hooks.set(entry.event, seq);
    }
    const ours = seq.items.filter((item): item is YAMLMap => isMap(item) && isTollgateHookCommand(scalarValue(item.get('command', true))));
    const fields = entryFields(entry);
    if (ours.length === 0) {
      seq.add(doc.createNode(fields));
      notes.push(`hooks.${entry.event}: added ${JSON.stringify(fields)}`);
      continue;
    }
    const [first, ...extra] = ours;
    const changed: string[] = [];
    for (const [key, value] of Object.entries(fields)) {
      if (scalarValue(first!.get(key, true)) !== value) { first!.set(key, doc.createNode(value)); changed.push(key); }
    }
    if (entry.matcher === undefined && first!.has('matcher')) { first!.delete('matcher'); changed.push('matcher'); }
    if (changed.length > 0) notes.push(`hooks.${entry.event}: updated the tollgate entry (${changed.join(', ')})`);
    if (extra.length > 0) {
      seq.items = seq.items.filter((item) => !extra.includes(item as YAMLMap));
      notes.push(`hooks.${entry.event}: removed ${extra.length} duplicate tollgate entr${extra.length === 1 ? 'y' : 'ies'}`);
    }
  }
  for (const event of removeEvents) {
    const list = hooks.get(event, true);
    if (!isSeq(list)) continue;
    const before = list.items.length;
    list.items = list.items.filter((item) => !(isMap(item) && isTollgateHookCommand(scalarValue(item.get('command', true)))));
    if (list.items.length !== before) notes.push(`hooks.${event}: removed the tollgate entry (the plugin forwards this event)`);
  }
  return notes;
};

// -----------------------------------------------------------------------------------------------------------------
// The shell-hook allowlist

export interface AllowlistApproval {
  readonly event: string;
  readonly command: string;
  readonly approved_at?: string;
  readonly script_mtime_at_approval?: string | null;
}

export interface Allowlist { readonly approvals: AllowlistApproval[]; readonly [key: string]: unknown }

/** Parsed like `load_allowlist`: anything unreadable is an empty allowlist. */
export const parseAllowlist = (text: string | null): { allowlist: Allowlist; valid: boolean } => {
  if (text === null) return { allowlist: { approvals: [] }, valid: true };
  try {
    const raw: unknown = JSON.parse(text);
    if (!isPlainObject(raw)) return { allowlist: { approvals: [] }, valid: false };
    const approvals = Array.isArray(raw['approvals']) ? (raw['approvals'] as AllowlistApproval[]) : [];
    return { allowlist: { ...raw, approvals }, valid: true };
  } catch {
    return { allowlist: { approvals: [] }, valid: false };
  }
};

export const isApproved = (allowlist: Allowlist, event: string, command: string): boolean =>
  allowlist.approvals.some((a) => isPlainObject(a) && a.event === event && a.command === command);

/** Python's `datetime.fromtimestamp(t, tz=utc).isoformat().replace("+00:00", "Z")`. */
export const pythonIsoUtc = (epochMicros: bigint): string => {
  const seconds = epochMicros / 1_000_000n;
  const micros = Number(epochMicros % 1_000_000n);
  const base = new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return micros === 0 ? `${base}Z` : `${base}.${String(micros).padStart(6, '0')}Z`;
};

const roundHalfEven = (x: number): number => {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/**
 * Microseconds since the epoch as Python gets them from `os.path.getmtime` (a float: `sec + nsec * 1e-9`) through
 * `datetime.fromtimestamp` (fraction rounded half-even), so the recorded mtime equals what Hermes computes.
 */
export const pythonMicros = (mtimeNs: bigint): bigint => {
  const seconds = mtimeNs / 1_000_000_000n;
  const asFloat = Number(seconds) + Number(mtimeNs % 1_000_000_000n) * 1e-9;
  let whole = Math.floor(asFloat);
  let micros = roundHalfEven((asFloat - whole) * 1e6);
  if (micros >= 1_000_000) { micros -= 1_000_000; whole += 1; }
  return BigInt(whole) * 1_000_000n + BigInt(micros);
};

/** `script_mtime_iso(command)`: the hook script's mtime as Hermes records it, or null when it is missing. */
export const scriptMtimeIso = (command: string): string | null => {
  const script = scriptOfCommand(command).replace(/^~(?=\/|$)/, homedir());
  try {
    const ns = statSync(script, { bigint: true }).mtimeNs;
    return pythonIsoUtc(pythonMicros(ns));
  } catch {
    return null;
  }
};

const sortKeys = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sortKeys(value[k])]));
};

/** Serialised like Hermes' `save_allowlist` (`json.dumps(data, indent=2, sort_keys=True)`). */
export const formatAllowlist = (allowlist: Allowlist): string => JSON.stringify(sortKeys(allowlist), null, 2);

export const approve = (allowlist: Allowlist, event: string, command: string, now: Date): Allowlist => ({
  ...allowlist,
  approvals: [...allowlist.approvals, {
    event, command, approved_at: pythonIsoUtc(BigInt(now.getTime()) * 1000n), script_mtime_at_approval: scriptMtimeIso(command),
  }],
});
