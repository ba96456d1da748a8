/**
 * Doctor checks for the separate-principal setup: run as the agent's user, they test what that user can actually do
 * (access(2) with its uid and groups), not what the modes seem to say. A socket owned by the caller means the
 * single-user setup, where these checks cannot hold: one WARN line then says so and points to `install system`.
 */
import { accessSync, constants, lstatSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { groupNameOf, userNameOf } from '../install/accounts.ts';
import { fail, ok, warn, type Check } from './checks.ts';

export interface PrincipalInputs {
  /** The runtime socket. */
  readonly socket: string;
  /** The human socket, or null when none is configured. */
  readonly humanSocket: string | null;
  /** The configuration file, or null when the daemon's defaults are used. */
  readonly configFile: string | null;
  readonly dataDir: string;
  /** The SQLite ledger file when it lies outside the data folder. */
  readonly ledgerFile?: string | null;
  /** @defaultValue process.getuid() */
  readonly uid?: number;
  /** @defaultValue process.getgroups() */
  readonly groups?: readonly number[];
  /** @defaultValue /proc/sys/kernel/yama/ptrace_scope */
  readonly ptraceScopeFile?: string;
}

const can = (path: string, mode: number): boolean => { try { accessSync(path, mode); return true; } catch { return false; } };
const exists = (path: string): boolean => { try { lstatSync(path); return true; } catch { return false; } };
const who = (uid: number): string => `${userNameOf(uid) ?? 'uid'} (uid ${uid})`;

/** What the caller may do to a path: the words for the verbs it can, [] when none. */
const powers = (path: string, verbs: readonly ['read' | 'write' | 'enter', number][]): string[] => verbs.filter(([, m]) => can(path, m)).map(([v]) => v);

export const ptraceCheck = (file = '/proc/sys/kernel/yama/ptrace_scope'): Check => {
  const id = 'principal.ptrace';
  const title = 'kernel.yama.ptrace_scope';
  let text: string;
  try { text = readFileSync(file, 'utf8').trim(); } catch {
    return warn(id, title, `not available (${file} does not exist: no Yama LSM here), so a process may trace and read the memory of any other process of its user — the runtime's registration included`, 'use a kernel with Yama and set kernel.yama.ptrace_scope=1 (sysctl), or run the runtime and its approver as different users');
  }
  const scope = Number(text);
  if (!Number.isInteger(scope)) return warn(id, title, `${file} holds ${JSON.stringify(text)}`);
  if (scope < 1) return warn(id, title, `${scope}: any process may trace its user's other processes (the agent's tools could read the runtime's memory)`, 'sysctl -w kernel.yama.ptrace_scope=1 (and in /etc/sysctl.d/)');
  return ok(id, title, `${scope}: a process may trace only its own descendants${scope >= 2 ? ' (or only with CAP_SYS_PTRACE)' : ''}`);
};

export const principalChecks = (inputs: PrincipalInputs): Check[] => {
  const uid = inputs.uid ?? process.getuid?.() ?? -1;
  const groups = inputs.groups ?? process.getgroups?.() ?? [];
  const ptrace = ptraceCheck(inputs.ptraceScopeFile);
  let socketOwner: number;
  try { socketOwner = lstatSync(inputs.socket).uid; } catch (error) {
    return [warn('principal.daemon_user', 'daemon runs as its own user', `cannot tell: ${inputs.socket} is not there (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 'start the daemon, or pass --socket'), ptrace];
  }
  if (socketOwner === uid) {
    return [warn('principal.single_user', 'separate principals', `single-user setup: the daemon runs as you, ${who(uid)} (it owns ${inputs.socket}), so a process the agent starts as this user can reach tollgate's configuration, data, keys and socket; the self-protection floor blocks the recognised ways, and out-of-band answers are refused unless approvals.out_of_band is set`,
      'for separate principals: sudo tollgate install system (README, "Deployments"), then run Hermes as a user who is not an approver'), ptrace];
  }
  const checks: Check[] = [ok('principal.daemon_user', 'daemon runs as its own user', `the socket belongs to ${who(socketOwner)}; you are ${who(uid)}`)];
  if (uid === 0) {
    checks.push(warn('principal.access', 'what the agent\'s user can reach', 'doctor runs as root, which can reach everything: the access checks mean nothing for root', 'run it as the user Hermes runs as: runuser -u <agent> -- tollgate doctor --socket <socket>'), ptrace);
    return checks;
  }

  // The configuration: neither the file nor its folder writable (a writable folder lets the file be replaced).
  if (inputs.configFile === null) checks.push(warn('principal.config', 'configuration not writable by you', 'no configuration file given (-c or TOLLGATE_CONFIG): not checked'));
  else {
    const bad = [...(can(inputs.configFile, constants.W_OK) ? [`you can write ${inputs.configFile}`] : []), ...(can(dirname(inputs.configFile), constants.W_OK) ? [`you can replace files in ${dirname(inputs.configFile)}`] : [])];
    if (bad.length > 0) checks.push(fail('principal.config', 'configuration not writable by you', `${bad.join('; ')}: the agent could turn the guard off (yolo, approvals.mode)`, 'sudo tollgate install system (config root:tollgate 0640 in a root-owned folder)'));
    else checks.push(ok('principal.config', 'configuration not writable by you', `${inputs.configFile}: not writable, folder not writable${can(inputs.configFile, constants.R_OK) ? '' : ', not readable'}`));
  }

  // Data and keys: not even readable (they hold what the user typed and the keys that sign checkpoints).
  const dataPowers = powers(inputs.dataDir, [['read', constants.R_OK], ['write', constants.W_OK], ['enter', constants.X_OK]]);
  const keys = join(inputs.dataDir, 'keys');
  const keyPowers = exists(keys) ? powers(keys, [['read', constants.R_OK], ['write', constants.W_OK], ['enter', constants.X_OK]]) : [];
  const ledgerPowers = inputs.ledgerFile && dirname(inputs.ledgerFile) !== inputs.dataDir && exists(inputs.ledgerFile)
    ? powers(inputs.ledgerFile, [['read', constants.R_OK], ['write', constants.W_OK]]) : [];
  if (!exists(inputs.dataDir) && !can(dirname(inputs.dataDir), constants.X_OK)) checks.push(ok('principal.data', 'data and keys out of your reach', `${inputs.dataDir}: its parent folder is closed to you`));
  else if (!exists(inputs.dataDir)) checks.push(warn('principal.data', 'data and keys out of your reach', `${inputs.dataDir} does not exist: not checked`, 'pass --data-dir with the daemon\'s data.dir'));
  else if (dataPowers.length + keyPowers.length + ledgerPowers.length > 0) {
    const what = [
      ...(dataPowers.length > 0 ? [`${inputs.dataDir}: you can ${dataPowers.join(', ')}`] : []),
      ...(keyPowers.length > 0 ? [`${keys}: you can ${keyPowers.join(', ')}`] : []),
      ...(ledgerPowers.length > 0 ? [`${inputs.ledgerFile}: you can ${ledgerPowers.join(', ')}`] : []),
    ];
    checks.push(fail('principal.data', 'data and keys out of your reach', `${what.join('; ')}: the agent could read what the user typed, or forge and delete the record`, 'sudo tollgate install system (data tollgate:tollgate 0700)'));
  } else checks.push(ok('principal.data', 'data and keys out of your reach', `${inputs.dataDir}: you can neither read, write nor enter it`));

  // The socket folder: who can write it can remove the socket and bind a fake daemon in its place.
  const socketDir = dirname(inputs.socket);
  if (can(socketDir, constants.W_OK)) checks.push(fail('principal.socket_dir', 'socket folder not writable by you', `you can create, replace and remove files in ${socketDir}: the agent could bind a fake daemon on ${inputs.socket}`, 'sudo tollgate install system (socket folder owned by the daemon\'s user, 0755)'));
  else checks.push(ok('principal.socket_dir', 'socket folder not writable by you', `${socketDir}: not writable (the socket can be used, not replaced)`));

  // The human channel: a folder only the approvers' group may enter.
  if (inputs.humanSocket === null) checks.push(warn('principal.human_dir', 'human socket closed to you', 'no human socket is configured (server.human_socket): answers and allowlist changes come over the runtime socket, which the agent\'s user can open', 'sudo tollgate install system (sets server.human_socket)'));
  else {
    const humanDir = dirname(inputs.humanSocket);
    let dirGroup: number | null = null;
    try { dirGroup = statSync(humanDir).gid; } catch { /* not there */ }
    if (!can(humanDir, constants.X_OK)) checks.push(ok('principal.human_dir', 'human socket closed to you', `you cannot enter ${humanDir}, so you cannot answer questions or change the allowlist`));
    else if (dirGroup !== null && groups.includes(dirGroup)) checks.push(ok('principal.human_dir', 'human socket closed to you', `you may enter ${humanDir}: you are in its group ${groupNameOf(dirGroup) ?? dirGroup}, an approver. Hermes must run as a user who is not`));
    else checks.push(fail('principal.human_dir', 'human socket closed to you', `you can enter ${humanDir} without being in its group: the agent could answer its own questions`, 'sudo tollgate install system (human folder tollgate:tollgate-approvers 0750)'));
  }
  checks.push(ptrace);
  return checks;
};
