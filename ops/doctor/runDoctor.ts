/**
 * `tollgate doctor`: is tollgate actually guarding this Hermes, and what could silently switch it off?
 *
 * "Listed as enabled is not active": besides reading config.yaml, the doctor makes real decisions — through the
 * daemon, through the installed plugin (loaded by Hermes' own plugin manager and asked through Hermes' own dispatch
 * function when Hermes' Python is found), and through the shell hook command exactly as Hermes would run it.
 * Every fact about Hermes is from hermes-agent 0.19.0 (paths in that package).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultTimeoutMs } from '../../adapters/hooks/hookClient.mjs';
import { requestOverSocket } from '../../adapters/http/socketClient.ts';
import {
  allowlistFile, HermesConfigError, isPlainObject, isApproved, isTollgateHookCommand, isTruthy, parseAllowlist, pluginDirOf, pluginName,
  readHermesConfig, type HermesConfigFile,
} from '../install/hermesConfig.ts';
import { pluginSourceDir } from '../install/installHermes.ts';
import { splitWords } from '../install/shellWords.ts';
import { fail, ok, warn, type Check, type DoctorReport } from './checks.ts';
import { configChecks, type ConfigCheckInput } from './configChecks.ts';
import { hermesEnvOf, type HermesEnv } from './hermesEnv.ts';
import { principalChecks, type PrincipalInputs } from './principalChecks.ts';
import { privateFileChecks } from './privateFiles.ts';
import {
  findHermesPython, hardlineProbe, plainProbe, probeDaemon, probePlugin, runShellHook, type PluginProbe, type PluginProbeResult,
} from './probes.ts';

export const pinnedHermes = '0.19.0';

export interface DoctorOptions {
  readonly home: string;
  readonly socket: string;
  /** The Python to load the plugin with. @defaultValue the interpreter of `hermes` on PATH, else python3 */
  readonly python?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** @defaultValue adapters/hermes/plugin/tollgate of this tollgate */
  readonly pluginSource?: string;
  /** tollgate's own configuration: private files, the settings the daemon runs with, rejected checkpoints. */
  readonly tollgate?: ConfigCheckInput;
  /** Where the daemon's state lies, for the separate-principal checks (principalChecks.ts); omitted: not checked. */
  readonly principals?: PrincipalInputs;
}

const toolsTheHookMustSee = ['terminal', 'execute_code', 'write_file', 'patch'];

interface HookEntry { readonly event: string; readonly index: number; readonly entry: Record<string, unknown>; readonly command: string }

const tollgateHookEntries = (config: Record<string, unknown>): HookEntry[] => {
  const hooks = config['hooks'];
  if (!isPlainObject(hooks)) return [];
  return Object.entries(hooks).flatMap(([event, list]) => (Array.isArray(list) ? list : []).flatMap((entry, index) =>
    (isPlainObject(entry) && isTollgateHookCommand(entry['command']) ? [{ event, index, entry, command: (entry['command'] as string).trim() }] : [])));
};

const listOf = (value: unknown): unknown[] | null => (Array.isArray(value) ? value : null);

const pluginsSection = (config: Record<string, unknown>) => {
  const plugins = isPlainObject(config['plugins']) ? config['plugins'] : {};
  return { enabled: listOf(plugins['enabled']), disabled: listOf(plugins['disabled']) ?? [] };
};

/** Folders with a plugin.yaml under $HERMES_HOME/plugins (flat or one category level deep, as Hermes scans). */
const userPlugins = (home: string): { key: string; name: string; dir: string; decides: boolean }[] => {
  const root = join(home, 'plugins');
  const found: { key: string; name: string; dir: string; decides: boolean }[] = [];
  const visit = (dir: string, prefix: string, depth: number) => {
    let entries;
    try { entries = readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      const manifest = ['plugin.yaml', 'plugin.yml'].map((m) => join(path, m)).find((m) => existsSync(m));
      if (manifest === undefined) {
        if (depth === 0) visit(path, entry.name, 1);
        continue;
      }
      const text = readFileSync(manifest, 'utf8');
      const name = /^name:\s*["']?([^"'\n#]+?)["']?\s*(#.*)?$/m.exec(text)?.[1]?.trim() ?? entry.name;
      const init = join(path, '__init__.py');
      const source = existsSync(init) ? readFileSync(init, 'utf8') : '';
      found.push({ key: prefix ? `${prefix}/${entry.name}` : name, name, dir: path, decides: /pre_tool_call/.test(text) || /pre_tool_call/.test(source) });
    }
  };
  visit(root, '', 0);
  return found;
};

const pluginDiffers = (installed: string, source: string): string[] => {
  if (!existsSync(source)) return [];
  const differs: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '__pycache__' || entry.name.endsWith('.pyc') || entry.name === 'config.json') continue;
      const from = join(dir, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) { walk(from, relPath); continue; }
      const to = join(installed, relPath);
      if (!existsSync(to) || !readFileSync(to).equals(readFileSync(from))) differs.push(relPath);
    }
  };
  walk(source, '');
  return differs;
};

/** The socket the installed plugin will use (its settings.py): TOLLGATE_SOCKET, config.json `socket`, else relative. */
const pluginSocket = (pluginDir: string, env: HermesEnv): { socket: string | null; source: string } => {
  const fromEnv = env.values['TOLLGATE_SOCKET']?.trim();
  if (fromEnv) return { socket: fromEnv, source: `TOLLGATE_SOCKET from ${env.sourceOf('TOLLGATE_SOCKET')}` };
  const configPath = join(pluginDir, 'config.json');
  if (existsSync(configPath)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(configPath, 'utf8'));
      if (isPlainObject(parsed) && typeof parsed['socket'] === 'string' && parsed['socket'].trim() !== '') return { socket: parsed['socket'], source: configPath };
      return { socket: null, source: `${configPath} has no socket` };
    } catch (error) {
      return { socket: null, source: `${configPath} is not valid JSON (${(error as Error).message}); the plugin blocks every call` };
    }
  }
  return { socket: null, source: 'no config.json and no TOLLGATE_SOCKET: the plugin uses data/tollgate.sock under $TOLLGATE_HOME or the folder Hermes runs in' };
};

const hookTimeoutMsOf = (command: string): number => {
  const words = splitWords(command) ?? [];
  const at = words.findIndex((w) => w === '--timeout-ms' || w.startsWith('--timeout-ms='));
  if (at < 0) return defaultTimeoutMs;
  const raw = words[at]!.includes('=') ? words[at]!.split('=')[1] : words[at + 1];
  return Number(raw) > 0 ? Number(raw) : defaultTimeoutMs;
};

const fullMatches = (matcher: unknown, tool: string): boolean => {
  if (typeof matcher !== 'string' || matcher.trim() === '') return true;
  try { return new RegExp(`^(?:${matcher.trim()})$`).test(tool); } catch { return matcher.trim() === tool; }
};

export const runDoctor = async (options: DoctorOptions): Promise<DoctorReport> => {
  const { home, socket } = options;
  const env = hermesEnvOf(home, options.env ?? process.env);
  const checks: Check[] = [];
  const probeId = `tollgate-doctor-${randomBytes(4).toString('hex')}`;

  // -- the daemon ---------------------------------------------------------------------------------------------
  const daemon = await probeDaemon(socket, `${probeId}-daemon`);
  if (!daemon.reachable) {
    checks.push(fail('daemon.reachable', 'daemon reachable', daemon.error ?? 'no answer', `start it: tollgate serve (it must listen on ${socket}; or pass --socket)`));
  } else if (daemon.health?.ok !== true) {
    checks.push(fail('daemon.reachable', 'daemon healthy', `${daemon.error ?? 'not ok'}: ${(daemon.health?.problems ?? []).join('; ')}`, 'read the daemon\'s log; restart it (tollgate serve)'));
  } else {
    checks.push(ok('daemon.reachable', 'daemon reachable', `tollgate ${daemon.health.version ?? '?'} on ${socket}, ledger head ${daemon.health.head ?? '?'}`));
    const hard = daemon.hardline;
    if (hard === null) checks.push(fail('daemon.decides', 'daemon decides', `the probe decision failed: ${daemon.error ?? 'no answer'}`, 'read the daemon\'s log'));
    else if (hard.action !== 'block' || !hard.reasons.some((r) => r.startsWith('hardline:')))
      checks.push(fail('daemon.decides', 'daemon decides', `\`${hardlineProbe}\` was answered ${hard.action ?? 'with nothing'} (${hard.reasons.join(', ') || 'no reasons'}), not a hardline block`, 'this daemon does not enforce the command floor: check its version and configuration'));
    else if (daemon.plain?.action !== 'allow')
      checks.push(warn('daemon.decides', 'daemon decides', `\`${hardlineProbe}\` blocked (${hard.reasons.join(', ')}), but \`${plainProbe}\` was answered ${daemon.plain?.action ?? 'with nothing'} (${daemon.plain?.reasons.join(', ') ?? ''})`, 'ordinary work would be blocked too: check the configuration (tollgate classify "echo hi")'));
    else checks.push(ok('daemon.decides', 'daemon decides', `probe session ${probeId}-daemon: \`${hardlineProbe}\` blocked (${hard.reasons.join(', ')}), \`${plainProbe}\` allowed`));
  }

  // -- separate principals: what the calling user can reach -----------------------------------------------------
  if (options.principals) checks.push(...principalChecks(options.principals));

  // -- tollgate's own files and configuration -------------------------------------------------------------------
  if (options.tollgate) checks.push(...privateFileChecks(options.tollgate.config, options.tollgate.configPath), ...await configChecks(options.tollgate));

  // -- Hermes home and configuration ----------------------------------------------------------------------------
  let config: HermesConfigFile | null = null;
  if (!existsSync(home) || !statSync(home).isDirectory()) {
    checks.push(fail('hermes.home', 'Hermes home', `${home} does not exist`, 'pass --hermes-home or set HERMES_HOME to the folder Hermes uses (run Hermes once to create it)'));
  } else {
    try {
      config = readHermesConfig(home);
      checks.push(ok('hermes.config', 'Hermes configuration', config.exists ? `${config.path} read` : `${config.path} does not exist (Hermes' defaults: no plugin enabled)`));
    } catch (error) {
      if (!(error instanceof HermesConfigError)) throw error;
      checks.push(fail('hermes.config', 'Hermes configuration', error.message, 'fix the YAML: Hermes cannot load it either'));
    }
  }
  const values = config?.value ?? {};

  // -- what switches every plugin and hook off, or Hermes' own approvals ----------------------------------------
  if (isTruthy(env.values['HERMES_SAFE_MODE']))
    checks.push(fail('hermes.safe_mode', 'HERMES_SAFE_MODE', `set (${env.sourceOf('HERMES_SAFE_MODE')}): Hermes loads no plugin and no shell hook, so nothing asks tollgate`, `unset HERMES_SAFE_MODE in ${env.sourceOf('HERMES_SAFE_MODE')}`));
  else checks.push(ok('hermes.safe_mode', 'HERMES_SAFE_MODE', 'not set (plugins and shell hooks load)'));

  const approvals = isPlainObject(values['approvals']) ? values['approvals'] : {};
  const mode = approvals['mode'];
  const modeOff = mode === false || (typeof mode === 'string' && mode.trim().toLowerCase() === 'off');
  const yolo = isTruthy(env.values['HERMES_YOLO_MODE']);
  if (yolo || modeOff) {
    const what = [
      ...(yolo ? [`HERMES_YOLO_MODE is set (${env.sourceOf('HERMES_YOLO_MODE')}): Hermes approves every approval request, including one a plugin escalates with the approve directive`] : []),
      ...(modeOff ? ['approvals.mode is off: Hermes runs its own dangerous commands without asking'] : []),
    ];
    checks.push(warn('hermes.approvals', 'Hermes approvals', `${what.join('; ')}. tollgate's hardline blocks and its questions (asked by the tollgate plugin itself, or answered with a block by the shell hook) still stand`,
      yolo ? 'unset HERMES_YOLO_MODE unless you mean it (and do not start Hermes with --yolo)' : 'set approvals.mode: manual in config.yaml to keep Hermes\' own prompts as a second line'));
  } else {
    checks.push(ok('hermes.approvals', 'Hermes approvals', `approvals.mode ${typeof mode === 'string' ? mode : 'default'}, no HERMES_YOLO_MODE (a gateway session's /yolo cannot be seen from here)`));
  }

  // -- the plugin ---------------------------------------------------------------------------------------------
  const pluginDir = pluginDirOf(home);
  const pluginPresent = existsSync(join(pluginDir, 'plugin.yaml')) && existsSync(join(pluginDir, '__init__.py'));
  const { enabled, disabled } = pluginsSection(values);
  const pluginEnabled = enabled !== null && enabled.includes(pluginName) && !disabled.includes(pluginName);
  const hookEntries = tollgateHookEntries(values);
  const preToolHooks = hookEntries.filter((h) => h.event === 'pre_tool_call');
  const allowlist = parseAllowlist(existsSync(join(home, allowlistFile)) ? readFileSync(join(home, allowlistFile), 'utf8') : null).allowlist;
  const autoAccept = isTruthy(values['hooks_auto_accept']) || isTruthy(env.values['HERMES_ACCEPT_HOOKS']);
  const consented = (h: HookEntry) => autoAccept || isApproved(allowlist, h.event, h.command);
  const hookActive = preToolHooks.some(consented);

  if (!pluginPresent) {
    if (hookActive) checks.push(warn('plugin.present', 'plugin installed', `${pluginDir} is missing: only the shell hook guards tool calls, and replies are not checked`, 'tollgate install hermes --both'));
    else checks.push(fail('plugin.present', 'plugin installed', `${pluginDir} is missing (no plugin.yaml / __init__.py)`, 'tollgate install hermes'));
  } else {
    const differs = pluginDiffers(pluginDir, options.pluginSource ?? pluginSourceDir);
    if (differs.length > 0) checks.push(warn('plugin.present', 'plugin installed', `${pluginDir} differs from this tollgate's plugin (${differs.join(', ')})`, 'tollgate install hermes (updates it, with backups)'));
    else checks.push(ok('plugin.present', 'plugin installed', `${pluginDir} matches this tollgate's plugin`));
  }

  if (pluginPresent || pluginEnabled) {
    if (pluginEnabled) checks.push(ok('plugin.enabled', 'plugin enabled', `${pluginName} is in plugins.enabled`));
    else {
      const why = enabled === null ? 'plugins.enabled is missing (Hermes loads no standalone plugin)' : disabled.includes(pluginName) ? `${pluginName} is in plugins.disabled, which beats plugins.enabled` : `${pluginName} is not in plugins.enabled`;
      checks.push(fail('plugin.enabled', 'plugin enabled', `${why}: the plugin is present but Hermes never loads it`, 'tollgate install hermes'));
    }
  }

  let probeResult: PluginProbeResult | null = null;
  if (pluginPresent) {
    const target = pluginSocket(pluginDir, env);
    if (target.socket === null) checks.push(warn('plugin.socket', 'plugin\'s daemon socket', target.source, `tollgate install hermes --socket ${socket}`));
    else if (resolve(target.socket) !== resolve(socket)) checks.push(warn('plugin.socket', 'plugin\'s daemon socket', `the plugin asks ${target.socket} (${target.source}), this doctor checked ${socket}`, `tollgate install hermes --socket <the daemon's socket>, or run doctor with --socket ${target.socket}`));
    else checks.push(ok('plugin.socket', 'plugin\'s daemon socket', `${target.socket} (${target.source})`));

    const python = options.python !== undefined ? { python: options.python, why: '--python' } : findHermesPython(env.values);
    probeResult = await probePlugin(python.python, pluginDir, `${probeId}-plugin`, { ...env.values, HERMES_HOME: home });
    checks.push(...pluginProbeChecks(probeResult, python));
  }

  // -- other plugins that decide tool calls ---------------------------------------------------------------------
  checks.push(...otherDeciders(home, values, probeResult, env));

  // -- shell hooks --------------------------------------------------------------------------------------------
  const pluginActive = pluginPresent && pluginEnabled && !(probeResult?.ran === true && probeResult.probe.hardline?.action !== 'block');
  for (const h of hookEntries) checks.push(...await shellHookChecks(h, { consented: consented(h), autoAccept, pluginActive, env, probeId, socket, hookEntries }));
  if (preToolHooks.length > 0 && !hookEntries.some((h) => h.event === 'pre_llm_call') && !pluginActive)
    checks.push(warn('shell_hook.pre_llm_call', 'shell hook sees the user', 'only pre_tool_call runs tollgate: no user message reaches the gate, so every tool call is blocked as an unknown session', 'tollgate install hermes --shell-hook (adds hooks.pre_llm_call), or install the plugin'));

  if (!pluginPresent && preToolHooks.length === 0)
    checks.push(fail('tollgate.installed', 'tollgate in Hermes', `neither the plugin (${pluginDir}) nor a tollgate shell hook (hooks.pre_tool_call) is installed: nothing asks tollgate`, 'tollgate install hermes'));

  return { ok: !checks.some((c) => c.status === 'fail'), hermesHome: home, socket, checks };
};

const pluginProbeChecks = (result: PluginProbeResult, python: { python: string; why: string }): Check[] => {
  const title = 'plugin answers (probe decision)';
  if (!result.ran) return [warn('plugin.probe', title, `could not load the plugin with Python: ${result.reason}`, 'install python3, or pass --python with the Python that runs Hermes')];
  const p: PluginProbe = result.probe;
  if (p.error !== undefined) return [fail('plugin.probe', title, `loading the plugin failed: ${p.error}`, 'reinstall it (tollgate install hermes); the trace is in doctor --json')];
  const checks: Check[] = [];
  const via = p.mode === 'hermes' ? `Hermes ${p.hermes_version ?? '?'}'s own plugin loader and dispatch (${p.executable})` : `the plugin alone in ${p.executable} (Hermes is not importable there: plugins.enabled and load order not exercised; pass --python with Hermes' Python for that)`;
  if (p.loaded !== true) {
    checks.push(fail('plugin.probe', title, `Hermes does not load it: ${p.load_error ?? 'unknown reason'} — listed is not active`, 'tollgate install hermes; check HERMES_SAFE_MODE and plugins.disabled'));
  } else if (p.status?.state === 'failed') {
    checks.push(fail('plugin.probe', title, `the plugin failed to start (${p.status.error ?? '?'}) and blocks every tool call`,
      // The plugin registers with the daemon when Hermes loads it; without that key it trusts no answer.
      /DaemonError/.test(p.status.error ?? '') ? 'start the daemon (tollgate serve) before Hermes, then restart Hermes' : 'fix the cause, e.g. its config.json; then restart Hermes'));
  } else if (p.hardline?.action !== 'block') {
    const others = (p.pre_tool_call_callbacks ?? []).filter((n) => !/tollgate/.test(n));
    checks.push(fail('plugin.probe', title, `through ${via}, \`${hardlineProbe}\` was answered ${p.hardline?.action ?? 'with nothing (the call would run)'}${others.length > 0 ? `; other pre_tool_call callbacks: ${others.join(', ')}` : ''}`, 'see the checks above; a plugin answering approve before tollgate hides its block'));
  } else if (p.plain?.action === 'block') {
    checks.push(warn('plugin.probe', title, `through ${via}, \`${hardlineProbe}\` is blocked, but so is \`${plainProbe}\`: ${p.plain.message ?? ''}`, 'check that the plugin reaches the daemon (plugin\'s daemon socket above)'));
  } else {
    checks.push(ok('plugin.probe', title, `through ${via}: \`${hardlineProbe}\` blocked, \`${plainProbe}\` allowed${p.status?.first === true ? '; tollgate runs first' : ''} (${p.ms ?? '?'} ms, python: ${python.why})`));
  }
  if (p.mode === 'hermes' && p.hermes_version && p.hermes_version !== pinnedHermes)
    checks.push(warn('hermes.version', 'Hermes version', `hermes-agent ${p.hermes_version}; tollgate is tested with ${pinnedHermes}`, `pip install hermes-agent==${pinnedHermes}, or run the e2e tests against this version`));
  return checks;
};

const otherDeciders = (home: string, values: Record<string, unknown>, probe: PluginProbeResult | null, env: HermesEnv): Check[] => {
  const title = 'other plugins deciding tool calls';
  const checks: Check[] = [];
  if (probe?.ran === true && probe.probe.mode === 'hermes' && probe.probe.plugins) {
    const others = probe.probe.plugins.filter((p) => p.enabled && p.hooks.includes('pre_tool_call') && p.key !== pluginName);
    if (others.length > 0) checks.push(warn('plugins.others', title, `${others.map((p) => `${p.key} (${p.source ?? '?'})`).join(', ')} also register pre_tool_call: in Hermes 0.19 the first block-or-approve answer wins, so one that runs before tollgate and answers approve hides tollgate's block${probe.probe.status?.first === true ? ' (right now tollgate runs first)' : ''}`, 'disable them (plugins.disabled) unless you trust what they answer'));
    else checks.push(ok('plugins.others', title, 'Hermes loaded no other plugin with a pre_tool_call hook'));
  } else {
    const { enabled, disabled } = pluginsSection(values);
    const listed = (enabled ?? []).filter((n): n is string => typeof n === 'string' && n !== pluginName && !disabled.includes(n));
    const found = userPlugins(home).filter((p) => p.key !== pluginName);
    const active = found.filter((p) => listed.includes(p.key) || listed.includes(p.name));
    const deciding = active.filter((p) => p.decides);
    const unseen = listed.filter((n) => !found.some((p) => p.key === n || p.name === n));
    const unseenNote = unseen.length > 0 ? `; enabled but not in ${join(home, 'plugins')} (bundled or pip plugins, not inspected without Hermes' Python): ${unseen.join(', ')}` : '';
    if (deciding.length > 0) checks.push(warn('plugins.others', title, `${deciding.map((p) => p.key).join(', ')} mention pre_tool_call: in Hermes 0.19 the first block-or-approve answer wins, so one that runs before tollgate and answers approve hides tollgate's block${unseenNote}`, 'disable them (plugins.disabled) unless you trust what they answer'));
    else checks.push(ok('plugins.others', title, `no other enabled plugin in ${join(home, 'plugins')} has a pre_tool_call hook${unseenNote}`));
  }
  if (isTruthy(env.values['HERMES_ENABLE_PROJECT_PLUGINS']))
    checks.push(warn('plugins.project', 'project plugins', `HERMES_ENABLE_PROJECT_PLUGINS is set (${env.sourceOf('HERMES_ENABLE_PROJECT_PLUGINS')}): plugins in ./.hermes/plugins of the folder Hermes runs in load too, and an agent can write them`, 'unset HERMES_ENABLE_PROJECT_PLUGINS'));
  return checks;
};

interface HookContext {
  readonly consented: boolean;
  readonly autoAccept: boolean;
  readonly pluginActive: boolean;
  readonly env: HermesEnv;
  readonly probeId: string;
  readonly socket: string;
  readonly hookEntries: readonly HookEntry[];
}

const shellHookChecks = async (h: HookEntry, ctx: HookContext): Promise<Check[]> => {
  const id = `shell_hook.${h.event}`;
  const title = `shell hook ${h.event}`;
  const checks: Check[] = [];
  const severe = ctx.pluginActive ? warn : fail;
  if (!ctx.consented) {
    checks.push(severe(`${id}.consent`, `${title}: consent`, `not accepted (not in ${allowlistFile}, no hooks_auto_accept, no HERMES_ACCEPT_HOOKS): Hermes skips it with only a log line — listed is not active`, 'tollgate install hermes --shell-hook (records the consent), or accept it at Hermes\' prompt, or set hooks_auto_accept: true'));
  } else {
    checks.push(ok(`${id}.consent`, `${title}: consent`, ctx.autoAccept ? 'accepted by hooks_auto_accept / HERMES_ACCEPT_HOOKS' : `accepted in ${allowlistFile}`));
  }
  if (h.entry['fail_closed'] !== true)
    checks.push(warn(`${id}.fail_closed`, `${title}: fail_closed`, 'not set: a Hermes that honours it would run the call when the hook crashes or times out', 'tollgate install hermes --shell-hook (sets fail_closed: true)'));
  const timeout = Number.isInteger(h.entry['timeout']) && (h.entry['timeout'] as number) >= 1 ? Math.min(h.entry['timeout'] as number, 300) : 60;
  const hookDeadline = hookTimeoutMsOf(h.command);
  if (timeout * 1000 <= hookDeadline)
    checks.push(warn(`${id}.timeout`, `${title}: timeout`, `Hermes kills it after ${timeout} s, before its own ${hookDeadline} ms deadline answers a block; Hermes 0.19 then runs the call`, `set timeout above ${Math.ceil(hookDeadline / 1000)} (tollgate install hermes --shell-hook writes 10)`));
  if (h.event === 'pre_tool_call') {
    const missed = toolsTheHookMustSee.filter((t) => !fullMatches(h.entry['matcher'], t));
    if (missed.length > 0) checks.push(warn(`${id}.matcher`, `${title}: matcher`, `matcher ${JSON.stringify(h.entry['matcher'])} does not cover ${missed.join(', ')}: those calls never reach tollgate through the hook`, 'use matcher ".*"'));
    checks.push(await probeShellHook(h, timeout, ctx, severe));
  }
  return checks;
};

const probeShellHook = async (h: HookEntry, timeout: number, ctx: HookContext, severe: typeof fail): Promise<Check> => {
  const id = `shell_hook.${h.event}.probe`;
  const title = `shell hook ${h.event}: probe decision`;
  const session = `${ctx.probeId}-hook`;
  const env = { ...ctx.env.values };
  const llmHook = ctx.hookEntries.find((e) => e.event === 'pre_llm_call');
  const userMessage = { session_id: session, task_id: '', turn_id: `${session}:turn`, user_message: 'tollgate doctor: probe that the hook answers', conversation_history: [], is_first_turn: true, model: 'probe', platform: 'cli', sender_id: null };
  if (llmHook) await runShellHook(llmHook.command, 'pre_llm_call', userMessage, timeout, env);
  else {
    // No hook reports the user's words: start the probe session directly, so the probe shows the hook's own answer.
    await requestOverSocket(ctx.socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: session, user_message: userMessage.user_message }, {}, { timeoutMs: 5000, agent: false }).catch(() => undefined);
  }
  const call = (command: string, n: number) => runShellHook(h.command, 'pre_tool_call',
    { tool_name: 'terminal', args: { command }, task_id: '', session_id: session, tool_call_id: `${session}-${n}`, turn_id: `${session}:turn`, api_request_id: '', middleware_trace: [] }, timeout, env);
  const hard = await call(hardlineProbe, 1);
  if (hard.problem !== null) return severe(id, title, `${JSON.stringify(h.command)}: ${hard.problem}`, 'tollgate install hermes --shell-hook (rewrites the command with this node and this tollgate)');
  if (!hard.blocked) return severe(id, title, `${JSON.stringify(h.command)} did not block \`${hardlineProbe}\` (stdout: ${JSON.stringify(hard.run?.stdout.slice(0, 200) ?? '')})`, 'tollgate install hermes --shell-hook');
  const plain = await call(plainProbe, 2);
  if (plain.blocked) return warn(id, title, `blocks \`${hardlineProbe}\`, but also \`${plainProbe}\`: ${plain.message ?? ''}`, 'check the hook\'s --socket and that the daemon runs');
  return ok(id, title, `as Hermes runs it: \`${hardlineProbe}\` blocked, \`${plainProbe}\` allowed (${Math.round(hard.run?.ms ?? 0)} ms per call)${h.entry['fail_closed'] === true ? '; note hermes-agent 0.19 ignores fail_closed: if node cannot start, the call runs' : ''}`);
};
