/**
 * `tollgate install hermes`: puts tollgate in front of a Hermes Agent. Plans every file change first (so a second
 * run finds nothing to do, and --dry-run prints the plan), then applies it with a backup of every file it changes.
 *
 * - plugin (default, and with --both): copies adapters/hermes/plugin/tollgate to $HERMES_HOME/plugins/tollgate,
 *   writes the daemon socket into its config.json (read by the plugin's settings.py), lists it in plugins.enabled;
 * - shell hook (--shell-hook, or --both): hooks.pre_tool_call runs `<node> <bin/tollgate.mjs> hook --hermes
 *   --socket <socket>` (and hooks.pre_llm_call too when there is no plugin to report what the user typed), and the
 *   user's consent to it is recorded in shell-hooks-allowlist.json, as Hermes' own prompt would.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyChanges, lineDiff, type AppliedChange, type FileChange } from './fileChanges.ts';
import {
  allowlistFile, approve, configPathOf, enablePlugin, hermesHomeOf, formatAllowlist, isApproved, isPlainObject, isTollgateHookCommand, parseAllowlist,
  parseHermesYaml, pluginDirOf, printHermesYaml, registerShellHooks, type ShellHookEntry,
} from './hermesConfig.ts';
import { joinWords } from './shellWords.ts';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const pluginSourceDir = join(repoRoot, 'adapters', 'hermes', 'plugin', 'tollgate');
export const tollgateBin = join(repoRoot, 'bin', 'tollgate.mjs');

/** Seconds Hermes gives the hook (it kills it after that); the hook's own deadline (5 s) ends well before. */
export const hookTimeoutSeconds = 10;

export type InstallMode = 'plugin' | 'shell-hook' | 'both';

export interface InstallOptions {
  readonly home: string;
  /** Absolute path of the daemon socket the plugin and the hook use. */
  readonly socket: string;
  readonly mode: InstallMode;
  /** Record the consent to the shell hook in the allowlist. @defaultValue true */
  readonly accept?: boolean;
  /** @defaultValue process.execPath */
  readonly node?: string;
  readonly now?: Date;
  /** @defaultValue pluginSourceDir */
  readonly pluginSource?: string;
}

export interface InstallPlan {
  readonly changes: FileChange[];
  readonly notes: string[];
  readonly hookCommand: string | null;
}

/** The shell-hook command line written to config.yaml (and approved in the allowlist, byte for byte). */
export const hookCommandFor = (socket: string, node = process.execPath): string => joinWords([node, tollgateBin, 'hook', '--hermes', '--socket', socket]);

const skipped = (name: string) => name === '__pycache__' || name.endsWith('.pyc') || name === 'config.json' || name.includes('.tollgate-backup-');

const pluginFiles = (dir: string, base = dir): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
  if (skipped(entry.name)) return [];
  const path = join(dir, entry.name);
  if (entry.isDirectory()) return pluginFiles(path, base);
  return entry.isFile() ? [relative(base, path)] : [];
});

const readOrNull = (path: string): Buffer | null => (existsSync(path) ? readFileSync(path) : null);

const change = (path: string, after: Buffer, mode: number, summary: string, preview?: string): FileChange | null => {
  const before = readOrNull(path);
  if (before !== null && before.equals(after)) return null;
  return { path, before, after, mode, summary, ...(preview === undefined ? {} : { preview }) };
};

const pluginChanges = (options: InstallOptions): FileChange[] => {
  const source = options.pluginSource ?? pluginSourceDir;
  if (!existsSync(join(source, 'plugin.yaml')) || !existsSync(join(source, '__init__.py')))
    throw new Error(`the Hermes plugin is missing from this tollgate (${source} needs plugin.yaml and __init__.py)`);
  const target = pluginDirOf(options.home);
  const changes: FileChange[] = [];
  for (const file of pluginFiles(source).sort()) {
    const from = join(source, file);
    const c = change(join(target, file), readFileSync(from), statSync(from).mode & 0o777, `copy of adapters/hermes/plugin/tollgate/${file}`);
    if (c) changes.push(c);
  }
  // The daemon socket, where the plugin's settings.py reads it (config.json beside __init__.py; env TOLLGATE_SOCKET wins).
  const configPath = join(target, 'config.json');
  const current = readOrNull(configPath);
  let settings: Record<string, unknown> = {};
  if (current !== null) {
    try {
      const parsed: unknown = JSON.parse(current.toString('utf8'));
      if (isPlainObject(parsed)) settings = parsed;
    } catch { /* an unreadable config.json is replaced (and backed up) */ }
  }
  const next = Buffer.from(`${JSON.stringify({ ...settings, socket: options.socket }, null, 2)}\n`);
  const c = change(configPath, next, 0o644, `the daemon socket for the plugin: ${options.socket}`);
  if (c) changes.push(c);
  return changes;
};

const configChange = (options: InstallOptions, hookEntries: readonly ShellHookEntry[], removeEvents: readonly string[]): { change: FileChange | null; notes: string[] } => {
  const path = configPathOf(options.home);
  const before = readOrNull(path);
  const text = before?.toString('utf8') ?? '';
  const doc = parseHermesYaml(text);
  if (doc.errors.length > 0) throw new Error(`${path} is not valid YAML, so it is left as it is: ${doc.errors[0]!.message.split('\n')[0]}`);
  const notes = [
    ...(options.mode === 'shell-hook' ? [] : enablePlugin(doc)),
    ...(hookEntries.length > 0 || removeEvents.length > 0 ? registerShellHooks(doc, hookEntries, removeEvents) : []),
  ];
  const existingHooks = options.mode === 'plugin' ? tollgateHookEvents(doc.toJS()) : [];
  if (notes.length === 0) return { change: null, notes: existingHooks.map(hookStillThere) };
  const after = printHermesYaml(doc, text);
  return {
    change: { path, before, after: Buffer.from(after), mode: 0o600, summary: notes.join('; '), preview: lineDiff(text, after) },
    notes: existingHooks.map(hookStillThere),
  };
};

const hookStillThere = (event: string) =>
  `config.yaml also runs tollgate as a shell hook for ${event}; each call is then asked about twice (run with --both to keep it, or remove hooks.${event}'s tollgate entry)`;

const tollgateHookEvents = (value: unknown): string[] => {
  const hooks = isPlainObject(value) ? value['hooks'] : undefined;
  if (!isPlainObject(hooks)) return [];
  return Object.entries(hooks).filter(([, list]) => Array.isArray(list) && list.some((e) => isPlainObject(e) && isTollgateHookCommand(e['command']))).map(([event]) => event);
};

const allowlistChange = (options: InstallOptions, entries: readonly ShellHookEntry[], now: Date): FileChange | null => {
  const path = join(options.home, allowlistFile);
  const before = readOrNull(path);
  const { allowlist, valid } = parseAllowlist(before?.toString('utf8') ?? null);
  let next = allowlist;
  const added: string[] = [];
  for (const entry of entries) {
    if (isApproved(next, entry.event, entry.command)) continue;
    next = approve(next, entry.event, entry.command, now);
    added.push(entry.event);
  }
  if (added.length === 0 && valid) return null;
  return {
    path, before, after: Buffer.from(formatAllowlist(next)), mode: 0o600,
    summary: `${valid ? '' : 'was not valid JSON (Hermes read it as empty); '}consent to the shell hook recorded for ${added.join(', ')}`,
  };
};

export const planHermesInstall = (options: InstallOptions): InstallPlan => {
  const now = options.now ?? new Date();
  const notes: string[] = [];
  const changes: FileChange[] = [];
  if (options.mode !== 'shell-hook') changes.push(...pluginChanges(options));
  let hookCommand: string | null = null;
  const hookEntries: ShellHookEntry[] = [];
  if (options.mode !== 'plugin') {
    hookCommand = hookCommandFor(options.socket, options.node);
    hookEntries.push({ event: 'pre_tool_call', matcher: '.*', command: hookCommand, timeout: hookTimeoutSeconds, fail_closed: true });
    // Without the plugin, the hook must also report what the user typed, or every session is unknown to the gate.
    if (options.mode === 'shell-hook') hookEntries.push({ event: 'pre_llm_call', command: hookCommand, timeout: hookTimeoutSeconds, fail_closed: true });
  }
  const config = configChange(options, hookEntries, options.mode === 'both' ? ['pre_llm_call'] : []);
  if (config.change) changes.push(config.change);
  notes.push(...config.notes);
  if (hookEntries.length > 0 && options.accept !== false) {
    const c = allowlistChange(options, hookEntries, now);
    if (c) changes.push(c);
  }
  return { changes, notes, hookCommand };
};

export interface InstallReport {
  readonly applied: AppliedChange[];
  readonly plan: InstallPlan;
  readonly text: string;
}

const shellHookNotes = (command: string, accepted: boolean, mode: InstallMode): string[] => [
  accepted
    ? `Hermes runs a shell hook only after the user accepts it once; this install recorded that consent in ${allowlistFile} (undo: hermes hooks revoke ${JSON.stringify(command)}).`
    : `Hermes runs a shell hook only after the user accepts it once: answer its prompt on the next interactive start, or set hooks_auto_accept: true in config.yaml (or HERMES_ACCEPT_HOOKS=1), which accepts every configured hook. Until then Hermes skips it silently.`,
  'fail_closed: true is honoured only by newer Hermes; hermes-agent 0.19 ignores it and runs the call when the hook cannot start, times out or prints nothing. The hook answers a block itself for every failure it can see (daemon down, no answer within 5 s, a garbage answer).',
  'A shell hook can only block: a question is answered with a block naming it (`tollgate approve <id>`, then the agent\'s retry runs once), and replies (transform_llm_output) are not checked — the plugin does both.',
  ...(mode === 'both' ? ['With --both the plugin and the hook both ask about each tool call; the daemon decides a call once (by Hermes\' tool_call_id) and gives the second asker the same answer, so a one-time approval is not spent twice.'] : []),
];

export const installHermes = (options: InstallOptions & { readonly dryRun?: boolean }): InstallReport => {
  const plan = planHermesInstall(options);
  const now = options.now ?? new Date();
  const lines = [`tollgate install hermes — HERMES_HOME ${options.home} (${options.mode === 'both' ? 'plugin and shell hook' : options.mode === 'plugin' ? 'plugin' : 'shell hook'}; daemon socket ${options.socket})`];
  let applied: AppliedChange[] = [];
  if (plan.changes.length === 0) {
    lines.push('nothing to change: tollgate is already installed as asked.');
  } else if (options.dryRun) {
    lines.push(`dry run: ${plan.changes.length} file${plan.changes.length === 1 ? '' : 's'} would change (nothing was written):`);
    for (const c of plan.changes) {
      lines.push(`  ${c.before === null ? 'create' : 'update'} ${c.path}: ${c.summary}${c.before === null ? '' : ' (after a backup copy beside it)'}`);
      if (c.preview) lines.push(...c.preview.split('\n').map((l) => `    ${l}`));
    }
  } else {
    applied = applyChanges(plan.changes, now);
    lines.push(`${applied.length} file${applied.length === 1 ? '' : 's'} changed:`);
    for (const a of applied) lines.push(`  ${a.backup === null ? 'created' : 'updated'} ${a.change.path} — ${a.change.summary}${a.backup === null ? '' : `\n    backup: ${a.backup}`}`);
  }
  const notes = [...plan.notes];
  if (plan.changes.length > 0) {
    if (plan.hookCommand !== null) notes.push(...shellHookNotes(plan.hookCommand, options.accept !== false, options.mode));
    if (options.mode !== 'shell-hook') notes.push('Restart Hermes so it loads the plugin.');
  }
  if (notes.length > 0) lines.push('', ...notes.map((n) => `note: ${n}`));
  lines.push('', `next: start the daemon (tollgate serve), then check that the guard is active: tollgate doctor${options.home === hermesHomeOf(undefined) ? '' : ` --hermes-home ${options.home}`}`);
  return { applied, plan, text: `${lines.join('\n')}\n` };
};
