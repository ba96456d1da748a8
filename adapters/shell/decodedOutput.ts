/**
 * What a decoder prints when the line gives it its input (red team 8): `base64 -d <<< …`, `echo … | rev`,
 * `tr a-z n-za-m <<< …`, `xxd -r -p`. Lets the walk read `$(echo dG9s… | base64 -d)` as the word it makes, the
 * way it reads `$(printf …)`. Undefined when the input is unknown or the options are ones not read here.
 */
import type { SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { fromBase32, fromBase64, fromHex, reversed, translated } from '../../domain/shell/textDecoders.ts';

type Decoder = (input: string, args: readonly string[]) => string | null;

/** Options that only say "decode" (and ignore garbage); anything else leaves the output unknown. */
const decodeOnly = (args: readonly string[], decode: RegExp): boolean => args.length > 0 && args.every((a) => decode.test(a));

const decoders: Readonly<Record<string, Decoder>> = {
  base64: (input, args) => (decodeOnly(args, /^(?:-d|-D|--decode|-i|--ignore-garbage|-di|-id)$/) ? fromBase64(input) : null),
  base32: (input, args) => (decodeOnly(args, /^(?:-d|--decode|-i|--ignore-garbage)$/) ? fromBase32(input) : null),
  basenc: (input, args) => (args.includes('--base64') && args.some((a) => a === '-d' || a === '--decode') ? fromBase64(input)
    : args.includes('--base32') && args.some((a) => a === '-d' || a === '--decode') ? fromBase32(input)
      : args.includes('--base16') && args.some((a) => a === '-d' || a === '--decode') ? fromHex(input) : null),
  xxd: (input, args) => (decodeOnly(args, /^(?:-r|-p|-rp|-pr|-ps|-plain|-revert)$/) && args.some((a) => a.includes('r')) ? fromHex(input) : null),
  rev: (input, args) => (args.length === 0 ? input.split('\n').map(reversed).join('\n') : null),
  tr: (input, args) => translated(input, args),
};

export const decodedOutput = (command: SimpleCommand): string | undefined => {
  const decoder = decoders[command.program];
  if (decoder === undefined || command.stdin === undefined) return undefined;
  // A decoder drops the input's line end; rev and tr keep it, as they keep every line.
  const input = command.program === 'rev' || command.program === 'tr' ? command.stdin : command.stdin.replace(/\n+$/, '');
  const output = decoder(input, command.args);
  return output === null ? undefined : output;
};
