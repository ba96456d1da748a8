import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { placements, projectOwnSource, runLaterPlace, runLaterPlaces } from '../../../../domain/gate/selfProtection/placedCode.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

// The command row (places-code-where-it-runs-later) runs with commandRules' own examples; these are the places.
describe('places code runs from later: git hooks folders and PATH folders (placedCode.ts)', () => {
  for (const place of runLaterPlaces) {
    describe(place.name, () => {
      for (const path of place.stops) it(`is the place: ${path}`, () => expect(runLaterPlace(path, '/home/agent')?.name).to.equal(place.name));
      for (const path of place.allows) it(`is not: ${path}`, () => expect(runLaterPlace(path, '/home/agent')?.name).to.not.equal(place.name));
    });
  }

  it('spellings of a home count where the home is not known', () => {
    expect(runLaterPlace('~/.local/bin/ls', null)?.name).to.equal('path-folders');
    expect(runLaterPlace('$HOME/bin/git', null)?.name).to.equal('path-folders');
    expect(runLaterPlace('/home/bob/.local/bin/npm', null)?.name).to.equal('path-folders');
    expect(runLaterPlace('.git/hooks/pre-commit', null)?.name).to.equal('git-hooks');
  });

  it('a hook source inside the same work tree is the project\'s own', () => {
    expect(projectOwnSource('hooks/pre-commit', '.git/hooks/pre-commit')).to.equal(true);
    expect(projectOwnSource('/srv/app/scripts/pre-push', '/srv/app/.husky/pre-push')).to.equal(true);
    expect(projectOwnSource('.git/hooks/../../scripts/x', '.git/hooks/x')).to.equal(true);
    expect(projectOwnSource('/tmp/evil', '/srv/app/.git/hooks/pre-commit')).to.equal(false);
    expect(projectOwnSource('.git/hooks/../../../x', '.git/hooks/x')).to.equal(false);
    expect(projectOwnSource('/srv/app/x', '/srv/repo.git/hooks/post-receive')).to.equal(false);
  });

  describe('what lands where (real bash grammar)', () => {
    const analyze = useBashAnalyzer();
    const landed = (line: string) => {
      const analysis = analyze(line);
      return analysis.commands.flatMap((c) => placements(c, analysis, '/home/agent', null)).map((p) => `${p.source ?? '?'} -> ${p.placed}${p.link ? ' (link)' : ''}${p.whole ? ' (whole)' : ''}`);
    };
    it('a file into a hooks folder, named or not', () => {
      expect(landed('cp /tmp/e .git/hooks/pre-commit')).to.deep.equal(['/tmp/e -> .git/hooks/pre-commit']);
      expect(landed('cp /tmp/e .git/hooks')).to.deep.equal(['/tmp/e -> .git/hooks/e']);
      expect(landed('install -t .husky a b')).to.deep.equal(['a -> .husky/a', 'b -> .husky/b']);
    });
    it('a relative symbolic link target counts from the link\'s folder', () =>
      expect(landed('ln -s ../../s/pre-commit .git/hooks/pre-commit')).to.deep.equal(['.git/hooks/../../s/pre-commit -> .git/hooks/pre-commit (link)']));
    it('a folder copied whole where hooks or a bin folder are', () => {
      expect(landed('cp -r /tmp/x/.git /srv/app/')).to.deep.equal(['/tmp/x/.git -> /srv/app/.git (whole)']);
      expect(landed('rsync -a /tmp/b/ ~/.local/bin/')).to.deep.equal(['/tmp/b/ -> /home/agent/.local/bin (whole)']);
    });
    it('hash -p names a command', () => expect(landed('hash -p /tmp/x ls git')).to.deep.equal(['/tmp/x -> ls (link)', '/tmp/x -> git (link)']));
    it('nothing for ordinary copies', () => {
      expect(landed('cp a b')).to.deep.equal([]);
      expect(landed('install -d /usr/local/bin')).to.deep.equal([]);
      expect(landed('cp -r src build')).to.deep.equal([]);
    });
  });
});

describe('cd NAME with CDPATH set, and globs over a home\'s profiles (real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const blocks = (line: string, cdpathSet = false) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, cdpathSet }).filter((f) => f.verdict === 'block');
  for (const line of ['CDPATH=/root cd .hermes && echo x > config.yaml', 'cd /tmp && CDPATH=/srv cd hermes-bot && echo x > config.yaml'])
    it(`blocks: ${line}`, () => expect(blocks(line)).to.not.deep.equal([]));
  it('blocks after CDPATH was exported earlier, whatever the line reckons the folder is', () =>
    expect(blocks('cd /tmp && cd hermes-bot && echo x > config.yaml', true)).to.not.deep.equal([]));
  for (const line of ['CDPATH=/root cd ./docs && echo x > notes.txt', 'cd /tmp && cd hermes-bot && echo x > config.yaml'])
    it(`allows: ${line}`, () => expect(blocks(line)).to.deep.equal([]));
  for (const line of ['sed -i s/false/true/ /srv/hermes-bot/profiles/*/config.yaml', 'rm -f /srv/hermes-bot/profiles/*/.env', 'touch /home/agent/.hermes/profiles/w*/plugins/x'])
    it(`blocks: ${line}`, () => expect(blocks(line).map((f) => f.id)).to.include('write-protected-path'));
  for (const line of ['sed -i s/a/b/ /srv/hermes-bot/profiles/*/memories/MEMORY.md', 'cat /srv/hermes-bot/profiles/*/config.yaml'])
    it(`allows: ${line}`, () => expect(blocks(line)).to.deep.equal([]));
});
