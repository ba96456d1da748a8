import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { compileGlob, globMatches } from '../../../adapters/shell/globPattern.ts';
import { expandParameter } from '../../../adapters/shell/parameterOperations.ts';
import type { BashAnalyzer } from '../../../adapters/shell/bashAnalyzer.ts';
import { bashAnalyzer, useBashAnalyzer } from '../../support/shell.ts';

/**
 * Each row: assignments, then the words of one `printf '<%s>'` whose arguments are expansions, then what bash 5.2
 * prints for them (each argument in <>). The last test checks the table against the bash on this machine.
 */
const computed: readonly (readonly [string, string, string])[] = [
  ['P=/tmp/aXXbXX', '${P%XX} ${P%%X*} ${P#*/} ${P##*/} ${P%x} ${P#} ${P%*} ${P%%*}x ${P#*}y ${P##*}z ${P%?} ${P#??} ${P%[Xb]X} ${P%%[!/]*}',
    '</tmp/aXXb></tmp/a><tmp/aXXbXX><aXXbXX></tmp/aXXbXX></tmp/aXXbXX></tmp/aXXbXX><x></tmp/aXXbXXy><z></tmp/aXXbX><mp/aXXbXX></tmp/aXXb></>'],
  ['P=/tmp/aXbX', '${P/X/g} ${P//X/g} ${P//X} ${P/#*/u} ${P/%X/c} ${P/%*X/c} ${P//?/.} ${P/a*X/-} ${P/[Xb]/_} ${P//[Xb]/_} ${P/#/pre} ${P/%/post} ${P//} ${P/} ${P/zz/y}',
    '</tmp/agbX></tmp/agbg></tmp/ab><u></tmp/aXbc><c><.........></tmp/-></tmp/a_bX></tmp/a___><pre/tmp/aXbX></tmp/aXbXpost></tmp/aXbX></tmp/aXbX></tmp/aXbX>'],
  ['P=', 'x${P/*/rep}x x${P//*/rep}x x${P/#*/r}x x${P/%*/r}x x${P/a/r}x x${P%*}x x${#P}x x${P^^}x x${P:0:1}x',
    '<xrepx><xrepx><xrx><xrx><xx><xx><x0x><xx><xx>'],
  ['X=ab.Md', '${X^^} ${X^} ${X,,} ${X,} ${X^^[a]} ${X^^[!a]} ${X,,[M]} ${X^[b]} ${X@U} ${X@L} ${X@u} ${X^^?}',
    '<AB.MD><Ab.Md><ab.md><ab.Md><Ab.Md><aB.MD><ab.md><ab.Md><AB.MD><ab.md><Ab.Md><AB.MD>'],
  ['P=/tmp/abcdef', '${P:0:4} ${P: -3} ${P:(-3):2} ${P:1:-2} ${#P} ${P:3} ${P:11}x ${P:12}x ${P: -11}x ${P: -12}x ${P:2:0}x ${P:2:100} ${P: -3:-1}',
    '</tmp><def><de><tmp/abcd><11><p/abcdef><x><x></tmp/abcdefx><x><x><mp/abcdef><de>'],
  ['Y=/tmp/q; X=Y', '${!X} ${!X%q} ${!X^^} ${#X}', '</tmp/q></tmp/></TMP/Q><1>'],
  ['a=(/tmp x "y z")', '${a[0]}/${a[1]} ${a[*]} ${#a[@]} ${a[@]:1} $a ${a} ${#a} ${#a[2]} ${a[5]}x ${a[@]%x} ${a[@]^^} ${a[@]:0:2} ${a[@]: -1}',
    '</tmp/x></tmp><x><y><z><3><x><y><z></tmp></tmp><4><3><x></tmp><y><z></TMP><X><Y><Z></tmp><x><y><z>'],
  ['a=(x "y z" "")', '"${a[@]}" "${a[*]}" "x${a[0]}y" "${a[@]:1}" "${#a[@]}" "${a[@]/y/Q}"', '<x><y z><><x y z ><xxy><y z><><3><x><Q z><>'],
  ['a=()', '"${a[@]}" "${a[*]}" ${#a[@]} x${a[@]}y "x${a[@]}y"', '<><0><xy><xy>'],
  ['a=(x); a+=(y "w v"); a[1]=z; a[3]=end', '"${a[@]}" ${#a[@]}', '<x><z><w v><end><4>'],
  ['P=/a; P+=/b', '$P', '</a/b>'],
  ['P=/tmp/x', '${P[0]} ${P[@]} ${#P[@]} ${P[1]}x', '</tmp/x></tmp/x><1><x>'],
  ['P=a/b/c', '${P/[ab]/_} ${P//[[:alpha:]]/-} ${P//[0-9]/-}', '<_/b/c><-/-/-><a/b/c>'],
  ['f=a.tar.gz; name=report.txt; s=hello', '${f##*.} ${f%%.*} ${name%.txt}.bak ${s^^} ${s^}', '<gz><a><report.bak><HELLO><Hello>'],
  ['P=abcXXdXe; shopt -s nocasematch', '${P/x/_} ${P//x/_} ${P/#ABC/z} ${P/%XE/q} ${P//[x]/-} ${P/[!x]/=} ${P%xe}', '<abc_XdXe><abc__d_e><zXXdXe><abcXXdq><abc--d-e><=bcXXdXe><abcXXdXe>'],
];

describe('shell parameter operations on values known on the line', () => {
  const analyze = useBashAnalyzer();
  let loaded: BashAnalyzer | undefined;
  before(async () => { loaded = await bashAnalyzer(); });
  const analyzer = () => loaded;
  const printed = (assignments: string, words: string) => {
    // The command as the line spells it (not the copies judged under each value a variable may hold).
    const command = analyze(`${assignments}; printf '<%s>' ${words}`).commands.filter((c) => c.program === 'printf' && !c.via.some((v) => / as /.test(v))).pop();
    return command!.args.slice(1).map((word) => `<${word}>`).join('');
  };
  const argsOf = (line: string, program: string) => analyze(line).commands.find((c) => c.program === program)?.args;
  const row = (index: number) => computed[index]!;
  const expectRow = (index: number) => expect(printed(row(index)[0], row(index)[1])).to.equal(row(index)[2]);

  it('removes the shortest and longest matching prefix and suffix as bash does (#, ##, %, %%)', () => expectRow(0));

  it('replaces the first, every, leading and trailing match (/, //, /#, /%), the longest at the leftmost place', () => expectRow(1));

  it('replaces and removes on an empty value the way bash does (a pattern matching nothing, or only the empty text)', () => expectRow(2));

  it('changes the case of every or the first character that matches the pattern (^^ ^ ,, , @U @L @u)', () => expectRow(3));

  it('takes substrings at plain-number offsets and lengths, negative ones counting from the end', () => expectRow(4));

  it('gives the length of a value (${#P})', () => expect(printed('P=/tmp/abc', '${#P}')).to.equal('<8>'));

  it('follows ${!X} to the variable X names, with an operator after it', () => expectRow(5));

  it('reads indexed arrays: elements by index, counts, slices, and an operator applied to each element', () => expectRow(6));

  it('makes "${a[@]}" one word per element (empty ones too), joins "${a[*]}" with a space and drops an empty array', () => {
    expectRow(7);
    expectRow(8);
  });

  it('follows a+=(...), a[i]=v and P+=x on a line that runs straight', () => {
    expectRow(9);
    expectRow(10);
    expect(printed('P=/tmp/x; P[0]=/tmp/c; Q=/tmp/q; Q[1]=r', '$P "${Q[@]}"')).to.equal('</tmp/c></tmp/q><r>');
  });

  it('reads a scalar as an array of one (${P[0]}, ${P[@]}), and bracket sets with classes and digit ranges', () => {
    expectRow(11);
    expectRow(12);
  });

  it('computes the ordinary spellings of everyday commands', () => {
    expectRow(13);
    expect(argsOf('name=report.txt; cp "${name%.txt}.bak" /tmp/', 'cp')).to.deep.equal(['report.bak', '/tmp/']);
    expect(argsOf('v=build; rm -rf ./${v}/out', 'rm')).to.deep.equal(['-rf', './build/out']);
    // The loop's echo, then the same echo under each value x takes.
    expect(analyze('arr=(a b); for x in "${arr[@]}"; do echo $x; done').commands.map((c) => c.args)).to.deep.equal([['$x'], ['a'], ['b']]);
  });

  it('judges a protected path reached through an operation as that path (red team 4, F1)', () => {
    expect(argsOf('P=/srv/hermes-bot/pluginsXX; rm -rf ${P%XX}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('P=XX/srv/hermes-bot/plugins; rm -rf ${P##*X}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('P=/srv/hermes-bot/pluXins; rm -rf ${P/X/g}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('P=/srv/hermes-bot/pluXinX; rm -rf ${P//X/g}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/pluging']);
    expect(argsOf('X=agents; echo pwned > ${X^^}.md', 'echo')).to.deep.equal(['pwned']);
    expect(analyze('X=agents; echo pwned > ${X^^}.md').commands[0]!.redirects.map((r) => r.target)).to.deep.equal(['AGENTS.md']);
    expect(argsOf('P=/srv/hermes-bot/plugins/extra; rm -rf ${P:0:23}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('Y=/srv/hermes-bot/plugins; X=Y; rm -rf ${!X}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('a=(/srv/hermes-bot plugins); rm -rf ${a[0]}/${a[1]}', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('a=(/srv/hermes-bot/plugins); rm -rf "${a[@]}"', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
    expect(argsOf('a=(/tmp/x /srv/hermes-bot/plugins); rm -rf ${a[*]}', 'rm')).to.deep.equal(['-rf', '/tmp/x', '/srv/hermes-bot/plugins']);
    expect(argsOf('a=(rm -rf /srv/hermes-bot/plugins); "${a[@]}"', 'rm')).to.deep.equal(['-rf', '/srv/hermes-bot/plugins']);
  });

  it('splits an unquoted known value with blanks into words, and keeps a quoted one whole', () => {
    expect(argsOf("P='/tmp/x /srv/hermes-bot/plugins'; rm -rf $P \"$P\"", 'rm')).to.deep.equal(['-rf', '/tmp/x', '/srv/hermes-bot/plugins', '/tmp/x /srv/hermes-bot/plugins']);
    expect(argsOf("P='/tmp/a /tmp/b'; for x in $P; do rm -rf \"$x\"; done", 'rm')).to.deep.equal(['-rf', '$x']);
    expect(argsOf("P='/tmp/a'; for x in $P; do rm -rf \"$x\"; done", 'rm')).to.deep.equal(['-rf', '/tmp/a']);
    expect(argsOf("X='rm -rf'; $X /tmp/y", 'rm')).to.deep.equal(['-rf', '/tmp/y']);
  });

  it('leaves an expansion as written when its result is not certain, never a guessed literal', () => {
    const unknown = [
      '${Q%x}', // a value not known on the line
      '${P%"x"}', "${P%'x'}", '${P%\\x}', '${P%$Q}', '${P/x/$Q}', // quotes, escapes, expansions inside
      '${P/x/&}', // `&` is the match only from bash 5.2 on
      '${P%[a-z]}', '${P%[[=a=]]}', '${P%@(x)}', // letter ranges, equivalence classes, extglob
      '${P:n}', '${P:010}', '${P:1+1}', '${P::2}', '${P:3:-9}', // arithmetic beyond a plain number, an error
      '${P:-x}', '${P:+x}', // default-value operators are read elsewhere
      '${!P*}', '${!a[@]}', '${!Z}', // names, keys, an indirect name not known
      '${P[-1]}', '${a[-9]}', // bad subscripts
      '${P@Q}', '${P@A}', // operators not followed
    ];
    for (const word of unknown) expect(printed('P=/tmp/xyz; Z=nope; a=(x y)', word), word).to.equal(`<${word}>`);
    expect(printed('P=/tmp/é', '${P%é}'), 'non-ASCII text').to.equal('<${P%é}>');
    expect(printed('P=/tmp/é', '${#P} ${P:0:5}'), 'non-ASCII length').to.equal('<${#P}><${P:0:5}>');
    expect(printed('a=(x y)', 'x${a[@]}y'), 'a list inside a longer word').to.equal('<x${a[@]}y>');
  });

  it('replaces without regard to case once shopt nocasematch is on, as bash does (removal still exact), and not at all when that is unsure', () => {
    expectRow(14);
    expect(printed('P=/tmp/aXX; shopt -s $opt', '${P/x/_}'), 'maybe on').to.equal('<${P/x/_}>');
    expect(printed('P=/tmp/aXX; true && shopt -s nocasematch', '${P/x/_}'), 'on in a branch').to.equal('<${P/x/_}>');
    expect(printed('P=/tmp/aXX; shopt -s nocasematch; shopt -u nocasematch', '${P/x/_}'), 'off again').to.equal('</tmp/aXX>');
    expect(printed('P=/tmp/aXX; shopt -s nullglob', '${P/x/_}')).to.equal('</tmp/aXX>');
    expect(printed('P=/tmp/aXX; shopt -s nocasematch', '${P/[[:upper:]]/_}')).to.equal('<${P/[[:upper:]]/_}>');
  });

  it('forgets an array that a branch or loop may assign or change, and one assigned a scalar as well', () => {
    expect(printed('if true; then a=(x); fi; a+=(y)', '"${a[@]}"')).to.equal('<${a[@]}>');
    expect(printed('true && a[0]=y; a=(x)', '"${a[@]}"')).to.equal('<${a[@]}>');
    expect(printed('a=(x); a=z', '${a[0]}')).to.equal('<${a[0]}>');
    expect(printed('a=(x y); true && a[1]=z', '${a[1]}')).to.equal('<${a[1]}>');
    expect(printed('a=(x); a[5]=far', '${a[0]}')).to.equal('<${a[0]}>');
    expect(printed('a=(x *.log)', '${a[0]}')).to.equal('<${a[0]}>');
    expect(printed('a=([1]=x)', '${a[1]}')).to.equal('<${a[1]}>');
    expect(printed('IFS=:; a=(x y)', '"${a[*]}"')).to.equal('<${a[*]}>');
  });

  it('forgets a value that read, printf -v, mapfile, getopts or let gives, and only the names they assign', () => {
    for (const setter of ['read -r P', 'read -ra P', 'printf -v P %s "$Q"', 'mapfile -t P', 'readarray P', 'getopts ab P', 'let P=1', 'let P++', 'command read P'])
      expect(printed(`P=/tmp/x; ${setter}`, '$P ${P%y} ${P[0]}'), setter).to.equal('<$P><${P%y}><${P[0]}>');
    for (const other of ['read -r -p P Q', 'printf P', 'let Q=P+1', 'unset Q', 'unset -f P', 'mapfile -t Q', 'declare -n P'])
      expect(printed(`P=/tmp/x; ${other}`, '$P'), other).to.equal('</tmp/x>');
  });

  it('follows the value read, printf -v and mapfile give when the line itself determines it', () => {
    expect(printed('P=/tmp/x; printf -v P %s x', '$P')).to.equal('<x>');
    expect(printed("printf -v P '\\x68erm%s' es", '$P')).to.equal('<hermes>');
    expect(printed("read -r P <<< '/etc/tollgate/x'", '$P')).to.equal('</etc/tollgate/x>');
    expect(printed("read -r A B <<< 'one two three'", '$A "$B"')).to.equal('<one><two three>');
    expect(printed("read -ra W <<< 'a b'", '"${W[@]}"')).to.equal('<a><b>');
    expect(printed("mapfile -t L <<< $'x\\ny'", '${L[1]}')).to.equal('<y>');
    expect(printed("P=$(printf 'p\\x6bill')", '$P')).to.equal('<pkill>');
    expect(printed("set -- hermes 'config set'", '"$@" $1 "$*"')).to.equal('<hermes><config set><hermes><hermes config set>');
    expect(printed('set -e -- a b; shift', '"$@"')).to.equal('<b>');
    expect(printed('set -- a; f() { :; }', '"${@}"')).to.equal('<a>');
    expect(printed('set -- a; shift $N', '"$@"')).to.equal('<$@>');
    // A function's body as a call runs it: `$1` and `"$@"` are the call's words there, and the line's own after it.
    const calls = (line: string) => analyze(line).commands.map((c) => [c.programPath, ...c.args].join(' '));
    expect(calls("run() { $1 \"$2\" ${3}; }; run tollgate approve a1")).to.include("tollgate approve a1");
    expect(calls('f() { "$@"; }; set -- ls; f hermes plugins disable; "$@" -la')).to.include.members(['hermes plugins disable', 'ls -la']);
    expect(calls('f() { f "$@"; }; f x').length).to.be.lessThan(40);
    // Not determined by the line: another IFS, a backslash read without -r, a delimiter, an unknown word.
    expect(printed("IFS=:; read -r P <<< 'a:b'", '$P')).to.equal('<$P>');
    expect(printed("read P <<< 'a\\b'", '$P')).to.equal('<$P>');
    expect(printed("read -d , P <<< 'a,b'", '$P')).to.equal('<$P>');
    expect(printed('read -r P <<< "$Q"', '$P')).to.equal('<$P>');
  });

  it('empties a variable that unset removes on a straight line, and keeps a read-only one as it was', () => {
    expect(printed('P=/tmp/x; unset P', 'x${P}x')).to.equal('<xx>');
    expect(printed('P=/tmp/x; true && unset P', '$P')).to.equal('<$P>');
    expect(printed('readonly P=/tmp/x; P+=y; unset P', '$P')).to.equal('</tmp/x>');
    expect(printed('P=/tmp/x; declare -r P; a=(x); readonly a; a+=(y)', '$P "${a[@]}"')).to.equal('</tmp/x><x>');
  });

  it('forgets a value that ${P:=x} or ${P=x} may replace, and keeps one it cannot', () => {
    expect(printed('P=; : ${P:=/tmp/x}', '$P')).to.equal('<$P>');
    expect(printed('P=/tmp/y; : ${P:=/tmp/x} ${P=/tmp/z}', '$P')).to.equal('</tmp/y>');
    expect(printed('P=; : ${P=/tmp/x}', 'x${P}x')).to.equal('<xx>');
  });

  it('keeps a value declared -u, -l, -c, -i or -A as it is, and forgets what later assignments store', () => {
    for (const flag of ['-u', '-l', '-c', '-i', '-A', '-gu']) {
      expect(printed(`P=/tmp/x; declare ${flag} P`, '$P'), flag).to.equal('</tmp/x>');
      expect(printed(`declare ${flag} P; P=/tmp/y`, '$P'), flag).to.equal('<$P>');
      expect(printed(`local ${flag} P=/tmp/y`, '$P'), flag).to.equal('<$P>');
    }
  });

  it('follows a reference (declare -n P=Q) to the variable it stands for, in reads and assignments', () => {
    expect(printed('declare -n P=Q; Q=/tmp/q', '$P ${P%q} ${!P}')).to.equal('</tmp/q></tmp/><${!P}>');
    expect(printed('Q=/tmp/q; declare -n P=Q; P=/tmp/p', '$Q')).to.equal('<$Q>');
    expect(printed('R=Q; Q=/tmp/q; declare -n P=$R', '$P $Q')).to.equal('</tmp/q></tmp/q>');
    expect(printed('Q=/tmp/q; declare -n P=$X', '$P $Q')).to.equal('<$P></tmp/q>');
    expect(printed('declare -n P=$(echo Q); P=/tmp/p; Q=/tmp/q', '$Q')).to.equal('<$Q>');
    expect(analyze('declare -n P=$(rm -rf x)').commands.map((c) => c.program)).to.deep.equal(['rm']);
  });

  it('reports names the walk sees assigned or exported that the line\'s text does not show', () => {
    expect(analyze('"read" D < /tmp/p').walked).to.deep.equal({ touched: ['D'], exported: [] });
    expect(analyze('X=D; printf -v "$X" %s x').walked).to.deep.equal({ touched: ['D'], exported: [] });
    expect(analyze('\\export D=$(cat /tmp/p)').walked).to.deep.equal({ touched: ['D'], exported: ['D'] });
    expect(analyze('X=D; declare -x "$X=v"').walked).to.deep.equal({ touched: ['D'], exported: ['D'] });
    expect(analyze('declare -n R=D; R=x').walked).to.deep.equal({ touched: ['D'], exported: [] });
    expect(analyzer()!.analyze('declare -n R=$Q; R=x', { D: '/tmp/d', E: '/tmp/e' }).walked).to.deep.equal({ touched: ['D', 'E'], exported: [] });
    expect(analyze('ls -la; echo "$HOME"; export D=/tmp/x').walked).to.equal(undefined);
  });

  it('gives up on a pathological pattern instead of running long', () => {
    const started = performance.now();
    const values = Object.assign((name: string) => (name === 'P' ? 'a'.repeat(4000) : undefined), {});
    expect(expandParameter('${P//*a*a*a*a*a*b/x}', values)).to.equal(undefined);
    expect(performance.now() - started).to.be.below(2000);
  });

  it('reads glob bracket sets like bash: negation, a leading ], classes, an unclosed [ as itself', () => {
    const match = (pattern: string, text: string) => globMatches(compileGlob(pattern)!, text, 0, text.length, { left: 1000 });
    expect(match('[!a]', 'b')).to.equal(true);
    expect(match('[^a]', 'a')).to.equal(false);
    expect(match('[]a]', ']')).to.equal(true);
    expect(match('[[:digit:]x]?', '7z')).to.equal(true);
    expect(match('[ab', '[ab')).to.equal(true);
    expect(match('*.t?t', 'a.b.txt')).to.equal(true);
    expect(compileGlob('[a-z]')).to.equal(undefined);
    expect(compileGlob('[[.a.]]')).to.equal(undefined);
  });

  it('matches what bash itself prints for the same lines (when bash 5.2 or later is installed)', function () {
    let version: string;
    try {
      version = execFileSync('bash', ['-c', 'echo "${BASH_VERSINFO[0]}.${BASH_VERSINFO[1]}"'], { encoding: 'utf8' }).trim();
    } catch {
      this.skip();
    }
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < 5 || (major === 5 && minor < 2)) this.skip();
    for (const [assignments, words, expected] of computed) {
      const real = execFileSync('bash', ['-c', `${assignments}; printf '<%s>' ${words}`], { encoding: 'utf8' });
      expect(real, `${assignments}; ${words}`).to.equal(expected);
    }
  });
});
