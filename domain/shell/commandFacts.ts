/** Small questions rules ask of one parsed simple command. */
import { firstOperandIndex, type OptionGrammar } from './commandOptions.ts';
import type { SimpleCommand } from './shellAnalysis.ts';

/** The wrapper or carrier names the command was reached through ('sudo -u bob' → 'sudo', 'find -exec' → 'find'). */
export const viaNames = (command: SimpleCommand): string[] => command.via.map((entry) => entry.split(' ', 1)[0]!);

/** Output redirections (`>`, `>>`, `&>`, `2>`, `>|`, `<>`) of the command. */
export const writtenFiles = (command: SimpleCommand): string[] =>
  command.redirects.filter((redirect) => redirect.op.includes('>') && !redirect.target.startsWith('&')).map((redirect) => redirect.target);

/** The subcommand after a program's global options (`git -C repo reset --hard` → 'reset'), and its arguments. */
export const subcommand = (
  command: SimpleCommand,
  globalOptions: OptionGrammar = {},
): { readonly name: string | undefined; readonly args: readonly string[] } => {
  const index = firstOperandIndex(command.args, 0, globalOptions);
  return { name: command.args[index], args: command.args.slice(index + 1) };
};
