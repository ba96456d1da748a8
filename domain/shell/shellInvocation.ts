/**
 * How a shell program was asked to get its code: from a command string (`bash -c '...'`), from standard input
 * (`curl ... | bash`, `bash -s`, `sh <<EOF`), or from a script file (`bash deploy.sh`). Read from the arguments
 * after the program name.
 */

// csh and tcsh take `-c STRING` and `-s` as the Bourne shells do (red team 6); the other names are ksh and sh clones.
export const shellPrograms: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'ksh', 'dash', 'ash', 'mksh', 'yash', 'fish', 'rbash', 'csh', 'tcsh', 'lksh', 'oksh', 'loksh', 'posh']);

export const isShell = (program: string): boolean => shellPrograms.has(program);

export type ShellMode =
  | { readonly kind: 'command-string'; readonly script: string | undefined }
  | { readonly kind: 'stdin' }
  | { readonly kind: 'script-file'; readonly path: string };

/** Script paths that are standard input itself (`bash /dev/stdin <<< '...'`). */
export const stdinPaths: ReadonlySet<string> = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** Options of sh/bash/zsh/ksh whose value is the next word. */
const longWithValue = new Set(['--rcfile', '--init-file', '--command']);

export const shellMode = (args: readonly string[]): ShellMode => {
  let commandString = false;
  let fromStdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') {
      i++;
      break;
    }
    if (arg.startsWith('--')) {
      const name = arg.split('=', 1)[0]!;
      if (name === '--command') {
        // fish spells -c as --command
        if (arg.includes('=')) return { kind: 'command-string', script: arg.slice(arg.indexOf('=') + 1) };
        return { kind: 'command-string', script: args[i + 1] };
      }
      if (longWithValue.has(name) && !arg.includes('=')) i++;
      continue;
    }
    if (arg.length < 2 || (arg[0] !== '-' && arg[0] !== '+')) break;
    let takesValue = false;
    for (const letter of arg.slice(1)) {
      if (letter === 'c') commandString = true;
      else if (letter === 's') fromStdin = true;
      else if (letter === 'o' || letter === 'O') takesValue = true;
    }
    if (takesValue) i++;
  }
  const operand = args[i];
  if (commandString) return { kind: 'command-string', script: operand };
  if (fromStdin || operand === undefined || stdinPaths.has(operand)) return { kind: 'stdin' };
  return { kind: 'script-file', path: operand };
};
