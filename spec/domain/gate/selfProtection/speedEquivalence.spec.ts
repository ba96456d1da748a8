/**
 * The floor's speed paths (identity ring memos, per-context text memos, compiled-glob and interpreter caches,
 * `includes` prefilters, the hand-spelled fingerprint text) answer exactly what the plain code answers. Each fast
 * function is compared with a straightforward reference (the code as it was before the speed commits) over
 * hand-picked and generated inputs; whole lines go through the real bash grammar and the floor, judged again on
 * fresh copies of their analyses (every memo misses) and after other lines pushed them out of the memos.
 */
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { canonicalJson } from '../../../../domain/encoding/canonicalJson.ts';
import { matchDangerous } from '../../../../domain/gate/approvals/dangerousCommands.ts';
import { matchHardline } from '../../../../domain/gate/floors/hardlineFloor.ts';
import { literalPortUnknown } from '../../../../domain/gate/selfProtection/codeTargets.ts';
import { commandRules, lineFindings, lineRuleExamples } from '../../../../domain/gate/selfProtection/commandRules.ts';
import { withArithmeticFolded } from '../../../../domain/gate/selfProtection/constantArithmetic.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { isLoopbackHost, loopbackPortUnknown } from '../../../../domain/gate/selfProtection/loopbackHosts.ts';
import { containsProtected, protectionIndex, withCallFacts, type PathContext } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { foldLiterals, pythonStringLiterals, withoutPrintedLiterals } from '../../../../domain/gate/selfProtection/pythonCode.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { argWords, operandsOf, wordsIn } from '../../../../domain/gate/selfProtection/shellOperands.ts';
import { protectionRules } from '../../../../domain/gate/selfProtection/shellRules.ts';
import { hitInText, hitOf, lineScope } from '../../../../domain/gate/selfProtection/shellScope.ts';
import { interpreterFamily } from '../../../../domain/shell/interpreters.ts';
import { recentMemo } from '../../../../domain/shell/recentMemo.ts';
import type { ShellAnalysis } from '../../../../domain/shell/shellAnalysis.ts';
import { actionFingerprint } from '../../../../domain/tools/actionFingerprint.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

/** A small seeded generator: the same inputs on every run, so a failure names its input. */
const seeded = (seed: number) => {
  let s = seed >>> 0;
  const next = (): number => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const text = (tokens: readonly string[], max: number, glue: readonly string[] = ['', ' ']): string =>
    Array.from({ length: 1 + Math.floor(next() * max) }, () => pick(tokens) + pick(glue)).join('');
  return { next, pick, text };
};

// ---- references: the plain code the fast paths replaced ----

const oneLiteral = String.raw`(?:[rRbBuU]{0,2})(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const refPlus = new RegExp(`${oneLiteral}\\s*\\+\\s*${oneLiteral}`);
const refJoined = new RegExp(String.raw`(?:''|"")\s*\.join\(\s*[\[(]\s*((?:${oneLiteral}\s*,\s*)*${oneLiteral})\s*,?\s*[\])]\s*\)`);
const refPathJoined = new RegExp(String.raw`os\.path\.join\(\s*((?:${oneLiteral}\s*,\s*)*${oneLiteral})\s*\)`);
const refLiteralsIn = (list: string): string[] => [...list.matchAll(new RegExp(oneLiteral, 'g'))].map((m) => m[1] ?? m[2] ?? '');
const refQuote = (text: string): string => `'${text.replace(/'/g, '')}'`;
const refFold = (code: string): string => {
  let folded = code;
  for (let round = 0; round < 64; round++) {
    const next = folded
      .replace(refPlus, (_m, a1, a2, b1, b2) => refQuote(`${a1 ?? a2 ?? ''}${b1 ?? b2 ?? ''}`))
      .replace(refJoined, (_m, list: string) => refQuote(refLiteralsIn(list).join('')))
      .replace(refPathJoined, (_m, list: string) => refQuote(refLiteralsIn(list).join('/')))
      .replace(/(?<![\w)\]])\(\s*([rRbBuU]{0,2}(?:'[^'\\\n]*'|"[^"\\\n]*"))\s*\)/g, '$1');
    if (next === folded) return folded;
    folded = next;
  }
  return folded;
};
const refLiteral = /([rRbBuUfF]{0,2})('''|"""|'|")((?:\\[\s\S]|(?!\2)[^\\])*?)\2/g;
const refStringLiterals = (code: string): string[] => {
  const out: string[] = [];
  for (const match of code.matchAll(refLiteral)) out.push(match[3]!);
  const folded = refFold(code);
  if (folded !== code) for (const match of folded.matchAll(refLiteral)) if (!out.includes(match[3]!)) out.push(match[3]!);
  return out;
};
const refPrinted = /\b(?:print|console\.log|puts|say|echo)\s*\(?\s*(?:[rRbBuUfF]{0,2}(?:'[^'\n]*'|"[^"\n]*")\s*(?:,\s*)?)+\)?/g;
const refWithoutPrinted = (code: string): string => code.replace(refPrinted, 'print()');

const refLoopbackPortUnknown = (word: string, port: number): boolean => {
  const folded = withArithmeticFolded(word);
  for (const match of folded.matchAll(/(?:^|[^A-Za-z0-9._~-])(\[[0-9a-fA-F:.%]+\]|[A-Za-z0-9._~-]+):(?=[$`{%]|["']?\s*\+|$)/g)) {
    if (isLoopbackHost(match[1]!)) return true;
  }
  return new RegExp(`(?:^|//|@)[^/\\s:@]*[$\`{][^/\\s@]*:0*${port}(?![0-9])`).test(folded);
};

/** A URL literal on no loopback host and with no expansion: it never reaches tollgate, and it opens the body's path. */
const inertUrl = 'http://example.invalid/';

const refUnguarding = /(?:^|[\n;&|(){}]|\b(?:export|declare|typeset|local|readonly)\s+(?:-[a-zA-Z]+\s+)*)\s*(HERMES_SAFE_MODE|HERMES_YOLO_MODE|HERMES_ACCEPT_HOOKS|HERMES_HOME|HERMES_IGNORE_USER_CONFIG|HERMES_ENABLE_PROJECT_PLUGINS|TOLLGATE_SOCKET|TOLLGATE_HOME|TOLLGATE_CONFIG|CLAUDE_CONFIG_DIR|HERMES_TUI_RESUME|HERMES_[A-Z0-9_]*(?:COMMAND|CMD))\+?=/;
const refLineFindings = (source: string) => {
  const match = refUnguarding.exec(source);
  return match === null ? [] : [{ id: 'hermes-control', what: `${match[1]} set for the Hermes started next` }];
};

const refFamilies: readonly (readonly [string, RegExp])[] = [
  ['python', /^(?:python|pypy)(?:\d+(?:\.\d+)*)?$/], ['perl', /^perl(?:\d+(?:\.\d+)*)?$/], ['ruby', /^ruby(?:\d+(?:\.\d+)*)?$/],
  ['node', /^(?:node|nodejs)$/], ['php', /^php(?:\d+(?:\.\d+)*)?$/], ['bun', /^bun$/], ['deno', /^deno$/], ['lua', /^(?:lua|luajit)(?:\d+(?:\.\d+)*)?$/],
];
const refFamily = (program: string): string | undefined => refFamilies.find(([, name]) => name.test(program))?.[0];

const refFingerprint = (tool: string, commandLine: string): string =>
  createHash('sha256').update(canonicalJson({ tool, commandLine })).digest('hex');

// The analyzer's text readings of a line, without their prefilters.
const refExportWords = /(?:^|[\s;&|(){}`])(export|declare|typeset|local|readonly|unset)((?:\s+-[a-zA-Z]+)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*(?:\+?=(?:"[^"]*"|'[^']*'|[^\s;&|)]*))?)+)/g;
const refExported = (line: string): Map<string, 'export' | 'unset'> => {
  const names = new Map<string, 'export' | 'unset'>();
  if (!/\b(?:export|declare|typeset|local|readonly|unset)\b/.test(line)) return names;
  for (const [, verb, flags = '', rest = ''] of line.matchAll(refExportWords)) {
    if (verb !== 'export' && verb !== 'unset' && !/-[a-zA-Z]*x/.test(flags)) continue;
    for (const word of rest.trim().split(/\s+(?=[A-Za-z_])/)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word)?.[0];
      if (name !== undefined) names.set(name, verb === 'unset' ? 'unset' : 'export');
    }
  }
  return names;
};
const refTouchedNames = (line: string): string[] => {
  const names = new Set<string>();
  for (const m of line.matchAll(/(?:^|[^\w$])([A-Za-z_][A-Za-z0-9_]*)\+?=/g)) names.add(m[1]!);
  for (const m of line.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?=/g)) names.add(m[1]!);
  for (const m of line.matchAll(/\b(?:read|mapfile|readarray)\b((?:\s+-[a-zA-Z]+(?:\s+\S+)?)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)/g))
    for (const n of m[2]!.trim().split(/\s+/)) names.add(n);
  for (const m of line.matchAll(/\bprintf\s+(?:-[a-zA-Z]+\s+)*-v\s*([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
  for (const m of line.matchAll(/\b(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b/g)) names.add(m[1]!);
  for (const m of line.matchAll(/\bgetopts\s+\S+\s+([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
  return [...names];
};
const refUnclear = /&&|\|\||[|&()`{}]|\b(?:if|then|else|elif|fi|case|esac|while|until|for|do|done|select|function|eval|source|exit|return|builtin|command|trap|exec|readonly|read|printf|mapfile|readarray|getopts|let)\b|(?:^|[\s;])\.\s/;
/** A line with backslash-newlines is read joined (bash's reading) and as written: names either may touch count. */
const refReadings = (line: string) => {
  const joined = line.replace(/(?<!\\)((?:\\\\)*)\\\n/g, '$1');
  if (joined === line) return refReadingsOf(line);
  const [bash, written] = [refReadingsOf(joined), refReadingsOf(line)];
  const union = (...lists: string[][]) => [...new Set(lists.flat())].sort();
  return { exports: bash.exports, touched: union(bash.touched, written.touched, written.exports), unsets: bash.unsets, readonly: union(bash.readonly, written.readonly) };
};

const refReadingsOf = (line: string) => {
  const exported = refExported(line);
  const names = new Map(exported);
  if (/\bset\s+(?:-[a-zA-Z]*a|-o\s+allexport)\b/.test(line)) for (const n of refTouchedNames(line)) if (!names.has(n)) names.set(n, 'export');
  if (/\b(?:export|declare|typeset|local|readonly)\b/.test(line)) for (const n of refTouchedNames(line)) if (!names.has(n)) names.set(n, 'export');
  const touched = [...new Set([...refTouchedNames(line), ...exported.keys()])];
  const unsets = refUnclear.test(line) ? [] : [...exported].filter(([, how]) => how === 'unset').map(([n]) => n);
  const readonly = new Set<string>();
  for (const m of line.matchAll(/(?:^|[\s;&|(){}`])(?:readonly|(?:declare|typeset|local)\s+(?:-[a-zA-Z]*\s+)*-[a-zA-Z]*r[a-zA-Z]*)((?:\s+-[a-zA-Z]+)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*(?:=\S*)?)+)/g))
    for (const word of m[2]!.trim().split(/\s+/)) { const n = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word)?.[0]; if (n !== undefined) readonly.add(n); }
  return { exports: [...names.keys()].sort(), touched: touched.sort(), unsets: unsets.sort(), readonly: [...readonly].sort() };
};

// ---- generated inputs ----

const codeTokens = [
  "'", '"', "'data'", '"/keys"', "'toll'", "'gate.yaml'", "r'x'", 'b"y"', "f'{d}/http-token'", "'''", '"""', '+', ' + ', '.join', "''.join([", '"".join((',
  'os.path.join(', ',', ', ', ')', ']', '(', '[', 'print(', 'console.log(', 'puts ', 'echo ', 'say(', 'open(', 'p = 8787', 'port=8700+87', 'http://127.0.0.1:',
  "'http://localhost:'", '{p}', '{port}', 'localhost', '127.0.0.1', '[::1]', ':', '8787', '$PORT', '${P}', '`x`', '$((8700+87))', '\n', '\\', '\\n', 'é', '\u2028',
  'data/keys', '/home/agent/project/data', 'tollgate.sock', 'AGENTS.md', '~/.hermes/config.yaml', 'x', '.JOIN', 'OS.PATH.JOIN(', 'PRINT(', "'://'", '"://"', '://',
];
const shellTokens = [
  'export', 'EXPORT', 'Export', 'xexport', 'export_', 'ex\\port', '"export"', "'export'", 'declare', 'typeset', 'local', 'readonly', 'READONLY', 'unset', 'set',
  'SET', '-a', '-o allexport', '-x', '-r', '-rx', '-g', 'A=1', 'B+=2', '${C:=3}', '${C=3}', 'D', 'E_1=x', 'read', 'READ', 'reader', 'mapfile', 'readarray', 'printf -v F',
  'printf', 'for G in', 'for', 'select H in', 'getopts ab I', 'getopts', 'HERMES_SAFE_MODE=1', 'HERMES_HOME=/tmp/h', 'hermes_safe_mode=1', 'HERMES_',
  'HERMES_YOLO_MODE+=1', ';', '&&', '||', '|', '(', ')', '{', '}', '`', '$(', '\n', '.', 'echo', 'env', 'J=$(x y)', 'é', '\u00a0', '=', 'x',
];
const wordTokens = ['http://', 'https://', '//', '@', 'localhost', '127.0.0.1', '127.1', '[::1]', 'example.com', 'host', ':', '8787', '08787', '8788', '$PORT',
  '${P}', '`p`', '{p}', '$((8700+87))', '$((1+1))', '%', '"', "'", '+', ' ', '/', 'x', '$H', '{', '$'];

const rng = seeded(20261202);
const codes = [
  "open('data/keys').read()", "p = 8787\nurllib.request.urlopen(f'http://127.0.0.1:{p}/v1')", "'toll' + 'gate.yaml'", "''.join(['da', 'ta/keys'])",
  "os.path.join('data', 'keys')", "print('data/keys')", 'x = 1', '', "url = 'http://localhost:' + port", 'PRINT("x")', "OS.PATH.JOIN('data', 'keys')",
  ...Array.from({ length: 3000 }, () => rng.text(codeTokens, 14)),
];
const shellLines = [
  'export A=1', 'set -a; B=2', 'declare -r C=3', 'readonly D', 'unset E', 'read F', 'for G in a b; do :; done', 'ls -la', 'local -r L=1', 'typeset -r T',
  'declare -rx R=1', 'f() { local -r P=2; }', 'mapfile -t M < f', 'readarray N', 'printf -v O %s x', 'select S in a b; do :; done', 'getopts ab Q', 'x=1 y+=2',
  ...lineRuleExamples.stops, ...lineRuleExamples.allows,
  ...Array.from({ length: 2500 }, () => rng.text(shellTokens, 10, [' ', ' ', '', ';'])),
];
const words = ['http://localhost:$PORT', 'http://$H:8787', 'http://127.0.0.1:$((8700+87))/', 'localhost:8787', 'http://example.com/',
  ...Array.from({ length: 2000 }, () => rng.text(wordTokens, 8, [''])),
];

// ---- the specs ----

describe('the floor\'s speed paths answer exactly what the plain code answers', () => {
  it('recentMemo returns the computed value of the very key asked, for any access pattern, evictions included', () => {
    const r = seeded(7);
    const keys = Array.from({ length: 40 }, (_, i) => ({ i }));
    let computed = 0;
    const memo = recentMemo((k: { i: number }) => { computed++; return { of: k.i }; });
    for (let n = 0; n < 20_000; n++) {
      // Mostly a few recent keys, sometimes any of 40 (more than the ring holds).
      const key = r.next() < 0.7 ? keys[Math.floor(r.next() * 4)]! : r.pick(keys);
      expect(memo(key).of).to.equal(key.i);
    }
    expect(computed).to.be.lessThan(20_000);
    // Keys that are equal in content but different objects never share an answer.
    const reused = recentMemo((k: { i: number }) => ({ k }));
    const a = { i: 1 }, b = { i: 1 };
    expect(reused(a).k).to.equal(a);
    expect(reused(b).k).to.equal(b);
  });

  it('folding literals, reading literals and blanking printed ones give the plain code\'s text for every generated cell', () => {
    for (const code of codes) {
      expect(foldLiterals(code), code).to.equal(refFold(code));
      expect(pythonStringLiterals(code), code).to.deep.equal(refStringLiterals(code));
      expect(withoutPrintedLiterals(code), code).to.equal(refWithoutPrinted(code));
    }
  });

  it('a computed loopback port is found in the same words, with or without an expansion in them', () => {
    for (const word of words) for (const port of [8787, 80, 1]) expect(loopbackPortUnknown(word, port), `${word} @${port}`).to.equal(refLoopbackPortUnknown(word, port));
  });

  it('a code URL with a filled-in port is found whether or not the prefilter ran (an inert URL forces the full reading)', () => {
    for (const code of codes) {
      const folded = foldLiterals(code);
      const literals = pythonStringLiterals(code);
      for (const list of [literals, words.slice(0, 1 + (code.length % 40)), [...literals, 'http://127.0.0.1:{p}', '{p}://x'], ['ws://127.0.0.1:{p}'], ['socks5h://localhost:{port}/'], ['HTTP://LOCALHOST:{p}']])
        expect(literalPortUnknown(list, folded, 8787), `${code} ${JSON.stringify(list)}`).to.equal(literalPortUnknown([...list, inertUrl], folded, 8787));
    }
  });

  it('the Hermes-switch declaration is found in the same lines as without the HERMES_/TOLLGATE_/CLAUDE_ prefilter', () => {
    for (const line of shellLines) expect(lineFindings(line), line).to.deep.equal(refLineFindings(line));
  });

  it('interpreter families are the same for any program name, odd names and a cache emptied by many names included', () => {
    const odd = ['', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'python', 'python3', 'python3.11', 'python3.', 'Python3', 'PYTHON',
      'pypy3', 'python3\n', ' python3', 'python3 ', 'node', 'nodejs', 'node.js', 'node\u0000', 'perl5.36', 'perl-5', 'ruby3.2', 'php8.2', 'php-fpm', 'bun', 'deno',
      'lua5.4', 'luajit', 'luajit2.1', 'python\u0663', 'pytho\u006e', '/usr/bin/python3', 'python3.11.4.1'];
    const many = Array.from({ length: 600 }, (_, i) => (i % 3 === 0 ? `python${i}` : i % 3 === 1 ? `tool-${i}` : `lua${i}.${i}`));
    for (let round = 0; round < 3; round++) for (const name of [...odd, ...many, ...odd]) expect(interpreterFamily(name), JSON.stringify(name)).to.equal(refFamily(name));
  });

  it('command-line fingerprints equal SHA-256 of the canonical JSON, lone surrogates and line separators included', () => {
    const r = seeded(11);
    const unit = () => String.fromCharCode(r.pick([0, 9, 10, 13, 31, 34, 39, 47, 92, 127, 0x2028, 0x2029, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfeff, 0xffff, 0xe9,
      Math.floor(r.next() * 0x10000)]));
    const lines = ['', 'rm -r build/', '\ud800', 'a\udfff', '\ud83d\ude00', '\udc00\ud800', '"\\', '\u2028\u2029', '</script>', 'e\u0301', '\u212b', '\u1e9b\u0323', '\ufb01',
      ...Array.from({ length: 3000 }, () => Array.from({ length: Math.floor(r.next() * 12) }, unit).join(''))];
    for (const line of lines) {
      expect(actionFingerprint('terminal', { commandLine: line }), JSON.stringify(line)).to.equal(refFingerprint('terminal', line));
      expect(actionFingerprint(line, { commandLine: 'ls' }), JSON.stringify(line)).to.equal(refFingerprint(line, 'ls'));
    }
  });

  describe('through the real bash grammar', () => {
    const analyze = useBashAnalyzer();
    const tableLines = [...protectionRules.flatMap((r) => [...r.stops, ...r.allows]), ...commandRules.flatMap((r) => [...r.stops, ...r.allows]),
      ...lineRuleExamples.stops, ...lineRuleExamples.allows];
    // Long lines: more commands than the memos hold, the same command text repeated, a cd part way.
    const longLines = [0, 1, 2, 3].map((k) => tableLines.filter((_, i) => i % 4 === k).slice(0, 40).join('; '))
      .concat([Array.from({ length: 30 }, (_, i) => (i === 20 ? tableLines[0]! : `echo ${i}`)).join(' && '), `cd /tmp; ${tableLines.slice(0, 25).join(' | ')}`]);
    const lines = [...tableLines, ...longLines];
    const verdicts = (line: string, shell: ShellAnalysis, facts = exampleFacts) =>
      findSelfProtection({ tool: 'terminal', args: { command: line }, shell, protection: facts }).map((f) => `${f.verdict} ${f.id} ${f.what} | ${f.command ?? ''}`);

    it('the analyzer\'s exports, assigned, unset and read-only names match its text readings without their prefilters', () => {
      for (const line of shellLines) {
        const analysis = analyze(line);
        const ref = refReadings(line);
        expect(Object.keys(analysis.exports ?? {}).sort(), `exports: ${line}`).to.deep.equal(ref.exports);
        expect([...analysis.touched ?? []].sort(), `touched: ${line}`).to.deep.equal(ref.touched);
        expect([...analysis.unsets ?? []].sort(), `unsets: ${line}`).to.deep.equal(ref.unsets);
        expect([...analysis.readonly ?? []].sort(), `readonly: ${line}`).to.deep.equal(ref.readonly);
      }
    });

    it('each line is judged the same on a fresh copy of its analysis, after other lines, interleaved, and again', () => {
      const analyses = lines.map((line) => analyze(line));
      // The reference: every line on a structured copy (new objects: every identity memo misses).
      const fresh = lines.map((line, i) => verdicts(line, structuredClone(analyses[i]!)));
      const hard = analyses.map((a) => [matchHardline(structuredClone(a)), matchDangerous(structuredClone(a))]);
      // The same analysis objects: forwards, backwards, in interleaved pairs, each twice.
      for (let i = 0; i < lines.length; i++) expect(verdicts(lines[i]!, analyses[i]!), lines[i]).to.deep.equal(fresh[i]);
      for (let i = lines.length - 1; i >= 0; i--) expect(verdicts(lines[i]!, analyses[i]!), lines[i]).to.deep.equal(fresh[i]);
      for (let i = 0; i + 1 < lines.length; i += 2) {
        const j = (i * 37 + 11) % lines.length;
        for (const k of [i, j, i, j]) expect(verdicts(lines[k]!, analyses[k]!), lines[k]).to.deep.equal(fresh[k]);
        for (const k of [i, j]) expect([matchHardline(analyses[k]!), matchDangerous(analyses[k]!)], lines[k]).to.deep.equal(hard[k]);
      }
    });

    it('a line judged under other facts in between (another session\'s daemon facts) keeps its own verdict', () => {
      const otherFacts = { ...exampleFacts, home: '/home/b', hermesHome: '/home/b/.hermes', hermesHomes: ['/home/b/.hermes'], pid: 777, httpPort: 9999,
        paths: exampleFacts.paths.map((p) => ({ ...p, path: p.path.replace('/home/agent/project', '/srv/b') })) };
      for (const line of lines.slice(0, 400)) {
        const analysis = analyze(line);
        const mine = verdicts(line, structuredClone(analysis));
        const theirs = verdicts(line, structuredClone(analysis), otherFacts);
        expect(verdicts(line, analysis), line).to.deep.equal(mine);
        expect(verdicts(line, analysis, otherFacts), line).to.deep.equal(theirs);
        expect(verdicts(line, analysis), line).to.deep.equal(mine);
      }
    });

    it('memoized operands and words of every command equal those computed for a copy, whatever ran in between', () => {
      const analyses = lines.map((line) => analyze(line));
      for (const a of analyses) verdicts(a.source, a);
      for (const a of analyses) {
        for (const c of a.commands) {
          expect(operandsOf(c), c.text).to.deep.equal(operandsOf(structuredClone(c)));
          expect(argWords(c), c.text).to.deep.equal(c.args.flatMap(wordsIn));
          // Never another command's answer: every operand is built from this command's own words (`dst/../prev` from rsync's two).
          // Its via labels are its own too (`GIT_WORK_TREE=DIR git …` names the work tree there).
          const own = [c.programPath, c.program, ...c.args, ...c.redirects.map((r) => r.target), c.stdin ?? '', ...c.via];
          const o = operandsOf(c);
          for (const word of [...o.writes, ...o.reads, ...o.trees, ...o.code, ...o.fills ?? [], ...o.treeReads ?? [], ...o.linkTargets ?? []]) {
            const parts = own.some((w) => w.includes(word)) ? [] : word.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
            for (const part of parts) expect(own.some((w) => w.includes(part)), `${word} <- ${c.text}`).to.equal(true);
          }
        }
      }
    });

    it('text searched for protected paths gives the answer for a fresh context, across contexts and indexes sharing objects', () => {
      const base = protectionIndex(exampleFacts);
      const linked = withCallFacts(base, { cwd: '/home/agent/project', links: { '/tmp/l': '/home/agent/project/data' }, dirs: ['/tmp/d'] });
      const elsewhere = protectionIndex({ ...exampleFacts, paths: [...exampleFacts.paths, { path: '/srv/other/secret', kind: 'secret' }], rulesFiles: ['RULES.md'] });
      const analysis = analyze('cd /home/agent/project; cat a; cd /tmp; cat b');
      const scope = lineScope(analysis, base, '/home/agent', false);
      const contexts: PathContext[] = [...scope.contexts, { home: '/home/agent', hermesHome: null, cwd: null, lost: true }, { home: null, hermesHome: null, cwd: '/' }];
      const texts = [...codes.slice(0, 400), 'cat /tmp/l/keys', 'data/keys', 'tollgate.sock', 'ls ../project/data', 'AGENTS.md', 'config.yaml', 'cat /tmp/l', 'cat /srv/other/secret', 'cat RULES.md'];
      for (const text of texts) {
        for (const context of contexts) {
          for (const index of [base, linked, base, elsewhere, base]) {
            expect(hitInText(text, context, index), text).to.deep.equal(hitInText(text, { ...context }, index));
          }
        }
      }
    });

    it('glob words and paths match the same after the compiled-glob cache was emptied by many other globs', () => {
      const index = protectionIndex(exampleFacts);
      const context: PathContext = { home: '/home/agent', hermesHome: '/home/agent/.hermes', cwd: '/home/agent/project' };
      const globs = ['data/*', '*.yaml', 'd?ta/keys', 'da[st]a/http-token', '{data,x}/keys', '/home/agent/project/*/keys', '*/tollgate.sock', 'AGENTS.m?',
        '/opt/tollgate/[ab]*', '[!x]ata', 'SOUL.*', '~/.hermes/*', '*', '/*/agent', 'data/[k]eys', '.claude*',
        'data/key*', 'data/key[!s]', 'data/htt*', 'data/htt[!p]*', 'AGE*', 'AGE[!N]*', '/opt/tollgate/bi?', '/opt/tollgate/bi[!n]'];
      const judge = (g: string) => [hitOf(g, context, index), containsProtected(g.startsWith('/') ? g : `/home/agent/project/${g}`, index)];
      const flood = (round: number) => { for (let i = 0; i < 700; i++) containsProtected(`/tmp/x${round}-${i}*`, index); };
      // The reference: each glob judged alone, right after the cache was emptied (only its own patterns compiled).
      const alone = globs.map((g, i) => { flood(100 + i); return judge(g); });
      for (let round = 0; round < 3; round++) {
        flood(round);
        expect(globs.map(judge)).to.deep.equal(alone);
        expect([...globs].reverse().map(judge)).to.deep.equal([...alone].reverse());
        // Globs alike in their first letters keep their own patterns: `key[!s]` cannot be `keys`, `AGE[!N]*` not AGENTS.md.
        for (const [near, far] of [['data/key*', 'data/key[!s]'], ['data/htt*', 'data/htt[!p]*'], ['AGE*', 'AGE[!N]*']] as const) {
          expect(hitOf(near, context, index), near).to.not.equal(null);
          expect(hitOf(far, context, index)?.kind ?? null, far).to.be.oneOf(['data', null]);
          expect(containsProtected(`/home/agent/project/${far}`, index), far).to.equal(null);
        }
      }
    });
  });
});
