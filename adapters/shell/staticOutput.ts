/**
 * What a simple command is known to print, when that can be read from its words alone: `echo` and `printf`
 * with their arguments, `cat` passing on a heredoc. Used to see what a shell or SQL client reads from a pipe.
 */
import type { SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { decodeAnsiC } from './ansiCString.ts';
import { decodedOutput } from './decodedOutput.ts';

export const staticOutput = (command: SimpleCommand): string | undefined => {
  switch (command.program) {
    case 'echo':
      return echoOutput(command.args);
    case 'printf':
      return command.args.length > 0 ? printfOutput(command.args) : undefined;
    case 'cat':
      return command.args.every((arg) => arg === '-' || /^-[AbeEnstTuv]+$/.test(arg)) ? command.stdin : undefined;
    default:
      return decodedOutput(command);
  }
};

const echoOutput = (args: readonly string[]): string => {
  let i = 0;
  let escapes = false;
  while (i < args.length && /^-[neE]+$/.test(args[i]!)) escapes ||= args[i++]!.includes('e');
  const text = args.slice(i).join(' ');
  return (escapes ? decodeEscapes(text) : text) + '\n';
};

const conversion = /%[-+ #0-9.*]*([a-zA-Z%])/g;

/**
 * printf repeats its format until the arguments run out; %s and %b take one argument each (%b decodes its
 * escapes). The format's escapes are bash's (`\x68`, `\150`, `\u0068`), so `printf '\x68ermes'` prints hermes.
 */
export const printfOutput = ([format, ...rest]: readonly string[]): string => {
  const template = decodeEscapes(format ?? '');
  let out = '';
  let next = 0;
  do {
    out += template.replace(conversion, (_, letter: string) => {
      if (letter === '%') return '%';
      const arg = rest[next++] ?? '';
      return letter === 'b' ? decodeEscapes(arg.replace(/\\0([0-7])/g, '\\$1')) : arg;
    });
  } while (next > 0 && next < rest.length);
  return out;
};

/** `\c` ends the output in echo -e and %b; the rest decode as in $'...'. */
const decodeEscapes = (text: string): string => {
  const stop = text.indexOf('\\c');
  return decodeAnsiC(stop < 0 ? text : text.slice(0, stop));
};
