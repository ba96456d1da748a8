/** Commands that run a script file, and whether a file's content is shell code. */
import { programName } from '../../domain/shell/programName.ts';
import type { SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { isShell, shellMode } from '../../domain/shell/shellInvocation.ts';

/**
 * The script file a command runs: `bash x.sh`, `source x.sh`, `. x.sh`, or `./x.sh` itself (`direct`, which
 * runs as shell code only without a shebang naming another interpreter).
 */
export const scriptFile = (command: SimpleCommand): { path: string; label: string; direct: boolean } | undefined => {
  const { program, args, programPath } = command;
  if (isShell(program)) {
    const mode = shellMode(args);
    return mode.kind === 'script-file' ? { path: mode.path, label: `${program} ${mode.path}`, direct: false } : undefined;
  }
  if ((program === 'source' || program === '.') && args[0] !== undefined) return { path: args[0], label: `${program} ${args[0]}`, direct: false };
  return programPath.includes('/') ? { path: programPath, label: programPath, direct: true } : undefined;
};

/** Content a shell would run when the file is executed directly: no shebang, or a shebang naming a shell. */
export const isShellScript = (content: string): boolean => {
  if (!content.startsWith('#!')) return true;
  const [interpreter = '', ...rest] = content.split('\n', 1)[0]!.slice(2).trim().split(/\s+/);
  const name = programName(interpreter) === 'env' ? rest.find((word) => !word.startsWith('-')) ?? '' : programName(interpreter);
  return isShell(name);
};

