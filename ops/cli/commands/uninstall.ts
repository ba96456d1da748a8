/** `tollgate uninstall system`: removes what `install system` added (configuration, data and accounts only with --purge). */
import { Command } from 'commander';
import { uninstallSystem } from '../../install/installSystem.ts';
import { UsageError } from '../usageError.ts';
import { layoutOptions, requireRoot, withSystemOptions, type SystemFlags } from './systemOptions.ts';

const systemCommand = (): Command => withSystemOptions(new Command('system')
  .description('Remove the separate-principal install: unit, tmpfiles.d entry, code copy, link, socket folder. Idempotent.'))
  .option('--purge', 'also remove the configuration, the data folder (ledger and keys: gone for good) and the users and groups')
  .addHelpText('after', `
Pass the same location and name flags as to install system. Without --purge the configuration, the data and the
accounts stay, so a later install system picks them up again.

Examples:
  sudo tollgate uninstall system --dry-run
  sudo tollgate uninstall system --purge`)
  .action((flags: SystemFlags & { purge?: boolean }) => {
    requireRoot('tollgate uninstall system', flags.dryRun ?? false);
    let report;
    try {
      report = uninstallSystem({ ...layoutOptions(flags), purge: flags.purge ?? false, dryRun: flags.dryRun ?? false });
    } catch (error) {
      throw new UsageError(`tollgate uninstall system: ${(error as Error).message}`, 1);
    }
    process.stdout.write(report.text);
  });

export const uninstallCommand = (): Command => new Command('uninstall')
  .description('Undo an install (today: system).')
  .addCommand(systemCommand());
