/** `tollgate doctor`: is tollgate actually guarding Hermes (probe decisions, not just config), and what could switch it off? */
import { accessSync, constants } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { visibleJson, visibleText } from '../../../domain/encoding/visibleText.mjs';
import { configPath } from '../../config/loadConfig.ts';
import { formatReport } from '../../doctor/checks.ts';
import type { PrincipalInputs } from '../../doctor/principalChecks.ts';
import { systemLayout } from '../../install/systemLayout.ts';
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
  .option('--data-dir <dir>', 'the daemon\'s data folder, when its configuration is not readable by you (default: data.dir, else /var/lib/tollgate)')
  .option('--human-socket <path>', 'the human socket, when the configuration is not readable by you (default: server.human_socket, else /run/tollgate/human/tollgate.sock)')
  .addHelpText('after', `
Each line is ok, warn or FAIL with what to fix. The probes are real decisions in a session named
tollgate-doctor-<random> (recorded in the ledger): \`rm -rf /\` must be blocked and \`echo tollgate-doctor\` allowed —
by the daemon, by the installed plugin (through Hermes' own plugin loader and dispatch when Hermes' Python is
found), and by the configured shell hook run exactly as Hermes runs it.

Examples:
  tollgate doctor
  tollgate doctor --hermes-home /srv/hermes --python /srv/hermes/venv/bin/python --json`)
  .action(async (options: DoctorFlags, command: Command) => {
    const target = daemonState(options, command);
    const tollgate = tollgateInputsOf((command.parent ?? command).opts<{ config?: string }>().config);
    const report = await runDoctor({
      home: hermesHomeOf(options.hermesHome), socket: target.socket, principals: target,
      ...(tollgate === undefined ? {} : { tollgate }),
      ...(options.python === undefined ? {} : { python: options.python }),
    });
    // Paths and answers in the report may come from files the agent can write: shown visible.
    process.stdout.write(options.json ? `${visibleJson(report, 2)}\n` : visibleText(formatReport(report), { multiline: true }));
    process.exitCode = report.ok ? 0 : 1;
  });

interface DoctorFlags { hermesHome?: string; socket?: string; python?: string; json?: boolean; dataDir?: string; humanSocket?: string }

const readable = (path: string): boolean => { try { accessSync(path, constants.R_OK); return true; } catch { return false; } };

/**
 * Where the daemon keeps its state. In the separate-principal setup the agent's user cannot read the configuration
 * (that is the point), so the install's locations stand in, unless flags say otherwise.
 */
const daemonState = (options: DoctorFlags, command: Command): PrincipalInputs => {
  const root = command.parent ?? command;
  const file = configPath(root.opts<{ config?: string }>().config);
  if (file !== null && !readable(file)) {
    const layout = systemLayout();
    return {
      socket: resolve(options.socket ?? layout.socket), humanSocket: resolve(options.humanSocket ?? layout.humanSocket),
      configFile: resolve(file), dataDir: resolve(options.dataDir ?? layout.stateDir),
    };
  }
  const config = configFrom(command);
  const human = options.humanSocket ?? (config.server as { human_socket?: string | null }).human_socket ?? null;
  const ledger = /^sqlite:(?!:memory:)(.+)$/.exec(config.ledger.url)?.[1];
  return {
    socket: resolve(options.socket ?? config.server.socket), humanSocket: human === null ? null : resolve(human),
    configFile: file === null ? null : resolve(file), dataDir: resolve(options.dataDir ?? config.data.dir),
    ledgerFile: ledger === undefined ? null : resolve(ledger),
  };
};
