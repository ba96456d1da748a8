/** The flags `install system` and `uninstall system` share: every location and account name can be changed. */
import { Command } from 'commander';
import type { SystemLayoutOptions } from '../../install/systemLayout.ts';
import { UsageError } from '../usageError.ts';

export interface SystemFlags {
  prefix?: string; etcDir?: string; stateDir?: string; runDir?: string; codeDir?: string; binDir?: string; unitDir?: string; tmpfilesDir?: string;
  user?: string; group?: string; approverGroup?: string; dryRun?: boolean;
}

export const withSystemOptions = (command: Command): Command => command
  .option('--prefix <dir>', 'root under which every default location lies (default: /)')
  .option('--etc-dir <dir>', 'configuration folder (default: <prefix>/etc/tollgate)')
  .option('--state-dir <dir>', 'data, keys and checkpoints (default: <prefix>/var/lib/tollgate)')
  .option('--run-dir <dir>', 'socket folder (default: <prefix>/run/tollgate; the human socket is in its human/)')
  .option('--code-dir <dir>', 'where the code is copied (default: <prefix>/opt/tollgate)')
  .option('--bin-dir <dir>', 'where the tollgate link goes (default: <prefix>/usr/local/bin)')
  .option('--unit-dir <dir>', 'systemd unit folder (default: <prefix>/etc/systemd/system)')
  .option('--tmpfiles-dir <dir>', 'tmpfiles.d folder (default: <prefix>/etc/tmpfiles.d)')
  .option('--user <name>', 'the daemon\'s system user (default: tollgate)')
  .option('--group <name>', 'the daemon\'s group (default: the user\'s name)')
  .option('--approver-group <name>', 'the group that may enter the human socket\'s folder (default: tollgate-approvers)')
  .option('--dry-run', 'print the changes and make none');

export const layoutOptions = (flags: SystemFlags): SystemLayoutOptions => {
  const out: Record<string, string> = {};
  for (const key of ['prefix', 'etcDir', 'stateDir', 'runDir', 'codeDir', 'binDir', 'unitDir', 'tmpfilesDir', 'user', 'group', 'approverGroup'] as const) {
    const value = flags[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
};

/** Changing accounts and root-owned files needs root; a dry run only looks. */
export const requireRoot = (what: string, dryRun: boolean): void => {
  if (!dryRun && process.getuid?.() !== 0) throw new UsageError(`${what} changes users, groups and root-owned files: run it as root (sudo ${what}), or add --dry-run to see the plan`, 1);
};
