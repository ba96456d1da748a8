/**
 * More ways code builds one string out of literals than `+` and join (red team 5, L): `'{}/x'.format('/a')`,
 * `'/a/x.y%sl' % 'am'`, `'/A/X'.lower()`, and a variable given a literal and then used (`d = '/a'`, `f'{d}/x'`,
 * `` `${d}/x` ``, `d + '/x'`). Each fold rewrites the code into a reading where the built string is one literal;
 * pythonCode.ts' foldLiterals runs them with its own folds until nothing changes. The folds only add a reading:
 * the code as written is judged too.
 */

import { runtimeStringFolds } from './runtimeStrings.ts';
import { repeatedFold } from './repeatedFold.ts';

// Global: one pass folds every occurrence; replace() does not keep lastIndex between calls.
const one = String.raw`(?:[rRbBuU]{0,2})(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const valueOf = (a?: string, b?: string): string => a ?? b ?? '';
const quote = (text: string): string => `'${text.replace(/'/g, '')}'`;
const literalsOf = (list: string): string[] => [...list.matchAll(new RegExp(one, 'g'))].map((m) => valueOf(m[1], m[2]));

export interface LiteralFold {
  readonly name: string;
  /** A cheap test before the fold's expression runs. */
  readonly mayApply: (code: string) => boolean;
  readonly fold: (code: string) => string;
  /** Code and a literal its folded reading must hold; code whose reading must stay as it was. */
  readonly stops: readonly (readonly [string, string])[];
  readonly allows: readonly string[];
}

const formatCall = new RegExp(String.raw`${one}\.format\(\s*((?:${one}\s*,\s*)*${one})\s*,?\s*\)`, 'g');
const percentOne = new RegExp(String.raw`${one}\s*%\s*${one}`, 'g');
const percentList = new RegExp(String.raw`${one}\s*%\s*\(\s*((?:${one}\s*,\s*)*${one})\s*,?\s*\)`, 'g');
const separatorJoin = new RegExp(String.raw`${one}\.join\(\s*[\[(]\s*((?:${one}\s*,\s*)*${one})\s*,?\s*[\])]\s*\)`, 'g');
const pathDivision = new RegExp(String.raw`(?:(?:pathlib\.)?(?:Pure)?(?:Posix)?Path\(\s*${one}\s*\)|${one})\s*/\s*${one}`);
const reversed = new RegExp(String.raw`${one}\[\s*:\s*:\s*-1\s*\]`, 'g');
const replaceCall = new RegExp(String.raw`${one}\.replace(?:All)?\(\s*${one}\s*,\s*${one}\s*\)`, 'g');
const caseCall = new RegExp(String.raw`${one}\.(lower|upper|casefold|toLowerCase|toUpperCase|strip|trim)\(\)`, 'g');

/** `{}`, `{0}`, `{1}` filled from the arguments in order or by number. */
const formatted = (template: string, args: readonly string[]): string => {
  let next = 0;
  return template.replace(/\{(\d*)\}/g, (_m, n: string) => args[n === '' ? next++ : Number(n)] ?? '');
};

/** `%s`, `%r`, `%d` filled in order; `%%` is one `%`. */
const percented = (template: string, args: readonly string[]): string => {
  let next = 0;
  return template.replace(/%(?:[sdr]|%)/g, (m) => (m === '%%' ? '%' : args[next++] ?? ''));
};

// ---- variables given a literal once ----

const assignment = new RegExp(String.raw`(?:^|[\n;{(])\s*(?:const\s+|let\s+|var\s+|my\s+|local\s+)?(\$?[A-Za-z_]\w*)\s*=\s*${one}\s*(?=[;\n)]|$)`, 'g');
/** Literals of all kinds, and JavaScript's template literals: a variable is replaced only outside them. */
const stringToken = /[rRbBuUfF]{0,2}(?:'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")|`(?:\\.|[^`\\])*`/g;

/** Each name given exactly one literal (a name given two may be either: left alone). */
const literalAssigned = /=\s*[rRbBuU]{0,2}['"]/;
/** Where a variable's literal can end up inside a longer string: f-strings, templates, +, joins, formats, Path(), "$x". */
// Also a name in a list of literals (`[c, 'approve']`) and awk's names glued by a blank (`system(a b " x")`).
const buildsStrings = /\b[fF]['"]|`|\+|\.join|\.format|%|Path\(|"\$|[[,]\s*[A-Za-z_]\w*\s*[,\]]|[(,]\s*[A-Za-z_]\w*\s+[A-Za-z_"']/;

const literalVariables = (code: string): Map<string, string> => {
  const seen = new Map<string, string | null>();
  for (const m of code.matchAll(assignment)) seen.set(m[1]!, seen.has(m[1]!) ? null : valueOf(m[2], m[3]));
  const out = new Map<string, string>();
  for (const [name, value] of seen) if (value !== null) out.set(name, value);
  return out;
};

/** A name used (not called, not assigned, not an attribute); the names given a literal are picked out by lookup. */
const bareName = /(?<![\w.$])\$?[A-Za-z_]\w*(?![\w(])(?!\s*=(?!=))/g;

/** The code with every later use of such a name read as its literal: in f-strings, templates and bare uses. */
const inlineVariables = (code: string): string => {
  const names = literalVariables(code);
  if (names.size === 0) return code;
  const replaceName = (n: string): string => { const v = names.get(n); return v === undefined ? n : quote(v); };
  let out = '';
  let last = 0;
  for (const m of code.matchAll(stringToken)) {
    out += code.slice(last, m.index).replace(bareName, replaceName);
    out += filledString(m[0], names);
    last = m.index! + m[0].length;
  }
  return out + code.slice(last).replace(bareName, replaceName);
};

/** An f-string's `{name}` or a template's `${name}` filled in; what stays unknown reads `$_`. */
const filledString = (token: string, names: ReadonlyMap<string, string>): string => {
  if (token.startsWith('`')) {
    if (!token.includes('${')) return quote(token.slice(1, -1));
    return quote(token.slice(1, -1).replace(/\$\{\s*([A-Za-z_$][\w$]*)\s*\}|\$\{[^}]*\}/g, (_m, n?: string) => (n !== undefined && names.has(n) ? names.get(n)! : '$_')));
  }
  const prefix = /^[rRbBuUfF]*/.exec(token)![0];
  if (!/[fF]/.test(prefix)) return token;
  return quote(token.slice(prefix.length + 1, -1).replace(/\{\s*([A-Za-z_]\w*)\s*(?:![rsa])?(?::[^}]*)?\}|\{[^{}]*\}/g, (_m, n?: string) => (n !== undefined && names.has(n) ? names.get(n)! : '$_')));
};

export const literalFolds: readonly LiteralFold[] = [
  // Strings built at run time (character codes, encodings, the home asked of the runtime) first: the folds below join their pieces.
  ...runtimeStringFolds,
  {
    name: 'str-format',
    mayApply: (code) => code.includes('.format('),
    fold: (code) => code.replace(formatCall, (_m, a?: string, b?: string, list?: string) => quote(formatted(valueOf(a, b), literalsOf(list ?? '')))),
    stops: [["p = '{}/tollgate.yaml'.format('/home/agent/project')", '/home/agent/project/tollgate.yaml'], ["'{1}/{0}'.format('plugins', '/srv/hermes-bot')", '/srv/hermes-bot/plugins']],
    allows: ["'{}'.format(name)", "print('x')"],
  },
  {
    name: 'percent-format',
    mayApply: (code) => code.includes('%'),
    fold: (code) => code.replace(percentList, (_m, a?: string, b?: string, list?: string) => quote(percented(valueOf(a, b), literalsOf(list ?? ''))))
      .replace(percentOne, (_m, a?: string, b?: string, c?: string, d?: string) => quote(percented(valueOf(a, b), [valueOf(c, d)]))),
    stops: [["open('/home/agent/project/tollgate.y%sl' % 'am', 'w')", '/home/agent/project/tollgate.yaml'], ["'%s/%s' % ('/srv/hermes-bot', 'plugins')", '/srv/hermes-bot/plugins']],
    allows: ["'%d%%' % n", "x = 10 % 3"],
  },
  {
    name: 'case-and-trim',
    mayApply: (code) => /\.(?:lower|upper|casefold|toLowerCase|toUpperCase|strip|trim)\(\)/.test(code),
    fold: (code) => code.replace(caseCall, (_m, a?: string, b?: string, how?: string) => {
      const text = valueOf(a, b);
      return quote(how === 'upper' || how === 'toUpperCase' ? text.toUpperCase() : how === 'strip' || how === 'trim' ? text.trim() : text.toLowerCase());
    }),
    stops: [["open('/HOME/AGENT/PROJECT/TOLLGATE.YAML'.lower(), 'w')", '/home/agent/project/tollgate.yaml'], ["' /srv/hermes-bot/plugins '.strip()", '/srv/hermes-bot/plugins']],
    allows: ['name.lower()', 'print(title.upper())'],
  },
  {
    name: 'separator-join',
    mayApply: (code) => code.includes('.join('),
    fold: (code) => code.replace(separatorJoin, (_m, a?: string, b?: string, list?: string) => quote(literalsOf(list ?? '').join(valueOf(a, b)))),
    stops: [["'/'.join(['', 'srv', 'hermes-bot', 'config.yaml'])", '/srv/hermes-bot/config.yaml']],
    allows: ["', '.join(names)"],
  },
  {
    name: 'path-division',
    mayApply: (code) => code.includes('/'),
    fold: (code) => {
      // `Path(a) / 'b' / 'c'` folds one step a pass: repeated here (bounded) so the chain ends as one literal.
      return repeatedFold(code, 16, (out) => out.replace(pathDivision, (_m, a?: string, b?: string, c?: string, d?: string, e?: string, f?: string) =>
        quote(`${valueOf(a, b) || valueOf(c, d)}/${valueOf(e, f)}`.replace(/\/{2,}/g, '/'))));
    },
    stops: [["Path('/srv/hermes-bot') / 'plugins' / 'x.py'", '/srv/hermes-bot/plugins/x.py'], ["pathlib.Path('/home/agent/project') / 'tollgate.yaml'", '/home/agent/project/tollgate.yaml']],
    allows: ['x = a / b', "print(total / 2)"],
  },
  {
    name: 'reversed-and-replaced',
    mayApply: (code) => code.includes('::') || code.includes('.replace'),
    fold: (code) => code.replace(reversed, (_m, a?: string, b?: string) => quote([...valueOf(a, b)].reverse().join('')))
      .replace(replaceCall, (_m, a?: string, b?: string, c?: string, d?: string, e?: string, f?: string) => quote(valueOf(a, b).split(valueOf(c, d)).join(valueOf(e, f)))),
    stops: [["open('lmay.etagllot/tcejorp/tnega/emoh/'[::-1], 'w')", '/home/agent/project/tollgate.yaml'], ["'/srv/hermes-bot/XX'.replace('XX', 'plugins')", '/srv/hermes-bot/plugins']],
    allows: ['items[::-1]', 'text.replace(a, b)'],
  },
  {
    name: 'literal-variables',
    mayApply: (code) => code.includes('=') && literalAssigned.test(code) && buildsStrings.test(code),
    fold: inlineVariables,
    stops: [['const d="/home/agent/project"; require("fs").writeFileSync(`${d}/tollgate.yaml`, "x")', '/home/agent/project/tollgate.yaml'],
      ["d = '/srv/hermes-bot'\nopen(f'{d}/config.yaml', 'w')", '/srv/hermes-bot/config.yaml'], ["d = '/srv/hermes-bot/'\nopen(d + 'config.yaml', 'w')", '/srv/hermes-bot/config.yaml'],
      ['my $d = "/srv/hermes-bot"; unlink "$d/config.yaml"', '/srv/hermes-bot/config.yaml']],
    allows: ["d = '/tmp'\nd = '/var'\nprint(d)", 'x == 1'],
  },
];

/** Perl's and the shell's `"$d/…"`: a double-quoted literal naming a variable given a literal. */
export const perlInterpolated = (code: string): string => {
  if (!code.includes('"$')) return code;
  const names = literalVariables(code);
  if (names.size === 0) return code;
  return code.replace(/"((?:[^"\\\n])*)"/g, (m, body: string) =>
    body.includes('$') ? `"${body.replace(/\$\{?([A-Za-z_]\w*)\}?/g, (v, n: string) => names.get(`$${n}`) ?? v)}"` : m);
};

/** One round of every fold that may apply. */
export const foldOnce = (code: string): string => {
  let out = code;
  for (const fold of literalFolds) if (fold.mayApply(out)) out = fold.fold(out);
  return perlInterpolated(out);
};
