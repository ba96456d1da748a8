/**
 * Set-up that a later, innocent call runs (red team 5, H): a unit systemd takes in, an environment its services
 * inherit, npm settings that load code into every node, a command git stores to run on `git status` that is a
 * file the floor cannot read, variables exported into every later command that make Python or Node load code
 * from elsewhere. The file-side twin is startupFiles.ts (a write of ~/.npmrc, .git/config, a unit file).
 * Ordinary settings stay allowed: `git config user.name`, `npm config set registry`, `systemctl --user start x`.
 */
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { CommandRule, CommandFinding, RunScripts } from './commandRules.ts';
import { embeddedTexts } from './embeddedCommands.ts';
import { viaAssignments } from './embeddedLanguages.ts';
import { settingRunsCode } from './programWrites.ts';
import { resolvePath } from './protectedPaths.ts';
import { contextOf, type LineScope } from './shellScope.ts';
import { placementExamples, placements, projectOwnSource, takesOverName, temporaryFolder } from './placedCode.ts';

/**
 * Variables that make a program load code from where they say: the dynamic loader's, Python's, Node's, Perl's
 * and Ruby's. Set for one command they only change that command (`NODE_OPTIONS=… node x` runs x, which the floor
 * judges as any script); handed to systemd or exported, every later program inherits them.
 */
export const loaderVariables = /^(?:LD_PRELOAD|LD_AUDIT|LD_LIBRARY_PATH|PYTHONPATH|PYTHONHOME|PYTHONSTARTUP|PYTHONUSERBASE|NODE_OPTIONS|NODE_PATH|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB|BASH_ENV|ENV|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS)$/;

/** Node flags that load a module or open a debugger any local process can drive. */
const nodeLoadingFlag = /(?:^|\s)(?:-r|--require|--import|--loader|--experimental-loader|--inspect(?:-brk|-port)?|--env-file)(?=[\s=]|$)/;

/** Folders the system's own code comes from: a search path there adds nothing the agent wrote. */
const systemFolder = /^\/(?:usr|lib|lib32|lib64|opt|nix|snap|gnu)(?:\/|$)/;

/**
 * Whether a search-path value (colon-separated folders) brings in code from outside the working tree and the
 * system: a temporary or other folder, the home, `..`, or a part the gate cannot read. The previous value
 * (`$PYTHONPATH:src`) and relative folders (the project's own) add nothing.
 */
const foreignSearchPath = (name: string, value: string | null, cwd: string | null): boolean => {
  if (value === null) return true;
  return value.split(':').some((part) => {
    if (part === '' || part === `$${name}` || part === `\${${name}}`) return false;
    if (/[$`]/.test(part.replace(/^\$(?:PWD|\{PWD\})(?=\/|$)/, ''))) return true;
    if (part.startsWith('~')) return true;
    if (!part.startsWith('/')) return part.split('/').includes('..');
    if (systemFolder.test(part)) return false;
    return cwd === null || !(part === cwd || part.startsWith(`${cwd}/`));
  });
};

/** Whether a loader variable's value loads code the floor did not read (the judgement per variable). */
export const loadsForeignCode = (name: string, value: string | null, cwd: string | null): boolean => {
  if (name === 'NODE_OPTIONS') return value === null || nodeLoadingFlag.test(value) || /[$`]/.test(value);
  if (name === 'JAVA_TOOL_OPTIONS' || name === '_JAVA_OPTIONS') return value === null || /-javaagent|-agentpath|-agentlib|-Xbootclasspath|[$`]/.test(value);
  if (name === 'PERL5OPT' || name === 'RUBYOPT') return value === null || /-[A-Za-z]*[Mmr]|-I|[$`]/.test(value);
  if (name === 'LD_PRELOAD' || name === 'LD_AUDIT' || name === 'BASH_ENV' || name === 'ENV' || name === 'PYTHONSTARTUP') return value === null || value.split(/[\s:]+/).some((p) => p !== '' && !systemFolder.test(p));
  return foreignSearchPath(name, value, cwd);
};

/** The working directory the command runs in, when known. */
const cwdOf = (command: SimpleCommand | null, scope: LineScope): string | null => {
  const context = command === null ? scope.contexts[0] : contextOf(scope, command);
  return context?.cwd ?? null;
};

// ---- systemd: units linked or enabled from a path, environments and drop-ins for every service ----

const systemctlVerbs = new Set(['link', 'enable', 'reenable', 'preset', 'edit', 'set-environment', 'import-environment', 'add-wants', 'add-requires']);

const systemctlFindings = (command: SimpleCommand, scope: LineScope): CommandFinding[] => {
  // dbus-update-activation-environment hands its NAME=VALUE pairs to the user's systemd as set-environment does.
  const dbus = command.program === 'dbus-update-activation-environment';
  if (command.program !== 'systemctl' && !dbus) return [];
  const operands = command.args.filter((a) => !a.startsWith('-'));
  const verb = dbus ? 'set-environment' : operands.find((a) => systemctlVerbs.has(a));
  if (verb === undefined) return [];
  const rest = dbus ? operands : operands.slice(operands.indexOf(verb) + 1);
  // `systemctl --user link /tmp/x.service`, `enable ./x.service`: a unit file from anywhere is taken in and run.
  if (verb === 'link' || ((verb === 'enable' || verb === 'reenable') && rest.some((u) => u.includes('/'))))
    return [{ id: 'hidden-command', what: `systemctl ${verb} of a unit file the floor cannot read, run by systemd later` }];
  // `systemctl edit x`: a drop-in written through an editor the floor does not see. Only tollgate's and Hermes'
  // units are the guard's; a unit the floor cannot name (none, `$U`, a glob) may be one of them.
  if (verb === 'edit' && (rest.length === 0 || rest.some((u) => /[$`*?[\]]|tollgate|hermes/i.test(u))))
    return [{ id: 'hidden-command', what: 'systemctl edit: a drop-in the floor cannot read, run by systemd later' }];
  if (verb === 'set-environment' || verb === 'import-environment') {
    const cwd = cwdOf(command, scope);
    for (const item of rest) {
      const eq = item.indexOf('=');
      const name = eq < 0 ? item : item.slice(0, eq);
      if (loaderVariables.test(name) && (verb === 'import-environment' || loadsForeignCode(name, item.slice(eq + 1), cwd)))
        return [{ id: 'hidden-command', what: `systemctl ${verb} ${name}: code loaded into every service started later` }];
    }
    // `import-environment` with no names takes the whole shell environment, whatever it holds.
    if (verb === 'import-environment' && rest.length === 0) return [{ id: 'hidden-command', what: 'systemctl import-environment: the whole environment handed to every later service' }];
  }
  return [];
};

// ---- npm, yarn and pnpm settings that run code in every later call ----

/** Keys (lower-cased, `_` as `-`) whose value is code or a program npm, yarn or pnpm runs. */
const packageManagerCodeKey = /^(?:node-options|script-shell|shell|editor|git|browser|viewer|init-module|onload-script|node-gyp|yarn-path|yarnpath|globalconfig|userconfig)$/;

const packageConfigFindings = (command: SimpleCommand): CommandFinding[] => {
  if (!['npm', 'yarn', 'pnpm', 'bun'].includes(command.program)) return [];
  const operands = command.args.filter((a) => !a.startsWith('-'));
  const at = operands[0] === 'config' || operands[0] === 'c' ? 1 : 0;
  const verb = operands[at];
  if (verb === 'edit' && at === 1) return [{ id: 'hidden-command', what: `${command.program} config edit: settings the floor cannot read` }];
  if (verb !== 'set' || (at === 0 && command.program !== 'npm' && command.program !== 'pnpm')) return [];
  const pairs = operands.slice(at + 1);
  for (let i = 0; i < pairs.length; i++) {
    const item = pairs[i]!;
    const key = (item.includes('=') ? item.slice(0, item.indexOf('=')) : item).toLowerCase().replace(/_/g, '-');
    // The value as given, options-like text included (`node-options '--require x'` drops out of the operands).
    const value = item.includes('=') ? item.slice(item.indexOf('=') + 1) : command.args[command.args.indexOf(item) + 1] ?? '';
    // `node-options=--max-old-space-size=4096`, `script-shell /bin/bash`: values that load nothing stay allowed.
    if (packageManagerCodeKey.test(key) && settingRunsCode(key, value)) return [{ id: 'hidden-command', what: `${command.program} config set ${key}: run by every later ${command.program} call` }];
    if (!item.includes('=')) i++;
  }
  return [];
};

// ---- a command stored for later (git config, crontab, at) that is a file the floor cannot read ----

const interpreters = /^(?:ba|z|da|k|mk)?sh$|^(?:python|python3|node|perl|ruby|php|lua|deno|bun)(?:[0-9.]*)$/;

/** The file a stored command runs: its program word as a path, or an interpreter's script operand. */
const fileRun = (text: string): string | null => {
  const words = text.replace(/^\s*!/, '').trim().split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  const first = (words[0] ?? '').replace(/^['"]|['"]$/g, '');
  if (first.includes('/')) return first;
  if (interpreters.test(first)) {
    const script = words.slice(1).find((w) => !w.startsWith('-'));
    if (script !== undefined && script.includes('/') && !words.slice(1).some((w) => /^-[A-Za-z]*c$|^-e$/.test(w))) return script.replace(/^['"]|['"]$/g, '');
  }
  return null;
};

const storedFileFindings = (command: SimpleCommand, scope: LineScope): CommandFinding[] => {
  if (command.program !== 'git' && command.program !== 'crontab' && command.program !== 'at' && command.program !== 'batch') return [];
  const context = contextOf(scope, command);
  for (const e of embeddedTexts(command, scope.analysis)) {
    if (e.when !== 'later' || e.text === null) continue;
    for (const line of e.text.split('\n')) {
      const file = fileRun(line);
      if (file === null) continue;
      // A relative file inside the work tree (`.git/hooks/query-watchman`) is the project's own, as its hooks are.
      if (!file.startsWith('/') && !file.startsWith('~') && !file.split('/').includes('..') && !/[$`]/.test(file)) continue;
      const absolute = resolvePath(file, context)?.absolute ?? null;
      if (absolute !== null && systemFolder.test(absolute)) continue;
      return [{ id: 'hidden-command', what: `${e.where}: runs ${file}, a file the floor cannot read, on a later call` }];
    }
  }
  return [];
};

// ---- git templates: their hooks run in the new repository during the clone ----

const gitTemplateFolders = /^\/usr\/(?:local\/)?share\/git-core\/templates\/?$/;
/** `git clone --template=DIR`, `git init --template DIR`, `-c init.templateDir=DIR`: DIR/hooks run unseen. */
/** `GIT_TEMPLATE_DIR=/tmp/t git init`, `env GIT_TEMPLATE_DIR=… git clone`: the folder set before the command. */
const templateFromEnvironment = (command: SimpleCommand): string[] =>
  viaAssignments(command.via).filter((a) => a.name === 'GIT_TEMPLATE_DIR').map((a) => a.value.trim());

const gitTemplateFindings = (command: SimpleCommand, scope: LineScope): CommandFinding[] => {
  if (command.program !== 'git') return [];
  const { args } = command;
  // Exported on this line (or set for it): init and clone copy the folder's hooks into the new repository.
  const exported = scope.analysis.exports?.['GIT_TEMPLATE_DIR'];
  const environment = [...templateFromEnvironment(command), ...(scope.analysis.exports !== undefined && 'GIT_TEMPLATE_DIR' in scope.analysis.exports ? [exported ?? '$GIT_TEMPLATE_DIR'] : [])];
  if (environment.length === 0 && !args.some((a) => a.startsWith('--template') || /^init\.templatedir=/i.test(a))) return [];
  const dirs = [...environment, ...args.flatMap((a, i) => a === '--template' ? [args[i + 1] ?? ''] : a.startsWith('--template=') ? [a.slice(11)] : /^init\.templatedir=/i.test(a) ? [a.slice(a.indexOf('=') + 1)] : [])];
  const foreign = dirs.find((d) => !gitTemplateFolders.test(d));
  return foreign === undefined ? [] : [{ id: 'hidden-command', what: `git template ${foreign || '?'}: its hooks, which the floor cannot read, run in the new repository` }];
};

// ---- code put where git or a later command name runs it (placedCode.ts) ----

/** Files written on the line before the command with a content the floor reads (`printf … > /tmp/h; cp /tmp/h …`). */
const writtenBefore = (analysis: ShellAnalysis, command: SimpleCommand): Set<string> => {
  const out = new Set<string>();
  for (const c of analysis.commands) {
    if (c === command) break;
    const known = c.program === 'echo' || c.program === 'printf' || ((c.program === 'cat' || c.program === 'tee') && c.stdin !== undefined);
    if (!known) continue;
    for (const r of c.redirects) if (r.op === '>' || r.op === '>>' || r.op === '>|') out.add(r.target);
    if (c.program === 'tee') for (const a of c.args) if (!a.startsWith('-')) out.add(a);
  }
  return out;
};

/**
 * A hook whose source the floor cannot read (absent, a variable, a remote copy, a binary, a folder copied whole),
 * or linked to a temporary folder any later call may fill: hidden code git runs on the next commit. A command name
 * taken over by a guard program or by other code. A readable source is judged by its text (scriptReaders.ts' row).
 */
const placementFindings = (command: SimpleCommand, scope: LineScope, scripts: RunScripts): CommandFinding[] => {
  if (!placingCommands.has(command.program) && command.redirects.length === 0) return [];
  // With dotglob (or GLOBIGNORE) set, `cp /tmp/x/* ~/` lands dot files too (.bashrc), which the name rows assume it does not.
  if (/\bdotglob\b|\bGLOBIGNORE=/.test(scope.analysis.source) && command.args.some((a) => /[*?[]/.test(a)))
    return [{ id: 'hidden-command', what: `${command.program} of a glob with dot files matched (dotglob): startup files it may land are unread` }];
  const context = contextOf(scope, command);
  const found = placements(command, scope.analysis, context.home, context.cwd);
  if (found.length === 0) return [];
  const written = command === scope.analysis.commands[0] ? new Set<string>() : writtenBefore(scope.analysis, command);
  for (const p of found) {
    const where = p.place === 'command-name' ? `the command name ${p.placed}` : `${p.placed} (${p.place.name})`;
    const takeover = takesOverName(p);
    if (takeover !== null) return [{ id: 'hidden-command', what: `${where}: ${takeover}` }];
    if (p.place !== 'command-name' && p.place.byName) continue;
    if (p.whole) return [{ id: 'hidden-command', what: `${where}: a folder copied in whole, its files unread, run later` }];
    const absolute = p.source === null ? null : resolvePath(p.source, context)?.absolute ?? null;
    if (p.link && (p.source === null || (temporaryFolder.test(absolute ?? p.source) && !projectOwnSource(absolute ?? p.source, p.placed)))) return [{ id: 'hidden-command', what: `${where}: linked to ${p.written}, which may hold anything when it runs` }];
    const text = p.source !== null && written.has(p.written) ? 'written on the line' : absolute === null ? undefined : scripts[absolute];
    if (text === undefined && p.source !== null && projectOwnSource(absolute ?? p.source, p.placed)) continue;
    if (text === undefined || text === '') return [{ id: 'hidden-command', what: `${where}: ${p.written}, a file the floor cannot read, run later` }];
  }
  return [];
};
const placingCommands = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'scp', 'hash', 'tee', 'dd', 'curl', 'wget']);

export const persistenceCommandRules: readonly CommandRule[] = [
  {
    name: 'places-code-where-it-runs-later',
    find: placementFindings,
    ...placementExamples,
  },
  {
    name: 'git-template-hooks',
    find: gitTemplateFindings,
    stops: ['git clone --template=/tmp/tpl https://example.com/r /tmp/r', 'git init --template /tmp/tpl', 'git -c init.templateDir=/tmp/tpl clone https://example.com/r',
      'GIT_TEMPLATE_DIR=/tmp/t git init /tmp/r', 'env GIT_TEMPLATE_DIR=/tmp/t git clone https://example.com/r', 'export GIT_TEMPLATE_DIR=/tmp/t; git init'],
    allows: ['git clone https://example.com/r /tmp/r', 'git init', 'git clone --template=/usr/share/git-core/templates https://example.com/r', 'git log --template-x',
      'GIT_TEMPLATE_DIR=/usr/share/git-core/templates git init'],
  },
  {
    name: 'systemd-takes-in-a-unit-or-environment',
    find: systemctlFindings,
    stops: ['systemctl --user link /tmp/evil.service', 'systemctl --user enable /tmp/x.service', 'systemctl --user set-environment LD_PRELOAD=/tmp/e.so',
      "systemctl --user set-environment NODE_OPTIONS='--require /tmp/e.js'", 'systemctl --user import-environment PYTHONPATH', 'systemctl --user edit hermes-gateway.service', 'sudo systemctl link ./x.service',
      'systemctl --user import-environment', 'dbus-update-activation-environment --systemd LD_PRELOAD=/tmp/e.so',
      'systemctl --user edit "$UNIT"', 'systemctl --user edit --full \'*.service\'', 'sudo systemctl edit tollgate', 'systemctl --user edit'],
    allows: ['systemctl --user start app.service', 'systemctl --user enable --now app.service', 'systemctl status nginx', 'systemctl --user set-environment DISPLAY=:0',
      'systemctl --user daemon-reload', 'systemctl --user import-environment DISPLAY XAUTHORITY', 'systemctl list-units', 'dbus-update-activation-environment --systemd DISPLAY',
      'systemctl --user edit app', 'systemctl --user edit --full app.service', 'systemctl edit nginx'],
  },
  {
    name: 'package-manager-settings-that-run-code',
    find: packageConfigFindings,
    stops: ["npm config set node-options '--require /tmp/e.js'", 'npm config set script-shell /tmp/sh', 'npm set node-options=--require=/tmp/e.js', 'npm config --global set editor /tmp/e.sh',
      'pnpm config set node-options "-r /tmp/e.js"', 'yarn config set yarnPath /tmp/y.js', 'npm config edit', 'npm c set NODE_OPTIONS=-r/tmp/x'],
    allows: ['npm config get registry', 'npm config set registry https://registry.example.com/', 'npm config list', 'yarn config set npmRegistryServer https://r.example.com',
      'npm set init-author-name me', 'npm install', 'npm run set'],
  },
  {
    name: 'stored-command-runs-an-unread-file',
    find: storedFileFindings,
    stops: ['git config --global diff.external /tmp/e.sh', 'git -C /home/agent/project config core.fsmonitor /tmp/e.sh', "git config --global alias.st '!sh /tmp/e.sh'",
      "git config core.pager '~/bin/p'", "git config --global alias.x '!/tmp/e.sh'", "git config core.sshCommand 'python3 /tmp/s.py'", "echo '* * * * * /tmp/job.sh' | crontab -",
      'git config core.fsmonitor ../hook.sh'],
    allows: ['git config user.name me', 'git config core.pager less', "git config --global alias.st status", "git config core.editor 'code --wait'", 'git config core.editor /usr/bin/vim',
      "echo '0 3 * * * /usr/local/bin/backup.sh' | crontab -", "git config --global alias.lg '!git log --oneline'", 'git config diff.tool vimdiff',
      'git config core.fsmonitor .git/hooks/query-watchman'],
  },
];

/**
 * `export NODE_OPTIONS='--require /tmp/e.js'`, `export PYTHONPATH=/tmp/evil`: Hermes carries what a line exports
 * into every later command, so each later `npm test` or `python3` loads code the floor never read. A bare export
 * has no simple command: this reads the line's exports once (commandFindings calls it).
 */
export const exportedLoaderFindings = (analysis: ShellAnalysis, scope: LineScope): CommandFinding[] => {
  const exports = analysis.exports;
  if (exports === undefined) return [];
  const out: CommandFinding[] = [];
  for (const [name, value] of Object.entries(exports)) {
    // Every later `git init` and `git clone` copies this folder's hooks into the repository it makes.
    if (name === 'GIT_TEMPLATE_DIR' && !gitTemplateFolders.test(value ?? writtenValue(analysis.source, name) ?? '$GIT_TEMPLATE_DIR')) {
      out.push({ id: 'hidden-command', what: 'exported GIT_TEMPLATE_DIR: its hooks, which the floor cannot read, go into every repository git makes later' });
      continue;
    }
    // LD_PRELOAD, BASH_ENV and the like are judged (with their written files) by embeddedCommands' exports.
    if (!loaderVariables.test(name) || /^(?:LD_PRELOAD|LD_AUDIT|BASH_ENV|ENV|PYTHONSTARTUP)$/.test(name)) continue;
    if (loadsForeignCode(name, value ?? writtenValue(analysis.source, name), cwdOf(null, scope))) out.push({ id: 'hidden-command', what: `exported ${name}: code loaded into every later program from where the floor cannot read` });
  }
  return out;
};

/**
 * The value as the line spells it, where the analysis could not know it (`$PYTHONPATH:src`, `$PWD/lib`): its
 * parts are judged one by one. Null when the line does not spell it (`read X; export X`).
 */
const writtenValue = (source: string, name: string): string | null => {
  const match = new RegExp(`(?:^|[\\s;&|(])${name}=("[^"]*"|'[^']*'|[^\\s;&|)]*)`).exec(source);
  return match === null ? null : match[1]!.replace(/^(["'])([\s\S]*)\1$/, '$2');
};

export const exportedLoaderExamples = {
  stops: ["export NODE_OPTIONS='--require /tmp/e.js'", 'export PYTHONPATH=/tmp/evil', 'export NODE_OPTIONS=--import=/tmp/x.mjs', 'export PYTHONPATH=$PYTHONPATH:/tmp/x',
    'declare -x PERL5OPT=-MEvil', 'export RUBYOPT=-r/tmp/x', 'export NODE_OPTIONS="$X"', 'cd /home/agent/project && export PYTHONPATH=../other', 'export LD_LIBRARY_PATH=/tmp/l',
    'export JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar', 'export PYTHONPATH=~/evil', 'export GIT_TEMPLATE_DIR=/tmp/tpl'],
  allows: ['export NODE_OPTIONS=--max-old-space-size=4096', 'export PYTHONPATH=src', 'export PYTHONPATH=$PYTHONPATH:src', 'export LD_LIBRARY_PATH=/usr/local/cuda/lib64', 'export NODE_ENV=production', 'export PYTHONPATH=$PWD/lib', 'export PATH=$PATH:/opt/bin'],
};
