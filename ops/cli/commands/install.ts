/** `tollgate install hermes`: put tollgate in front of a Hermes Agent (plugin, shell hook, or both). */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { hermesHomeOf } from '../../install/hermesConfig.ts';
import { installHermes, type InstallMode } from '../../install/installHermes.ts';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';

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

export const installCommand = (): Command => new Command('install')
  .description('Install tollgate into an agent runtime (today: hermes).')
  .addCommand(hermesCommand())
  .addHelpText('after', '\nExample:\n  tollgate install hermes --dry-run');
