/**
 * `tollgate install system` / `uninstall system`: the separate-principal deployment. The daemon runs as its own
 * system user; the agent's user can neither write its configuration, code or socket folder, nor read or write its
 * data and keys, nor enter the human socket's folder (only the approvers' group may). Locations: systemLayout.ts.
 *
 * Both commands plan first (every step says what it would change), so a second run reports "unchanged" and
 * --dry-run prints the plan without touching anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  addSystemGroup, addSystemUser, addToGroup, deleteGroup, deleteUser, groupsOfUser, lookupGroup, lookupUser, noLoginShell,
} from './accounts.ts';
import { repoRoot } from './installHermes.ts';
import { configText, runtimeSocketMode, tmpfilesText, unitText, writtenBy } from './systemFiles.ts';
import { codeEntries, codeMarker, systemLayout, type SystemLayout, type SystemLayoutOptions } from './systemLayout.ts';
import { codeStep, dirStep, fileStep, removeStep, symlinkStep, type Step } from './systemSteps.ts';

export interface SystemInstallOptions extends SystemLayoutOptions {
  /** Users added to the approvers' group (they answer questions on the human socket). */
  readonly approvers?: readonly string[];
  /** Users Hermes runs as: refused if they are approvers, in the daemon's group, or root. */
  readonly agents?: readonly string[];
  /** Write the systemd unit. @defaultValue whether <prefix>/etc/systemd exists */
  readonly systemd?: boolean;
  /** @defaultValue process.execPath */
  readonly node?: string;
  /** The clone to install from. @defaultValue this tollgate */
  readonly source?: string;
  readonly dryRun?: boolean;
}

export interface SystemReport {
  readonly layout: SystemLayout;
  readonly steps: readonly Step[];
  /** Steps that changed (or, in a dry run, would change) something. */
  readonly changed: readonly Step[];
  readonly text: string;
}

const groupStep = (name: string): Step => ({
  subject: `group ${name}`,
  change: lookupGroup(name) === null ? 'create (groupadd --system)' : null,
  apply: () => { if (lookupGroup(name) === null) addSystemGroup(name); },
});

const userStep = (layout: SystemLayout): Step => {
  const user = lookupUser(layout.user);
  if (user !== null && user.uid === 0) throw new Error(`${layout.user} is root: the daemon needs its own unprivileged user`);
  return {
    subject: `user ${layout.user} (system, group ${layout.group}, home ${layout.stateDir}, shell ${noLoginShell()})`,
    change: user === null ? 'create (useradd --system)' : null,
    apply: () => { if (lookupUser(layout.user) === null) addSystemUser(layout.user, layout.group, layout.stateDir); },
  };
};

const memberStep = (user: string, group: string, why: string): Step => ({
  subject: `${user} in group ${group} (${why})`,
  change: lookupUser(user) !== null && groupsOfUser(user).includes(group) ? null : 'add (usermod --append --groups)',
  apply: () => { if (!groupsOfUser(user).includes(group)) addToGroup(user, group); },
});

const hasSystemd = (layout: SystemLayout, options: SystemInstallOptions): boolean => options.systemd ?? existsSync(join(layout.prefix, 'etc', 'systemd'));

export const planSystemInstall = (options: SystemInstallOptions = {}): { layout: SystemLayout; steps: Step[] } => {
  const layout = systemLayout(options);
  const node = options.node ?? process.execPath;
  const source = resolve(options.source ?? repoRoot);
  for (const approver of options.approvers ?? []) {
    if (lookupUser(approver) === null) throw new Error(`--approver ${approver}: no such user`);
    if (approver === layout.user) throw new Error(`--approver ${approver}: the daemon's own user cannot be an approver`);
  }
  for (const agent of options.agents ?? []) {
    const user = lookupUser(agent);
    if (user === null) throw new Error(`--agent ${agent}: no such user`);
    const problem = user.uid === 0 ? 'is root'
      : agent === layout.user ? 'is the daemon\'s own user'
        : (options.approvers ?? []).includes(agent) || groupsOfUser(agent).includes(layout.approverGroup) ? `is an approver (in ${layout.approverGroup}): it could answer its own questions`
          : groupsOfUser(agent).includes(layout.group) ? `is in the daemon's group ${layout.group}` : null;
    if (problem !== null) throw new Error(`--agent ${agent} ${problem}; Hermes must run as a user with none of tollgate's powers`);
  }
  const existingConfig = existsSync(layout.configFile) ? readFileSync(layout.configFile, 'utf8') : null;
  const steps: Step[] = [
    groupStep(layout.group),
    groupStep(layout.approverGroup),
    userStep(layout),
    // So the daemon may give the human socket and its folder the approvers' group (server.human_group: chown, 0660/0750).
    memberStep(layout.user, layout.approverGroup, 'the daemon owns the human socket'),
    ...(options.approvers ?? []).map((a) => memberStep(a, layout.approverGroup, 'approver')),
    dirStep(layout.etcDir, { owner: 'root', group: layout.group, mode: 0o750 }),
    fileStep(layout.configFile, configText(layout, existingConfig), { owner: 'root', group: layout.group, mode: 0o640 },
      `data, ledger and sockets under ${layout.stateDir} and ${layout.runDir}`),
    dirStep(layout.stateDir, { owner: layout.user, group: layout.group, mode: 0o700 }),
    dirStep(layout.runDir, { owner: layout.user, group: layout.group, mode: 0o755 }),
    dirStep(layout.humanDir, { owner: layout.user, group: layout.approverGroup, mode: 0o750 }),
    codeStep(source, layout.codeDir, codeEntries, codeMarker),
    symlinkStep(layout.binLink, join(layout.codeDir, 'bin', 'tollgate.mjs')),
  ];
  if (hasSystemd(layout, options)) {
    steps.push(
      fileStep(layout.tmpfilesFile, tmpfilesText(layout), { owner: 'root', group: 'root', mode: 0o644 }, 'recreates the /run folders at boot'),
      fileStep(layout.unitFile, unitText(layout, node), { owner: 'root', group: 'root', mode: 0o644 }, `runs the daemon as ${layout.user}`),
    );
  }
  return { layout, steps };
};

const systemdRunning = (layout: SystemLayout): boolean => layout.prefix === '/' && existsSync('/run/systemd/system');

const report = (title: string, steps: readonly Step[], dryRun: boolean, tail: readonly string[]): string => {
  const changed = steps.filter((s) => s.change !== null);
  const lines = [title];
  for (const s of steps) lines.push(`  ${s.change === null ? 'unchanged' : dryRun ? 'would    ' : 'changed  '}  ${s.subject}${s.change === null ? '' : `: ${s.change}`}`);
  lines.push('', changed.length === 0 ? 'unchanged: nothing to do, the system is already as asked.'
    : dryRun ? `dry run: ${changed.length} step${changed.length === 1 ? '' : 's'} would change something (nothing was written).`
      : `${changed.length} step${changed.length === 1 ? '' : 's'} changed something.`);
  return `${[...lines, ...tail].join('\n')}\n`;
};

const nextSteps = (layout: SystemLayout, systemd: boolean, node: string): string[] => [
  '',
  'next:',
  systemd
    ? '  systemctl daemon-reload && systemctl enable --now tollgate     # start the daemon as ' + layout.user
    : `  runuser -u ${layout.user} -- ${node} ${layout.codeDir}/bin/tollgate.mjs -c ${layout.configFile} serve     # no systemd: start it yourself`,
  `  as the user Hermes runs as (the agent's user — NOT an approver, NOT in ${layout.group}):`,
  `    tollgate install hermes --socket ${layout.socket}`,
  `    (or set TOLLGATE_SOCKET=${layout.socket} in Hermes' environment; the plugin's settings.py reads it)`,
  `  approvers (members of ${layout.approverGroup}) answer questions: tollgate approvals --socket ${layout.humanSocket}; tollgate approve <id> once --socket ${layout.humanSocket}`,
  `  check it as the agent's user: tollgate doctor --socket ${layout.socket}`,
  `The runtime socket is mode ${runtimeSocketMode}: any local user may ask for decisions; answers and allowlist changes come only through ${layout.humanSocket}.`,
];

export const installSystem = (options: SystemInstallOptions = {}): SystemReport => {
  const { layout, steps } = planSystemInstall(options);
  const dryRun = options.dryRun ?? false;
  const systemd = hasSystemd(layout, options);
  if (!dryRun) for (const step of steps) if (step.change !== null) step.apply();
  const changed = steps.filter((s) => s.change !== null);
  if (!dryRun && systemd && systemdRunning(layout) && changed.length > 0) spawnSync('systemctl', ['daemon-reload'], { stdio: 'ignore' });
  const text = report(`tollgate install system — daemon user ${layout.user}, config ${layout.configFile}, data ${layout.stateDir}, sockets ${layout.runDir}, code ${layout.codeDir}`,
    steps, dryRun, nextSteps(layout, systemd, options.node ?? process.execPath));
  return { layout, steps, changed, text };
};

// -- uninstall ------------------------------------------------------------------------------------------------------

export interface SystemUninstallOptions extends SystemLayoutOptions {
  /** Also remove the configuration, the data (ledger, keys: not recoverable) and the users and groups. */
  readonly purge?: boolean;
  readonly dryRun?: boolean;
}

const writtenByUs = (path: string) => (): string | null => (readFileSync(path, 'utf8').startsWith(writtenBy) ? null : 'not written by tollgate install system');

export const planSystemUninstall = (options: SystemUninstallOptions = {}): { layout: SystemLayout; steps: Step[] } => {
  const layout = systemLayout(options);
  const steps: Step[] = [];
  if (systemdRunning(layout) && existsSync(layout.unitFile)) steps.push({
    subject: 'service tollgate', change: 'stop and disable (systemctl disable --now tollgate)',
    apply: () => { spawnSync('systemctl', ['disable', '--now', 'tollgate'], { stdio: 'ignore' }); },
  });
  steps.push(
    removeStep(layout.unitFile, 'unit', writtenByUs(layout.unitFile)),
    removeStep(layout.tmpfilesFile, 'tmpfiles.d entry', writtenByUs(layout.tmpfilesFile)),
    removeStep(layout.binLink, 'link', () => (lstatSync(layout.binLink).isSymbolicLink() && dirname(dirname(readlinkSync(layout.binLink))) === layout.codeDir ? null : 'not our link')),
    removeStep(layout.codeDir, 'code', () => (existsSync(join(layout.codeDir, codeMarker)) ? null : `no ${codeMarker} in it`)),
    removeStep(layout.runDir, 'sockets folder'),
  );
  if (options.purge) {
    steps.push(removeStep(layout.etcDir, 'configuration folder'), removeStep(layout.stateDir, 'data folder (ledger, payloads, keys)'));
    steps.push({ subject: `user ${layout.user}`, change: lookupUser(layout.user) === null ? null : 'delete (userdel)', apply: () => deleteUser(layout.user) });
    for (const g of [layout.group, layout.approverGroup]) {
      steps.push({ subject: `group ${g}`, change: lookupGroup(g) === null ? null : 'delete (groupdel)', apply: () => { if (lookupGroup(g) !== null) deleteGroup(g); } });
    }
  }
  return { layout, steps };
};

export const uninstallSystem = (options: SystemUninstallOptions = {}): SystemReport => {
  const { layout, steps } = planSystemUninstall(options);
  const dryRun = options.dryRun ?? false;
  if (!dryRun) for (const step of steps) if (step.change !== null) step.apply();
  const changed = steps.filter((s) => s.change !== null);
  if (!dryRun && systemdRunning(layout) && changed.length > 0) spawnSync('systemctl', ['daemon-reload'], { stdio: 'ignore' });
  const kept = options.purge ? [] : ['', `kept (remove with --purge): ${layout.configFile}, ${layout.stateDir} (ledger, keys), user ${layout.user}, groups ${layout.group} and ${layout.approverGroup}`];
  const text = report(`tollgate uninstall system${options.purge ? ' --purge' : ''} — ${layout.codeDir}, ${layout.runDir}${options.purge ? `, ${layout.etcDir}, ${layout.stateDir}` : ''}`, steps, dryRun, kept);
  return { layout, steps, changed, text };
};
