/**
 * The option letters of a bash builtin (`read`, `mapfile`, `printf`, `wait`) before its operands. Two readers share
 * it: the values the line gives variables (which needs a clean parse, or it knows nothing) and the names the line
 * may assign (which over-approximates, so it reads past what it does not understand).
 */
export interface BuiltinOptions {
  /** Every option letter in order, with the value a `valued` letter took (attached or the next word). */
  readonly letters: readonly { readonly letter: string; readonly value: string | undefined }[];
  readonly operands: readonly string[];
  /** A cluster held a character that is not a letter, or a valued letter had no value. */
  readonly malformed: boolean;
}

const optionWord = /^-[a-zA-Z]/;
const letter = /[a-zA-Z]/;

/** Options end at `--` or the first word that does not start with a dash and a letter. */
export const builtinOptions = (args: readonly string[], valued: string): BuiltinOptions => {
  const letters: { letter: string; value: string | undefined }[] = [];
  let malformed = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') { i++; break; }
    if (!optionWord.test(arg)) break;
    for (let k = 1; k < arg.length; k++) {
      const name = arg[k]!;
      if (!letter.test(name)) { malformed = true; continue; }
      if (!valued.includes(name)) { letters.push({ letter: name, value: undefined }); continue; }
      const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i];
      if (value === undefined) malformed = true;
      letters.push({ letter: name, value });
      break;
    }
  }
  return { letters, operands: args.slice(i), malformed };
};
