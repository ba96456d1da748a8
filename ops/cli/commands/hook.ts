/**
 * `tollgate hook --hermes | --claude`: one runtime hook event in, the runtime's answer out, exit 2 for a block.
 * `bin/tollgate.mjs` normally runs `tollgate hook ...` without loading this CLI at all (the fast path straight to
 * adapters/hooks/hookClient.mjs); this command is the same client reached with global options first
 * (`tollgate -c tollgate.yaml hook --hermes`), and the entry in `tollgate --help`. Even a mistake here answers a block.
 */
import { resolve } from 'node:path';
import { Command, CommanderError } from 'commander';
import { blockResult, defaultTimeoutMs, hookHelp, parseHookArgs, runHookMain, type HookOptions } from '../../../adapters/hooks/hookClient.mjs';
import { configFrom } from '../globalOptions.ts';

const runtimeIn = (argv: readonly string[]) => (argv.includes('--claude') ? 'claude' : argv.includes('--hermes') ? 'hermes' : null);

/** Prints a block for the runtime and exits 2: a misconfigured hook must not let the call through. */
const blockAndExit = (message: string): never => {
  const result = blockResult(runtimeIn(process.argv), `Blocked by tollgate: the hook is misconfigured: ${message}`);
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  process.exit(2);
};

export const hookCommand = (): Command => new Command('hook')
  .description('Answer one Hermes shell-hook or Claude Code hook event from stdin (exit 2 = block; every failure blocks).')
  .helpOption(false)
  .allowUnknownOption()
  .allowExcessArguments()
  .argument('[flags...]', '--hermes | --claude, then the options in `tollgate hook --help`')
  .addHelpText('after', `\n${hookHelp}`)
  .exitOverride((error: CommanderError) => { if (error.exitCode === 0) throw error; blockAndExit(error.message); })
  .action(async (_args: string[], _options: Record<string, unknown>, command: Command) => {
    // Everything after `hook` is read by the client's own parser, the same one the fast path uses.
    const argv = process.argv.slice(process.argv.indexOf('hook') + 1);
    let options: HookOptions;
    try {
      options = parseHookArgs(argv);
      if (options.help) { process.stdout.write(hookHelp); return; }
      if (options.socket === null && !process.env['TOLLGATE_SOCKET']) {
        const config = configFrom(command);
        options = { ...options, socket: resolve(config.server.socket) };
      }
    } catch (error) {
      return blockAndExit((error as Error).message);
    }
    await runHookMain(argv, { options: { ...options, timeoutMs: options.timeoutMs ?? defaultTimeoutMs } });
  });
