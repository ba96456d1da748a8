/**
 * Strings inline code builds at run time from pieces it gives itself (red team 8): character codes
 * (`chr(116)`, `String.fromCharCode(…)`), plain encodings of a literal (hex, base64, rot13), reversals, Perl's
 * and PHP's `.`, sprintf, JavaScript's template literals, and the home or working folder asked of the runtime
 * (`os.environ['HOME']`, `os.homedir()`, `process.cwd()`), read as `~` and `.`. Each fold rewrites the code so the
 * built string is one literal; literalFolds.ts runs them first, and the floor judges the value they make.
 */
import { replaceFirstAtLiteral } from './literalStarts.ts';
import type { LiteralFold } from './literalFolds.ts';
import { repeatedFold } from './repeatedFold.ts';
import { fromBase32, fromBase64, fromHex, reversed, rot13 } from '../../shell/textDecoders.ts';

const one = String.raw`(?:[rRbBuU]{0,2})(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const valueOf = (a?: string, b?: string): string => a ?? b ?? '';
const bareLiteral = String.raw`(?:[rRbBuU]{0,2})(?:'[^'\\\n]*'|"[^"\\\n]*")`;
const literalListText = String.raw`${bareLiteral}(?:\s*,\s*${bareLiteral})*`;
const quote = (text: string): string => `'${text.replace(/['\\\n]/g, '')}'`;
/** A decoded literal, or the code as written when it does not decode to text. */
const decodedOr = (whole: string, text: string | null): string => (text === null ? whole : quote(text));

// ---- character codes ----

const code = String.raw`(?:0[xX][0-9a-fA-F]+|[0-9]+)`;
const codeList = String.raw`${code}(?:\s*,\s*${code})*\s*,?`;
const charOf = (n: string): string => { const c = Number(n); return c > 0 && c < 0x110000 ? String.fromCodePoint(c) : ''; };
const charsOf = (list: string): string[] => (list.match(new RegExp(code, 'g')) ?? []).map(charOf);

const chrCall = new RegExp(String.raw`\b(?:un)?chr\(\s*(${code})\s*\)`, 'g');
const chrMap = new RegExp(String.raw`\bmap\(\s*(?:un)?chr\s*,\s*[[(]\s*(${codeList})\s*[\])]\s*\)`, 'g');
// `''.join(map(chr, [...]))`, `''.join(chr(c) for c in [...])`: folded whole, so no list of one-character literals is left
// for the other folds to misread (a `'/'` between two literals reads as a path division).
const joinedChrMap = new RegExp(String.raw`(?:''|"")\.join\(\s*(?:map\(\s*(?:un)?chr\s*,\s*[[(]\s*(${codeList})\s*[\])]\s*\)|\[?\s*(?:un)?chr\(\s*\w+\s*\)\s+for\s+\w+\s+in\s+[[(]\s*(${codeList})\s*[\])]\s*\]?)\s*\)`, 'g');
const fromCharCode = new RegExp(String.raw`\bString\.fromCharCode\(\s*(?:\.\.\.\s*\[\s*)?(${codeList})\s*\]?\s*\)`, 'g');
const bytesList = new RegExp(String.raw`\b(?:bytes|bytearray)\(\s*\[\s*(${codeList})\s*\]\s*\)(?:\.decode\(\s*(?:${one})?\s*\))?`, 'g');
const rubyPack = new RegExp(String.raw`\[\s*(${codeList})\s*\]\.pack\(\s*['"][cCU]\*['"]\s*\)`, 'g');

// ---- encodings of a literal ----

const decodeTail = String.raw`(?:\.decode\(\s*(?:${one})?\s*\)|\.toString\(\s*(?:${one})?\s*\))?`;
const pythonHex = new RegExp(String.raw`\b(?:bytes\.fromhex|binascii\.(?:unhexlify|a2b_hex)|unhexlify|hex2bin)\(\s*${one}\s*\)${decodeTail}`, 'g');
const pythonBase64 = new RegExp(String.raw`\b(?:base64\.)?(?:b64decode|standard_b64decode|urlsafe_b64decode|decodebytes|decodestring|b32decode|base64_decode|decode_base64|Base64\.(?:decode64|strict_decode64|urlsafe_decode64)|atob)\(\s*${one}\s*(?:,[^()]*)?\)${decodeTail}`, 'g');
const codecsCall = new RegExp(String.raw`\bcodecs\.(?:de|en)code\(\s*${one}\s*,\s*${one}\s*\)${decodeTail}`, 'g');
const bufferFrom = new RegExp(String.raw`\bBuffer\.from\(\s*${one}\s*,\s*${one}\s*\)(?:\.toString\(\s*(?:${one})?\s*\))?`, 'g');
const perlPack = new RegExp(String.raw`\bpack\(?\s*${one}\s*,\s*${one}\s*\)?`, 'g');
const phpRot = new RegExp(String.raw`\bstr_rot13\(\s*${one}\s*\)`, 'g');
const rubyUnpack = new RegExp(String.raw`${one}\.unpack1?\(\s*['"](m0?|H\*)['"]\s*\)(?:\.first|\[0\])?`, 'g');

const byName = (encoding: string, text: string): string | null => {
  const e = encoding.toLowerCase().replace(/[-_]/g, '');
  return e === 'rot13' ? rot13(text) : e === 'hex' ? fromHex(text) : e === 'base64' ? fromBase64(text) : e === 'utf8' || e === 'ascii' || e === 'latin1' ? text : null;
};
const decodedBase = (call: string, text: string): string | null => (/b32/.test(call) ? fromBase32(text) : fromBase64(text));

// ---- reversals ----

const jsReverse = new RegExp(String.raw`(?:${one}\.split\(\s*(?:''|"")\s*\)|\[\s*\.\.\.\s*${one}\s*\]|Array\.from\(\s*${one}\s*\))\.reverse\(\)\.join\(\s*(?:''|"")\s*\)`, 'g');
const perlReverse = new RegExp(String.raw`\bscalar\s*\(?\s*reverse\s*\(?\s*${one}\s*\)?\s*\)?`, 'g');
const namedReverse = new RegExp(String.raw`(?:\bstrrev\(\s*${one}\s*\)|${one}\.reverse\b(?!\s*\()|(?:''|"")\.join\(\s*reversed\(\s*${one}\s*\)\s*\))`, 'g');

// ---- joining and formatting ----

const dotJoin = new RegExp(String.raw`${one}\s*\.\s*${one}`);
const dotJoins = new RegExp(dotJoin.source, 'g');
const sprintfCall = new RegExp(String.raw`(?<![\w.])(?:s?printf|format)\s*\(\s*${one}\s*,\s*((?:${one}\s*,\s*)*${one})\s*\)`, 'g');
const literalsOf = (list: string): string[] => [...list.matchAll(new RegExp(one, 'g'))].map((m) => valueOf(m[1], m[2]));
const percented = (template: string, args: readonly string[]): string => {
  let next = 0;
  return template.replace(/%[-+ #0-9.]*[sdrb%]/g, (m) => (m === '%%' ? '%' : args[next++] ?? ''));
};
/** `const a = "x", b = "y"`: each name its own declaration, so literalFolds.ts' variables fold reads both. */
const declarationList = new RegExp(String.raw`(\b(?:const|let|var)\s+[A-Za-z_$][\w$]*\s*=\s*${one})\s*,\s*(?=[A-Za-z_$][\w$]*\s*=\s*[rRbBuU]{0,2}['"])`, 'g');

/** Node's path.join/resolve, Ruby's File.join, Python's posixpath: the parts joined by `/`, an absolute part starting over. */
const pathJoin = new RegExp(String.raw`(?:\brequire\(\s*['"](?:node:)?path['"]\s*\)|(?<![\w.])(?:path|File|posixpath|pathlib\.PurePosixPath))\.(?:join|resolve)\(\s*((?:${one}\s*,\s*)*${one})\s*,?\s*\)`, 'g');
const joinedPath = (parts: readonly string[]): string =>
  parts.reduce((path, part) => (part.startsWith('/') || path === '' ? part : `${path.replace(/\/+$/, '')}/${part}`), '');

/** `reversed([...])`, `[...].reverse()`: the list turned round, still a list. */
const reversedList = new RegExp(String.raw`\breversed\(\s*\[\s*(${literalListText})\s*,?\s*\]\s*\)|(?<![\w\]])\[\s*(${literalListText})\s*,?\s*\]\.reverse\(\)`, 'g');
/** JavaScript's and Ruby's `[...].join(sep)` (`.join()` is `,` in JavaScript; Ruby's bare `.join` is ''). */
const methodJoin = new RegExp(String.raw`(?<![\w\]])\[\s*(${literalListText})\s*,?\s*\]\.join(\(\s*(?:${one})?\s*\))?`, 'g');
/** Perl's `join(SEP, …)` and PHP's `implode(SEP, [...])`. */
const functionJoin = new RegExp(String.raw`(?<![\w.])(?:join|implode)\s*\(\s*${one}\s*,\s*(?:\[|array\()?\s*(${literalListText})\s*,?\s*[\])]?\s*\)`, 'g');

// ---- the home and the working folder, asked of the runtime ----

const homeOrCwdWords = /\bHOME\b|\bhome\(|homedir|Dir\.(?:home|pwd)|cwd|expanduser|expand_path/;
const listJoinWords = /\]\s*\.(?:join|reverse)|(?<![\w.])(?:join|implode)\s*\(|reversed\(\s*\[/;

const homeName = String.raw`\s*['"]HOME['"]\s*`;
const homeAsked = new RegExp([
  String.raw`\bos\.environ\[${homeName}\]`, String.raw`\bos\.(?:environ\.get|getenv)\(${homeName}(?:,[^()]*)?\)`,
  String.raw`\bos\.path\.expanduser\(\s*['"]~['"]\s*\)`, String.raw`\b(?:pathlib\.)?Path\.home\(\)`,
  String.raw`(?:\brequire\(\s*['"](?:node:)?os['"]\s*\)|\bos)\.homedir\(\)`, String.raw`\bprocess\.env\.HOME\b`, String.raw`\bprocess\.env\[${homeName}\]`,
  String.raw`\$ENV\{\s*['"]?HOME['"]?\s*\}`, String.raw`\bDir\.home\b`, String.raw`\bENV(?:\.fetch\(|\[)${homeName}[\])]`, String.raw`\bgetenv\(${homeName}\)`,
  String.raw`\$_(?:SERVER|ENV)\[${homeName}\]`, String.raw`\bFile\.expand_path\(\s*['"]~['"]\s*\)`,
].join('|'), 'g');
/** Perl's `"$ENV{HOME}/x"` and Ruby's `"#{Dir.home}/x"`: the home inside a string is the string's start. */
const homeInString = /(")(?:\$ENV\{\s*['"]?HOME['"]?\s*\}|#\{\s*(?:Dir\.home|ENV\[\s*['"]HOME['"]\s*\])\s*\})/g;
const cwdAsked = /\bos\.getcwdb?\(\)|\b(?:pathlib\.)?Path\.cwd\(\)|\bprocess\.cwd\(\)|\bDir\.pwd\b|(?<![\w.])getcwd\(\)|\bCwd::(?:cwd|getcwd)\(\)/g;
/** `os.path.expanduser('~/x')`, `File.expand_path('~/x')`, `Path('~/x').expanduser()`: the literal itself, `~` read by the floor. */
const expandUser = new RegExp(String.raw`\b(?:os\.path\.expanduser|File\.expand_path)\(\s*${one}\s*\)|\b((?:pathlib\.)?Path\(\s*${one}\s*\))\.expanduser\(\)`, 'g');

/** A template literal's `${'text'}` filled in; a template with only literals left becomes one. */
const templateLiteral = /`((?:\\.|[^`\\])*)`/g;
const filledTemplate = (whole: string, body: string): string => {
  if (!body.includes('${')) return whole;
  const filled = body.replace(/\$\{\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)")\s*\}/g, (_m, a?: string, b?: string) => valueOf(a, b));
  return filled.includes('${') ? `\`${filled}\`` : quote(filled);
};

export const runtimeStringFolds: readonly LiteralFold[] = [
  {
    name: 'declaration-lists',
    mayApply: (c) => c.includes(',') && /\b(?:const|let|var)\s/.test(c),
    fold: (c) => repeatedFold(c, 8, (out) => out.replace(declarationList, '$1; let ')),
    stops: [['const a="/srv/hermes", b="-bot"; require("fs").rmSync(`${a}${b}`, {recursive: true})', '/srv/hermes-bot']],
    allows: ['const a = 1, b = 2', 'let x = f("a"), y = 3'],
  },
  {
    name: 'home-and-working-folder',
    mayApply: (c) => homeOrCwdWords.test(c),
    // Tcl's `$env(HOME)` and `$::env(HOME)` stand inside a bare word (`open $env(HOME)/.hermes/x w`): the word's `~`.
    fold: (c) => c.replace(homeInString, '$1~').replace(homeAsked, "'~'").replace(cwdAsked, "'.'").replace(/(?<!["'\w])\$(?:::)?env\(HOME\)([^\s\][;"'{}]*)/g, (_m, rest: string) => quote(`~${rest}`))
      .replace(expandUser, (_m, a?: string, b?: string, path?: string) => (path !== undefined ? path : quote(valueOf(a, b)))),
    stops: [["os.path.join(os.environ['HOME'], '.hermes', 'config.yaml')", '~/.hermes/config.yaml'], ["os.path.join(os.getcwd(), 'bin', 'tollgate.mjs')", './bin/tollgate.mjs'],
      ['require("path").join(require("os").homedir(), ".hermes")', '~/.hermes'], ['process.env.HOME + "/.hermes"', '~/.hermes'], ["os.path.expanduser('~/.her' + 'mes')", '~/.hermes'],
      ['File.join(Dir.home, ".hermes", "config.yaml")', '~/.hermes/config.yaml'], ['getenv("HOME")."/.hermes"', '~/.hermes'], ['"$ENV{HOME}" . "/.hermes"', '~/.hermes'], ['unlink "$ENV{HOME}/.hermes/config.yaml"', '~/.hermes/config.yaml'], ['File.delete("#{Dir.home}/.hermes/.env")', '~/.hermes/.env'],
      ['set f [open $env(HOME)/.hermes/config.yaml w]', '~/.hermes/config.yaml'], ['file delete $::env(HOME)/.hermes/.env', '~/.hermes/.env']],
    allows: ["print(os.environ['PATH'])", 'x = home_dir', "os.environ.get('HOMEBREW')"],
  },
  {
    name: 'path-joins',
    mayApply: (c) => /(?:path|File)(?:['"]\s*\))?\.(?:join|resolve)\(/.test(c),
    fold: (c) => c.replace(pathJoin, (_m, list: string) => quote(joinedPath(literalsOf(list)))),
    stops: [['require("path").join("~", ".hermes")', '~/.hermes'], ['File.join("/srv/hermes-bot", "plugins")', '/srv/hermes-bot/plugins'], ['path.resolve("/tmp", "/srv/hermes-bot", "config.yaml")', '/srv/hermes-bot/config.yaml']],
    allows: ['path.join(dir, name)', "', '.join(names)", "mypath.join('a', 'b')"],
  },
  {
    name: 'list-joins',
    mayApply: (c) => listJoinWords.test(c),
    fold: (c) => c.replace(reversedList, (_m, a?: string, b?: string) => `[${literalsOf(a ?? b ?? '').reverse().map(quote).join(', ')}]`)
      .replace(methodJoin, (_m, list: string, paren?: string, a?: string, b?: string) => quote(literalsOf(list).join(paren === undefined ? '' : a !== undefined || b !== undefined ? valueOf(a, b) : ',')))
      .replace(functionJoin, (_m, a?: string, b?: string, list?: string) => quote(literalsOf(list ?? '').join(valueOf(a, b)))),
    stops: [['["toll", "gate"].join("") + " approve a1"', 'tollgate approve a1'], ['["tollgate", "approve"].join(" ")', 'tollgate approve'], ["' '.join(reversed(['approve', 'tollgate']))", 'tollgate approve'],
      ['system(join(" ", "tollgate", "approve", "a1"))', 'tollgate approve a1'], ['implode(" ", ["tollgate", "approve"])', 'tollgate approve'], ['["approve", "tollgate"].reverse().join(" ")', 'tollgate approve']],
    allows: ['names.join(", ")', 'join(",", @list)', 'reversed(items)'],
  },
  {
    name: 'character-codes',
    mayApply: (c) => c.includes('chr(') || c.includes('chr,') || c.includes('fromCharCode') || c.includes('.pack(') || /\bbytes(?:array)?\(\s*\[/.test(c),
    fold: (c) => c.replace(joinedChrMap, (_m, mapped: string | undefined, generated: string | undefined) => quote(charsOf(mapped ?? generated ?? '').join('')))
      .replace(chrMap, (_m, list: string) => `[${charsOf(list).map(quote).join(', ')}]`)
      .replace(chrCall, (_m, n: string) => quote(charOf(n)))
      .replace(fromCharCode, (_m, list: string) => quote(charsOf(list).join('')))
      .replace(bytesList, (_m, list: string) => quote(charsOf(list).join('')))
      .replace(rubyPack, (_m, list: string) => quote(charsOf(list).join(''))),
    stops: [["chr(116)+chr(111)+chr(108)+chr(108)+'gate'", 'tollgate'], ["''.join(map(chr, [116, 111, 108, 108, 103, 97, 116, 101]))", 'tollgate'],
      ["''.join(map(chr,[47,104,46,121]))", '/h.y'], ["''.join(chr(c) for c in [47,104,46,121])", '/h.y'],
      ['String.fromCharCode(116,111,108,108,103,97,116,101)', 'tollgate'], ["bytes([116,111,108,108]).decode() + 'gate'", 'tollgate'], ['[116,111,108,108].pack("c*") + "gate"', 'tollgate']],
    allows: ['chr(n)', 'String.fromCharCode(code)', 'bytes(data)'],
  },
  {
    name: 'hex-base64-and-rot13',
    mayApply: (c) => /hex|b64|b32|decodebytes|decodestring|base64|decode64|atob\(|Buffer\.from|\bpack\(|codecs|rot13|unpack1?\(/.test(c),
    fold: (c) => c.replace(pythonHex, (m, a?: string, b?: string) => decodedOr(m, fromHex(valueOf(a, b))))
      .replace(pythonBase64, (m, a?: string, b?: string) => decodedOr(m, decodedBase(m, valueOf(a, b))))
      .replace(codecsCall, (m, a?: string, b?: string, e1?: string, e2?: string) => decodedOr(m, byName(valueOf(e1, e2), valueOf(a, b))))
      .replace(bufferFrom, (m, a?: string, b?: string, e1?: string, e2?: string) => decodedOr(m, byName(valueOf(e1, e2), valueOf(a, b))))
      .replace(perlPack, (m, f1?: string, f2?: string, a?: string, b?: string) => decodedOr(m, /^H\*?$/.test(valueOf(f1, f2)) ? fromHex(valueOf(a, b)) : null))
      .replace(phpRot, (_m, a?: string, b?: string) => quote(rot13(valueOf(a, b))))
      .replace(rubyUnpack, (m, a?: string, b?: string, how?: string) => decodedOr(m, how === 'H*' ? fromHex(valueOf(a, b)) : fromBase64(valueOf(a, b)))),
    stops: [["bytes.fromhex('746f6c6c67617465').decode() + ' approve'", 'tollgate approve'], ["base64.b64decode('dG9sbGdhdGU=').decode()", 'tollgate'],
      ["codecs.decode('gbyytngr', 'rot13')", 'tollgate'], ['Buffer.from("dG9sbGdhdGU=", "base64").toString()', 'tollgate'], ['atob("dG9sbGdhdGU=")', 'tollgate'],
      ['pack("H*", "746f6c6c67617465")', 'tollgate'], ['decode_base64("dG9sbGdhdGU=")', 'tollgate'], ['str_rot13("gbyytngr")', 'tollgate'], ['Base64.decode64("dG9sbGdhdGU=")', 'tollgate']],
    allows: ['base64.b64decode(data)', "bytes.fromhex(h)", 'Buffer.from(text)', "pack('N', 1)"],
  },
  {
    name: 'reversals',
    mayApply: (c) => c.includes('reverse') || c.includes('strrev'),
    fold: (c) => c.replace(jsReverse, (_m, a?: string, b?: string, d?: string, e?: string, f?: string, g?: string) => quote(reversed(valueOf(a, b) || valueOf(d, e) || valueOf(f, g))))
      .replace(perlReverse, (_m, a?: string, b?: string) => quote(reversed(valueOf(a, b))))
      .replace(namedReverse, (_m, a?: string, b?: string, d?: string, e?: string, f?: string, g?: string) => quote(reversed(valueOf(a, b) || valueOf(d, e) || valueOf(f, g)))),
    stops: [['"etagllot".split("").reverse().join("")', 'tollgate'], ['scalar reverse "etagllot"', 'tollgate'], ['strrev("etagllot")', 'tollgate'],
      ['"etagllot".reverse', 'tollgate'], ["''.join(reversed('etagllot'))", 'tollgate']],
    allows: ['items.reverse()', 'print reverse @list'],
  },
  {
    name: 'dot-concatenation',
    mayApply: (c) => /['"]\s*\.\s*[rRbBuU]{0,2}['"]/.test(c) && dotJoin.test(c),
    fold: (c) => repeatedFold(c, 32, (out) => replaceFirstAtLiteral(out, dotJoins, (_m, a?: string, b?: string, d?: string, e?: string) => quote(valueOf(a, b) + valueOf(d, e)))),
    stops: [['system("toll"."gate approve a1")', 'tollgate approve a1'], ["unlink '/srv/hermes-bot/' . 'config.yaml'", '/srv/hermes-bot/config.yaml'],
      // The text between two literals is none (`'/('` below): Python's `.` between them is no Perl concatenation.
      ["(Path.home()/('.'+'hermes')/'config.yaml').write_text('x')", '~/.hermes/config.yaml']],
    allows: ["print 'a', 'b'", '$x . $y'],
  },
  {
    name: 'sprintf',
    mayApply: (c) => c.includes('printf') || /(?<![\w.])format\(/.test(c),
    fold: (c) => c.replace(sprintfCall, (_m, a?: string, b?: string, list?: string) => quote(percented(valueOf(a, b), literalsOf(list ?? '')))),
    stops: [['system(sprintf("%s%s approve a1", "toll", "gate"))', 'tollgate approve a1'], ['format("%s/%s", "/srv/hermes-bot", "config.yaml")', '/srv/hermes-bot/config.yaml']],
    allows: ['sprintf("%d", n)', "'{}'.format(x)"],
  },
  {
    name: 'template-literals',
    // Only a literal inside `${…}` is filled (the home fold makes `${'~'}`); other templates stay as written.
    mayApply: (c) => c.includes("${'") || c.includes('${"'),
    fold: (c) => c.replace(templateLiteral, filledTemplate),
    stops: [['require("fs").writeFileSync(`${process.env.HOME}/.hermes/config.yaml`, "x")', '~/.hermes/config.yaml'], ["`${'toll'}${'gate'} approve`", 'tollgate approve']],
    allows: ['console.log(`${n} files`)'],
  },
];
