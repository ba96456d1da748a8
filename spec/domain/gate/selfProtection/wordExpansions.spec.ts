/**
 * Path words holding what the floor cannot resolve (red team 4, c-expand and h-keys): an unknown expansion may be
 * any text, '/' included, so a word is `anything · its literal tail`, and the tail counts even when it starts inside
 * a segment; brace sequences and globstar are patterns like globs; rules-file globs need a distinctive literal run,
 * not a literal start. Ordinary words with expansions and globs keep passing.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { containsProtected, isPattern, matchPath, protectionIndex, resolvePath, type PathContext } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

const index = protectionIndex(exampleFacts);
const { home, hermesHome } = exampleFacts;
const unknownCwd: PathContext = { home, hermesHome, cwd: null };
const named = (word: string, context: PathContext = unknownCwd) => {
  const resolved = resolvePath(word, context);
  return resolved === null ? null : matchPath(resolved, index);
};

describe('path words with expansions the floor cannot resolve', () => {
  const analyze = useBashAnalyzer();
  const verdicts = (line: string, workdir?: string) =>
    findSelfProtection({ tool: 'terminal', args: { command: line, ...(workdir === undefined ? {} : { workdir }) }, shell: analyze(line), protection: exampleFacts })
      .map((f) => f.verdict);
  const blocks = (line: string, workdir?: string) => {
    const analysis = analyze(line);
    expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
    expect(verdicts(line, workdir), line).to.include('block');
  };
  const passes = (line: string, workdir?: string) => expect(verdicts(line, workdir), line).to.deep.equal([]);

  describe('an unknown inside a segment or at the start of a word leaves its literal tail to judge', () => {
    for (const line of [
      'rm -rf /srv/hermes-bot/plu${Q}gins',
      'rm -rf /srv/hermes-bot/plu$(true)gins',
      'rm -rf /srv/hermes-bot/plu`true`gins',
      'rm -rf ${X}plugins',
      'rm -rf "$(echo /srv/hermes-bot)"plugins',
      'echo pwned > AGE${Q}NTS.md',
      'echo pwned > "$D"SOUL.md',
      'echo x > ${D}tollgate.yaml',
      'cat ${D}http-token',
      'rm -rf ${X}tollgate',
      'echo HERMES_YOLO_MODE=1 >> ${H}.env',
      'rm -rf ${X}.claude',
      'echo {} > ${X}.claude/settings.json',
      'rm -rf "$X"plugins',
      "rm -rf $X'plugins'",
      'rm -rf /srv/hermes-bot/plu$1gins',
      'echo pwned > AGE${A}NT${B}S.md',
      'rm -rf /srv/hermes-bot/p${A}lu${B}gins',
      'echo pwned > AGENT${X}.md',
      'echo "plugins: {}" > $D/con${X}.yaml',
    ]) it(`blocks: ${line}`, () => blocks(line));

    it('keeps a quoted variable apart from the text joined after it (`"$D"SOUL.md` is `${D}SOUL.md`, not `$DSOUL.md`)', () => {
      const redirect = analyze('echo x > "$D"SOUL.md').commands[0]!.redirects[0]!;
      expect(redirect.target).to.equal('${D}SOUL.md');
      expect(analyze('ls "$D"/x').commands[0]!.args).to.deep.equal(['$D/x']);
    });

    it('judges the tail as the end of a segment in any folder: a glob `*TAIL`', () => {
      expect(resolvePath('/srv/hermes-bot/plu${Q}gins', unknownCwd)?.anywhere).to.deep.equal(['*gins']);
      expect(resolvePath('${X}plugins/tollgate/x.py', unknownCwd)?.anywhere).to.deep.equal(['*plugins', 'tollgate', 'x.py']);
      expect(named('AGE${Q}NTS.md')).to.deep.equal({ kind: 'rules-file', what: 'AGENTS.md' });
      expect(resolvePath('AGE${A}NT${B}S.md', unknownCwd)?.anywhere).to.deep.equal(['*NT*S.md']);
      expect(resolvePath('${A}-${B}.json', unknownCwd)?.anywhere ?? null).to.equal(null);
    });

    it('still does not judge a word that is only an expansion, with no literal text after it', () => {
      for (const word of ['"$BUILD_DIR"', '$(mktemp -d)', '${DEST}/', '$X']) expect(resolvePath(word, unknownCwd)?.anywhere ?? null, word).to.equal(null);
      passes('rm -rf "$BUILD_DIR"');
      // (`cd "$(mktemp -d)" && make` is refused since red team 8: the makefile there cannot be read first.)
      passes('cd "$(mktemp -d)" && touch notes.txt');
    });

    it('catches `${Q}` put anywhere inside the last segment of every protected file a write may name', () => {
      const targets = ['/srv/hermes-bot/plugins', '/srv/hermes-bot/config.yaml', '/home/agent/.hermes/auth.json', '/home/agent/project/data/http-token',
        '/home/agent/project/tollgate.yaml', '/etc/tollgate', 'AGENTS.md', 'SOUL.md'];
      fc.assert(fc.property(fc.constantFrom(...targets), fc.nat(), fc.constantFrom('${Q}', '$(true)', '$1', '`true`'), (target, at, unknown) => {
        const cut = target.lastIndexOf('/') + 1 + (at % (target.length - target.lastIndexOf('/') - 1));
        // Only splits that leave a distinctive tail are judged by name (three characters besides an extension).
        const tail = target.slice(cut);
        fc.pre(tail.replace(/\.[A-Za-z0-9]{1,5}$/, '').length >= 3 || tail === '.env');
        const word = `${target.slice(0, cut)}${unknown}${tail}`;
        expect(named(word), word).not.to.equal(null);
      }), { numRuns: 400 });
    });
  });

  describe('a word whose literal start is a folder lies below that folder, whatever its unknown rest', () => {
    for (const line of [
      'rm -rf /srv/hermes-bot/plugins/$X',
      'echo x > /srv/hermes-bot/plugins/$X/foo.py',
      'echo x > /srv/hermes-bot/$F',
      'cat /home/agent/project/data/keys/$K',
      'cp evil.yaml ~/.hermes/profiles/$(ls ~/.hermes/profiles | head -1)',
      'echo "mode: off" > /etc/tollgate/$F',
    ]) it(`blocks: ${line}`, () => blocks(line));

    it('takes a Hermes package name after an unknown folder as Hermes code (the folder may be site-packages)', () => {
      blocks("rm -rf $(python3 -c 'import site;print(site.getsitepackages()[0])')/hermes_cli");
      blocks('echo x >> "$SP"/hermes_state.py');
      for (const line of ['rm -rf "$OUT"/tools', 'rm -rf "$OUT"/gateway', 'cp -r "$SRC"/cli "$DEST"/']) passes(line);
    });

    it('reads a relative folder before the unknown from the known working directory', () => blocks('cat data/keys/$K', '/home/agent/project'));

    it('matches a relative folder before the unknown against protected tails where the directory is unknown', () => {
      blocks('cat data/keys/$K');
      blocks('cd "$(mktemp -d)" && echo x > data/$F');
      for (const line of ['echo x > src/$f', 'rm -rf node_modules/$pkg', 'cp a.txt build/${NAME}', 'cat keys/$K']) passes(line);
    });

    it('asks, not blocks, for an unknown name in a Hermes home folder that holds no protected file', () =>
      expect(verdicts('touch /srv/hermes-bot/skills/$X')).to.deep.equal(['ask']));

    it('names nothing for an unknown below an ordinary folder, even one that holds a protected folder', () => {
      for (const line of ['mkdir -p /home/agent/project/$DIR', 'cp a.txt ~/$DEST', 'rm -rf /tmp/$X', 'echo x > "/$X"']) passes(line);
      passes('echo x > "$PWD/$name"', '/home/agent/project');
      expect(named('/home/agent/project/$X')).to.equal(null);
    });
  });

  describe('brace sequences and globstar are patterns', () => {
    for (const line of [
      'rm -rf /srv/hermes-bot/plugin{r..t}',
      'rm -rf /home/agent/project/dat{a..c}',
      'rm -rf /etc/tollgat{a..f}',
      'shopt -s globstar; rm -rf /srv/**/__init__.py',
      'shopt -s globstar; cat /home/**/keys/*',
      'shopt -s globstar; rm -rf /opt/**/bin',
    ]) it(`blocks: ${line}`, () => blocks(line));

    it('recognises `{r..t}` and `{1..3}` as patterns, and leaves a lone `{x}` or `{a..}` as written', () => {
      expect(isPattern('plugin{r..t}')).to.equal(true);
      expect(isPattern('key{1..30}')).to.equal(true);
      expect(isPattern('x{8787}')).to.equal(false);
      expect(named('/srv/hermes-bot/plugin{a..}')).to.deep.equal({ kind: 'hermes-home', what: '/srv/hermes-bot' });
    });

    it('lets `**` stand for any number of folders, none included, for names and for removals', () => {
      expect(named('/srv/**/plugins/x.py')?.kind).to.equal('hermes-file');
      expect(named('/**/tollgate.yaml')).not.to.equal(null);
      expect(named('/etc/**/tollgate.yaml')?.kind).to.equal('extra');
      expect(containsProtected('/home/agent/**/data', index)?.kind).to.equal('data');
      expect(containsProtected('/tmp/**/cache', index)).to.equal(null);
      expect(named('/tmp/**/x')).to.equal(null);
    });
  });

  describe('globs name a rules file or a secret by a distinctive literal run, not only by their start', () => {
    for (const line of ['sed -i 1d ?GENTS.md', 'echo x > ./*GENTS.md', 'rm -f S[O]UL.md', 'rm -f AG*', 'head -c 64 d*/k*/*', 'cat payload*']) {
      it(`blocks: ${line}`, () => {
        if (line.startsWith('cat payload')) blocks(line, '/home/agent/project/data/keys');
        else blocks(line);
      });
    }

    it('reads the data folder through globs on a relative path whether the directory is known or not', () => {
      blocks('head -c 64 d*/k*/*', '/home/agent/project');
      blocks('head -c 64 da*/ke*/*');
    });
  });

  describe('ordinary work with expansions, globs and braces still passes', () => {
    for (const line of [
      'rm -rf "$OUT"/build',
      'rm -rf ${TMPDIR:-/tmp}/cache',
      'cp a.txt "${DEST}"/',
      'mkdir -p $HOME/.cache/x',
      'rm -f *.log',
      'ls {src,test}/*.ts',
      'echo {1..3}',
      'touch file{1..3}.txt',
      'rm -rf dist/{a..c}',
      'ls *.md',
      'rm -rf build/*',
      'cat docs/*.md',
      'sed -i s/a/b/ *.md',
      'for f in *.txt; do mv "$f" "${f%.txt}.json"; done',
      'jq . in.json > "${OUT}.yaml"',
      'rm -f "${NAME}.db" "${NAME}.md"',
      'echo x > "$OUT/report-${DATE}.md"',
      'cp a.json "/tmp/out-${N}.json"',
      'cat */*',
      'rm -rf */node_modules',
      'rm -rf */bin */adapters',
      'cat p*',
      'cat certs/*.key',
      'shopt -s globstar; rm -rf /tmp/**/cache',
      'shopt -s globstar; ls src/**/*.ts',
      'rm -rf "$WORK"/node_modules',
      'cp -r "$SRC"/lib "$DEST"/lib',
    ]) it(`allows: ${line}`, () => passes(line));

    it('allows the same ordinary words in a known project folder', () => {
      for (const line of ['rm -f *.log', 'ls {src,test}/*.ts', 'rm -rf "$OUT"/build', 'cat docs/*.md', 'rm -rf build/*']) passes(line, '/home/agent/project');
    });
  });
});
