/** `tollgate install hermes`: put tollgate in front of a Hermes Agent (plugin, shell hook, or both). */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { hermesHomeOf } from '../../install/hermesConfig.ts';
import { installHermes, type InstallMode } from '../../install/installHermes.ts';
import { installSystem } from '../../install/installSystem.ts';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';
import { layoutOptions, requireRoot, withSystemOptions, type SystemFlags } from './systemOptions.ts';

const hermesCommand = (): Command => new Command('hermes')
  .description('Install the tollgate plugin into Hermes Agent (and/or its shell hook), idempotently, backing up every file it changes.')
  .option('--shell-hook', 'register the shell hook (hooks.pre_tool_call and hooks.pre_llm_call) instead of the plugin')
  .option('--both', 'install the plugin and register the shell hook for pre_tool_call')
  .option('--dry-run', 'print the changes and write nothing')
  .option('--hermes-home <dir>', 'Hermes home (default: $HERMES_HOME, then ~/.hermes)')
  .option('--socket <path>', 'daemon socket the plugin and hook use (default: server.socket of the configuration, made absolute)')
  .option('--no-accept', 'do not record consent to the shell hook in shell-hooks-allowlist.json (Hermes then asks, or skips it)')
  .addHelpText('after', `
Examples:
  tollgate install hermes                      # plugin into ~/.hermes (or $HERMES_HOME)
  tollgate install hermes --dry-run            # show what would change
  tollgate install hermes --shell-hook         # shell hook only (blocks tool calls; no reply checks)
  tollgate -c /srv/tollgate.yaml install hermes --both --hermes-home /srv/hermes

A second run changes nothing and says so. Each changed file is first copied to <file>.tollgate-backup-<time>.`)
  .action((options: { shellHook?: boolean; both?: boolean; dryRun?: boolean; hermesHome?: string; socket?: string; accept: boolean }, command: Command) => {
    if (options.shellHook && options.both) throw new UsageError('choose one of --shell-hook (hook only) and --both (plugin and hook)');
    const mode: InstallMode = options.both ? 'both' : options.shellHook ? 'shell-hook' : 'plugin';
    const socket = resolve(options.socket ?? configFrom(command.parent ?? command).server.socket);
    const home = hermesHomeOf(options.hermesHome);
    let report;
    try {
      report = installHermes({ home, socket, mode, accept: options.accept, dryRun: options.dryRun ?? false });
    } catch (error) {
      throw new UsageError(`tollgate install hermes: ${(error as Error).message}`, 1);
    }
    process.stdout.write(report.text);
  });

const collect = (value: string, previous: string[]): string[] => [...previous, value];

const systemCommand = (): Command => withSystemOptions(new Command('system')
  .description('The separate-principal setup: the daemon runs as its own system user, and the agent\'s user can neither change tollgate nor answer its questions. Idempotent.'))
  .option('--approver <user>', 'add a user to the approvers\' group (repeatable); never the user Hermes runs as', collect, [])
  .option('--agent <user>', 'the user Hermes runs as (repeatable): refused if it is an approver, in the daemon\'s group, or root', collect, [])
  .option('--no-systemd', 'do not write the systemd unit and tmpfiles.d entry (default: written when <prefix>/etc/systemd exists)')
  .option('--node <path>', 'the node the unit runs (default: this node)')
  .addHelpText('after', `
What it sets up (default locations; each has a flag):
  user and group tollgate (system, no login shell, home /var/lib/tollgate); group tollgate-approvers
  /etc/tollgate/tollgate.yaml        root:tollgate 0640      configuration (only its location keys are set)
  /var/lib/tollgate                  tollgate:tollgate 0700  ledger, payloads, keys, checkpoints
  /run/tollgate/tollgate.sock        folder 0755 tollgate    runtime socket (0666: hooks and reads)
  /run/tollgate/human/tollgate.sock  folder 0750 tollgate:tollgate-approvers, socket 0660: answers, allowlist
  /opt/tollgate                      root:root               a copy of this tollgate's code
  /usr/local/bin/tollgate            link to /opt/tollgate/bin/tollgate.mjs
  /etc/systemd/system/tollgate.service, /etc/tmpfiles.d/tollgate.conf

A second run changes nothing and says "unchanged"; an edited configuration keeps everything but those keys.

Examples:
  sudo tollgate install system --dry-run
  sudo tollgate install system --approver alice --agent hermes
  sudo tollgate install system --prefix /tmp/root --no-systemd     # try it in a folder`)
  .action((flags: SystemFlags & { approver: string[]; agent: string[]; systemd: boolean; node?: string }, command: Command) => {
    requireRoot('tollgate install system', flags.dryRun ?? false);
    const explicitSystemd = command.getOptionValueSource('systemd') === 'cli';
    let report;
    try {
      report = installSystem({
        ...layoutOptions(flags), approvers: flags.approver, agents: flags.agent, dryRun: flags.dryRun ?? false,
        ...(explicitSystemd ? { systemd: flags.systemd } : {}), ...(flags.node === undefined ? {} : { node: flags.node }),
      });
    } catch (error) {
      throw new UsageError(`tollgate install system: ${(error as Error).message}`, 1);
    }
    process.stdout.write(report.text);
  });

export const installCommand = (): Command => new Command('install')
  .description('Install tollgate into an agent runtime (hermes), or as a system service run by its own user (system).')
  .addCommand(hermesCommand())
  .addCommand(systemCommand())
  .addHelpText('after', '\nExamples:\n  tollgate install hermes --dry-run\n  sudo tollgate install system --dry-run');
