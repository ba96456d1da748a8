import { expect } from 'chai';
import fc from 'fast-check';
import { commandRules } from '../../../../domain/gate/selfProtection/commandRules.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { cannotName, matchPath, protectionIndex, resolvePath, withCallFacts, type PathContext } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { protectionRules } from '../../../../domain/gate/selfProtection/shellRules.ts';

/** The full judgement the shortcut stands in for. */
const fullHit = (word: string, context: PathContext, index: ReturnType<typeof protectionIndex>) => {
  const resolved = resolvePath(word, context);
  return resolved === null ? null : matchPath(resolved, index);
};

const index = protectionIndex(exampleFacts);
const { home, hermesHome } = exampleFacts;
const places: PathContext[] = [
  { home, hermesHome, cwd: null },
  { home, hermesHome, cwd: '/home/agent/project' },
  { home, hermesHome, cwd: '/home/agent/project/src' },
  { home, hermesHome, cwd: '/home/agent/project/data/keys' },
  { home, hermesHome, cwd: '/home/agent' },
  { home, hermesHome, cwd: '/home/agent/.hermes/skills' },
  { home, hermesHome, cwd: '/home/agent/code/.claude' },
  { home, hermesHome, cwd: '/opt/venv/lib/python3.11/site-packages' },
  { home, hermesHome, cwd: '/tmp' },
  { home, hermesHome, cwd: '/' },
  { home, hermesHome, cwd: null, base: 'project' },
];
/** Every word of every example line of the floor's tables, split the ways rows split them. */
const exampleWords = [...new Set([...protectionRules, ...commandRules].flatMap((r) => [...r.stops, ...r.allows])
  .flatMap((line) => line.split(/[\s'"=;&|()<>]+/)).flatMap((w) => [w, ...w.split(/[:,@]/)]).filter((w) => w !== ''))];

describe('cannotName: the shortcut that skips resolving a word never skips a protected one', () => {
  it('agrees with the full match for every word of the floor tables, in every working directory', () => {
    let skipped = 0;
    for (const context of places) {
      for (const word of exampleWords) {
        if (!cannotName(word, context, index)) continue;
        skipped++;
        expect(fullHit(word, context, index), `${word} in ${context.cwd ?? `(unknown, base ${context.base ?? '-'})`}`).to.equal(null);
      }
    }
    // The shortcut must be doing its job too: most ordinary words take it.
    expect(skipped).to.be.greaterThan(exampleWords.length * 3);
  });

  it('agrees with the full match for random words made of protected and ordinary segments', () => {
    const segment = fc.constantFrom('home', 'agent', 'project', 'data', 'keys', 'ledger.db', 'src', 'build', 'x', '.hermes', 'config.yaml',
      '.claude', 'settings.json', 'opt', 'tollgate', 'bin', 'tmp', 'AGENTS.md', 'notes.md', 'site-packages', 'hermes_cli', '..', '.', 'srv', 'hermes-bot');
    fc.assert(fc.property(fc.array(segment, { minLength: 1, maxLength: 6 }), fc.boolean(), fc.constantFrom(...places), (segments, absolute, context) => {
      const word = `${absolute ? '/' : ''}${segments.join('/')}`;
      if (cannotName(word, context, index)) expect(fullHit(word, context, index), word).to.equal(null);
    }), { numRuns: 3000 });
  });

  it('takes no shortcut when the call has symlink facts, or for variables, globs, `~` and `..`', () => {
    const linked = withCallFacts(index, { cwd: null, links: { '/tmp/l': '/home/agent/project/data' }, dirs: [] });
    expect(cannotName('/tmp/l/x', places[0]!, linked)).to.equal(false);
    for (const word of ['$X/y', '`pwd`/y', '~/y', 'dat?', 'a/../b', '{a,b}']) expect(cannotName(word, places[0]!, index), word).to.equal(false);
  });

  it('takes no shortcut below a folder that is protected or inside a Hermes home, where any name is protected', () => {
    expect(cannotName('anything', places[3]!, index)).to.equal(false);
    expect(cannotName('anything', places[5]!, index)).to.equal(false);
    expect(cannotName('anything', places[2]!, index)).to.equal(true);
  });
});
