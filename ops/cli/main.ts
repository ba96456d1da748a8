/** The tollgate command line. The list below is the table of contents: one file per command in ./commands. */
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/loadConfig.ts';
import { ScenarioFileError } from '../eval/parseScenarioFile.ts';
import { approveCommand, revokeCommand, approvalsCommand } from './commands/approve.ts';
import { auditCommand } from './commands/audit.ts';
import { classifyCommand } from './commands/classify.ts';
import { doctorCommand } from './commands/doctor.ts';
import { evalCommand } from './commands/eval.ts';
import { hookCommand } from './commands/hook.ts';
import { installCommand } from './commands/install.ts';
import { replayCommand } from './commands/replay.ts';
import { serveCommand } from './commands/serve.ts';
import { tailCommand } from './commands/tail.ts';
import { uninstallCommand } from './commands/uninstall.ts';
import { verifyCommand } from './commands/verify.ts';
import { UsageError } from './usageError.ts';
import { tollgateVersion } from '../version.ts';

// `tollgate audit | head` closes the pipe early: that ends the output, it is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => { if (error.code === 'EPIPE') process.exit(0); throw error; });

const program = new Command('tollgate')
  .description('A guard between an AI agent and the world: every tool call and outgoing message passes the gate.')
  .version(tollgateVersion)
  .option('-c, --config <file>', 'configuration file (default: $TOLLGATE_CONFIG, then ./tollgate.yaml)')
  .exitOverride();

for (const command of [
  serveCommand(), evalCommand(), replayCommand(), verifyCommand(), auditCommand(), tailCommand(), classifyCommand(),
  approveCommand(), approvalsCommand(), revokeCommand(), hookCommand(), installCommand(), uninstallCommand(), doctorCommand(),
]) program.addCommand(command);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  if (error instanceof UsageError || error instanceof ConfigError) {
    process.stderr.write(`tollgate: ${error.message}\n`);
    process.exit(error instanceof UsageError ? error.exitCode : 2);
  }
  if (error instanceof ScenarioFileError) {
    process.stderr.write(`tollgate eval: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`tollgate: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
}
