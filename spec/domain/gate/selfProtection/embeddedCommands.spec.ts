import { expect } from 'chai';
import { embeddedFindingsOf, embeddedSources, exportedCommandFindings } from '../../../../domain/gate/selfProtection/embeddedCommands.ts';
import { crontabCommands, exWrittenFiles, makefileText, sedShellTexts, viaAssignments } from '../../../../domain/gate/selfProtection/embeddedLanguages.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { protectionIndex } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { lineScope } from '../../../../domain/gate/selfProtection/shellScope.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';
import { describeRowExamples } from './support/rowExamples.ts';

describe('command text held by another program (options, config keys, variables, job input) is judged as a script (real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const index = protectionIndex(exampleFacts);
  const rowFindings = (row: (typeof embeddedSources)[number], line: string) => {
    const analysis = analyze(line);
    const scope = lineScope(analysis, index, null);
    return analysis.commands.flatMap((c) => embeddedFindingsOf(c, scope, [row]));
  };

  it('every row has a unique name and examples both ways', () => {
    expect(new Set(embeddedSources.map((r) => r.name)).size).to.equal(embeddedSources.length);
    for (const row of embeddedSources) {
      expect(row.stops, row.name).to.have.length.greaterThan(0);
      expect(row.allows, row.name).to.have.length.greaterThan(0);
    }
  });

  describeRowExamples(embeddedSources, analyze, rowFindings);

  describe('readers of the embedded languages', () => {
    it('a stored command is a script for later; a command run now keeps its own reason', () => {
      const later = rowFindings(embeddedSources.find((r) => r.when === 'later')!, "git config core.pager 'rm -rf ~/.hermes/plugins'");
      expect(later.map((f) => f.id)).to.deep.equal(['script-would-disable-guard']);
      const now = rowFindings(embeddedSources[0]!, "git -c core.pager='rm -rf ~/.hermes/plugins' log");
      expect(now.map((f) => f.id)).to.deep.equal(['write-protected-path']);
    });
    it('a job the floor cannot read (a crontab file from disk) is hidden, not allowed', () =>
      expect(rowFindings(embeddedSources.find((r) => r.name.startsWith('crontab'))!, 'crontab /tmp/x').map((f) => f.id)).to.deep.equal(['hidden-command']));
    it('sed: the e command runs to the end of its line, the e flag runs the replacement, other commands run nothing', () => {
      expect(sedShellTexts('1e rm x; echo y')).to.deep.equal(['rm x; echo y']);
      expect(sedShellTexts('s|a|rm \\| x|ge')).to.deep.equal(['rm | x']);
      expect(sedShellTexts('/e/d; s/e/E/g; y/e/E/')).to.deep.equal([]);
      expect(sedShellTexts('$!{e\n}')).to.deep.equal(['']);
    });
    it('a crontab entry is its command without the schedule', () =>
      expect(crontabCommands('# c\nMAILTO=x\n*/5 * * * * rm a\n@reboot rm b')).to.equal('MAILTO=x\nrm a\nrm b'));
    it('a makefile recipe has its simple variables filled in', () =>
      expect(makefileText('P := ~/.hermes/plugins\nx:\n\trm -rf $(P)')).to.include('rm -rf ~/.hermes/plugins'));
    it('Ex writes become shell writes for the judge; a file opened counts only when the text also writes', () => {
      expect(exWrittenFiles('w! /a|q')).to.deep.equal(['> /a']);
      expect(exWrittenFiles('e /b\n%d\nwq')).to.deep.equal(['> /b']);
      expect(exWrittenFiles('e /b\nset nu')).to.deep.equal([]);
      expect(exWrittenFiles('call writefile(["x"], "/c")')).to.deep.equal(['> /c']);
    });
    describe('a command variable exported for the later lines Hermes runs', () => {
      const exported = (line: string) => { const analysis = analyze(line); return exportedCommandFindings(analysis, lineScope(analysis, index, null)).map((f) => f.id); };
      for (const line of ["export GIT_PAGER='rm -rf ~/.hermes/plugins'", "export PROMPT_COMMAND='rm -rf ~/.hermes/plugins'", "declare -x EDITOR='rm -rf ~/.hermes/plugins'"])
        it(`blocks: ${line}`, () => expect(exported(line)).to.deep.equal(['script-would-disable-guard']));
      for (const line of ['export GIT_PAGER=cat', "export PROMPT_COMMAND='history -a'", "export NOTE='rm -rf ~/.hermes/plugins'"])
        it(`allows: ${line}`, () => expect(exported(line)).to.deep.equal([]));
    });
    describe('a startup file exported for every later shell (BASH_ENV, ENV) is judged by its text, or is unknown code (red team 4, m12)', () => {
      const exported = (line: string) => { const analysis = analyze(line); return exportedCommandFindings(analysis, lineScope(analysis, index, null)).map((f) => f.id); };
      it('a file the line did not write cannot be read: every later shell would run it unseen', () => expect(exported('export BASH_ENV=/tmp/evil.sh')).to.deep.equal(['hidden-command']));
      it('the same for sh\'s ENV, declared exported', () => expect(exported('declare -x ENV=/tmp/e')).to.deep.equal(['hidden-command']));
      it('a file the line writes with a command that reaches the guard is a script that disables it', () =>
        expect(exported("echo 'rm -rf ~/.hermes/plugins' > /tmp/e.sh; export BASH_ENV=/tmp/e.sh")).to.deep.equal(['script-would-disable-guard']));
      it('a file the line writes with ordinary text is allowed', () => expect(exported("echo 'set -o pipefail' > /tmp/e.sh; export BASH_ENV=/tmp/e.sh")).to.deep.equal([]));
      it('an empty value runs nothing', () => expect(exported('export BASH_ENV=')).to.deep.equal([]));
      it('ENV=production is an application setting, not a startup file; the shell\'s own dotfile is judged when written', () => {
        expect(exported('export ENV=production')).to.deep.equal([]);
        expect(exported('export BASH_ENV=~/.bashrc')).to.deep.equal([]);
      });
      it('a git config file exported for every later git is read the same way; /dev/null holds nothing', () => {
        expect(exported('export GIT_CONFIG_GLOBAL=/tmp/evil.cfg')).to.deep.equal(['hidden-command']);
        expect(exported('export GIT_CONFIG_GLOBAL=/dev/null')).to.deep.equal([]);
      });
      it('a library preloaded into every later program is unknown code unless it is the system\'s own', () => {
        expect(exported('export LD_PRELOAD=/tmp/evil.so')).to.deep.equal(['hidden-command']);
        expect(exported('export LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2')).to.deep.equal([]);
      });
      it('a one-off prefix for one shell is judged by the environment row, not here', () => expect(exported('BASH_ENV=~/.bashrc bash -c true')).to.deep.equal([]));
    });
    it('prefix assignments are read with their quoting; a wrapper label to the next assignment', () => {
      expect(viaAssignments(["A='x y' B=$'p\\tq'"])).to.deep.equal([{ name: 'A', value: 'x y' }, { name: 'B', value: 'p\tq' }]);
      expect(viaAssignments(['env -i A=rm x B=1'])).to.deep.equal([{ name: 'A', value: 'rm x' }, { name: 'B', value: '1' }]);
    });
  });
});
