/**
 * Code that hands a shell or exec call a command whose program the code computes (red team 8):
 * `os.system(dec(s) + ' approve a1 always')`, `` execSync(`${x} approve a1`) ``, `subprocess.run([f(), 'approve', …])`.
 * The program could be any, so where the literal words after it are ones a guard program acts on, the command is
 * read as each such program (as the shell walk reads `$c approve a1`). Textual: returns command lines for the
 * floor's shell-text judge, never a verdict.
 */

const literal = String.raw`(?:[rRbBuU]{0,2})(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const bareLiteral = String.raw`(?:[rRbBuU]{0,2})(?:'[^'\\\n]*'|"[^"\\\n]*")`;
const literalList = String.raw`${bareLiteral}(?:\s*,\s*${bareLiteral})*`;
const valueOf = (a?: string, b?: string): string => a ?? b ?? '';
const literalsOf = (list: string): string[] => [...list.matchAll(new RegExp(literal, 'g'))].map((m) => valueOf(m[1], m[2]));

/** Words a guard program acts on, the cheap test before the readings below. */
const guardArgument = /\b(?:approve|deny|config|plugins?|hooks|gateway|tollgate|hermes)\b/;

/** An operand that is not a literal (a name, a call, an item) and then `+` and a literal: `x + ' approve'`, `f(s) + " deny"`. */
const computedThenLiteral = new RegExp(String.raw`(?:[\w\])]|\)\s*)\s*\+\s*${literal}`, 'g');
/** A literal whose first part is filled at run time: f-strings, templates, `'{} x'.format(…)`, `'%s x' % …`. */
const filledFirst = new RegExp(String.raw`\b[fF](?:'\{[^}'\n]*\}([^'\\\n]*)'|"\{[^}"\n]*\}([^"\\\n]*)")|` + '`\\$\\{[^}`]*\\}([^`\\\\$]*)`|' + String.raw`(?:'((?:\{[^}'\n]*\}|%[sr])[^'\\\n]*)'|"((?:\{[^}"\n]*\}|%[sr])[^"\\\n]*)")(?=\s*(?:\.format\(|%))`, 'g');
/** A list (or an exec call's program and list) whose first item is computed: `[f(), 'approve']`, `execFileSync(x, ['approve'])`, `execvp(x, [x, 'approve'])`. */
const computedFirstItem = new RegExp(String.raw`\[\s*[A-Za-z_$][\w$.]*(?:\([^()]*\))?\s*,\s*(${literalList})\s*\]|\(\s*[A-Za-z_$][\w$.]*(?:\([^()]*\))?\s*,\s*\[\s*(?:[A-Za-z_$][\w$.]*\s*,\s*)?(${literalList})\s*\]`, 'g');

/** `{}`/`%s` at a literal's start dropped: what follows is the command's literal rest. */
const restAfterHole = (text: string): string => text.replace(/^(?:\{[^}]*\}|%[sr])/, '');

/** The literal rests of commands whose program the code computes. */
const computedProgramRests = (code: string): string[] => {
  const rests: string[] = [];
  for (const m of code.matchAll(computedThenLiteral)) rests.push(valueOf(m[1], m[2]));
  for (const m of code.matchAll(filledFirst)) rests.push(m[1] ?? m[2] ?? m[3] ?? restAfterHole(valueOf(m[4], m[5])));
  for (const m of code.matchAll(computedFirstItem)) rests.push(` ${literalsOf(m[1] ?? m[2] ?? '').join(' ')}`);
  // The computed part is the program only where the literal starts a new word after it.
  return rests.filter((rest) => /^\s/.test(rest)).map((rest) => rest.trim()).filter((rest) => rest !== '');
};

/** A guard program and whether these words, given to it, are what the floor stops (the shell walk's candidates, programCandidates.ts). */
const candidates: readonly (readonly [string, (words: readonly string[]) => boolean])[] = [
  ['tollgate', ([first]) => first === 'approve' || first === 'deny'],
  ['hermes', ([first]) => first === 'config' || first === 'plugins' || first === 'plugin' || first === 'hooks' || first === 'gateway'],
  ['pkill', (words) => words.some((w) => /tollgate|hermes|gateway/i.test(w)) && words.some((w) => /^-(?:[0-9]{1,2}|[A-Z]+|f|s)$/.test(w))],
];

/** Command lines to judge: each computed program's literal rest, given to each guard program it would reach. */
export const computedProgramCommands = (code: string): string[] => {
  if (!guardArgument.test(code)) return [];
  const out: string[] = [];
  for (const rest of computedProgramRests(code)) {
    const words = rest.split(/\s+/);
    for (const [program, reaches] of candidates) if (reaches(words)) out.push(`${program} ${rest}`);
  }
  return out;
};
