/** `tollgate doctor`: is tollgate actually guarding Hermes (probe decisions, not just config), and what could switch it off? */
import { resolve } from 'node:path';
import { Command } from 'commander';
import { formatReport } from '../../doctor/checks.ts';
import { runDoctor } from '../../doctor/runDoctor.ts';
import { tollgateInputsOf } from '../../doctor/tollgateInputs.ts';
import { hermesHomeOf } from '../../install/hermesConfig.ts';
import { configFrom } from '../globalOptions.ts';

export const doctorCommand = (): Command => new Command('doctor')
  .description('Check that tollgate guards Hermes: daemon, plugin and shell hook answer real probe decisions; report what could silently disable them. Exit 1 on any FAIL.')
  .option('--hermes-home <dir>', 'Hermes home (default: $HERMES_HOME, then ~/.hermes)')
  .option('--socket <path>', 'daemon socket (default: server.socket of the configuration)')
  .option('--python <path>', 'Python to load the plugin with (default: the interpreter of `hermes` on PATH, else python3)')
  .option('--json', 'print the report as JSON')
  .addHelpText('after', `
Each line is ok, warn or FAIL with what to fix. The probes are real decisions in a session named
tollgate-doctor-<random> (recorded in the ledger): \`rm -rf /\` must be blocked and \`echo tollgate-doctor\` allowed —
by the daemon, by the installed plugin (through Hermes' own plugin loader and dispatch when Hermes' Python is
found), and by the configured shell hook run exactly as Hermes runs it.

Examples:
  tollgate doctor
  tollgate doctor --hermes-home /srv/hermes --python /srv/hermes/venv/bin/python --json`)
  .action(async (options: { hermesHome?: string; socket?: string; python?: string; json?: boolean }, command: Command) => {
    const socket = resolve(options.socket ?? configFrom(command).server.socket);
    const tollgate = tollgateInputsOf((command.parent ?? command).opts<{ config?: string }>().config);
    const report = await runDoctor({ home: hermesHomeOf(options.hermesHome), socket, ...(tollgate === undefined ? {} : { tollgate }), ...(options.python === undefined ? {} : { python: options.python }) });
    process.stdout.write(options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
    process.exitCode = report.ok ? 0 : 1;
  });
