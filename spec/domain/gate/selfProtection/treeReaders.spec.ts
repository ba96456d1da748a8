import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import type { ProtectionFacts } from '../../../../domain/gate/selfProtection/protectionFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { operandsOf } from '../../../../domain/gate/selfProtection/shellOperands.ts';
import { searcherRows } from '../../../../domain/gate/selfProtection/treeReaders.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('recursive searchers (treeReaders.ts, real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const ids = (line: string, facts: ProtectionFacts = exampleFacts) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: facts }).map((f) => f.id);

  for (const row of searcherRows) {
    describe(row.name, () => {
      it('has examples both ways', () => {
        expect(row.stops).to.have.length.greaterThan(0);
        expect(row.allows).to.have.length.greaterThan(0);
      });
      for (const line of row.stops) {
        it(`blocks: ${line}`, () => {
          const analysis = analyze(line);
          expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
          const searcher = analysis.commands.find((c) => row.programs.includes(c.program));
          expect(operandsOf(searcher!).treeReads ?? [], 'walks a folder').to.not.deep.equal([]);
          expect(ids(line)).to.include('read-secret');
        });
      }
      for (const line of row.allows) it(`allows: ${line}`, () => expect(ids(line)).not.to.include('read-secret'));
    });
  }

  it('takes the first operand as the pattern, not a folder, unless -e gives it', () => {
    expect(operandsOf(analyze('grep -r . src').commands[0]!).treeReads).to.deep.equal(['src']);
    expect(operandsOf(analyze('grep -r -e x . src').commands[0]!).treeReads).to.deep.equal(['.', 'src']);
    expect(operandsOf(analyze('rg TODO').commands[0]!).treeReads).to.deep.equal(['.']);
  });

  describe('where the data folder is a dot folder in the home (~/.tollgate)', () => {
    const dotted: ProtectionFacts = {
      ...exampleFacts,
      paths: [
        { path: '/home/agent/.tollgate', kind: 'data' },
        { path: '/home/agent/.tollgate/keys', kind: 'secret' },
        { path: '/home/agent/.tollgate/http-token', kind: 'secret' },
      ],
    };
    const stops = ['cd /home/agent && rg --hidden foo', 'cd /home/agent && grep -r foo .', 'rg -uu foo /home/agent', 'tar -cf /tmp/all.tar .', 'cp -a . /tmp/backup',
      'zip -r /tmp/all.zip .', 'shopt -s dotglob globstar; grep -r . **/keys', 'shopt -s nocaseglob; cat .TOLLGATE/KEYS/*', 'cp -r .tollgate /tmp/d',
      'rsync -a .tollgate/ /tmp/d/', 'find . -type f | xargs grep -h TODO', 'shopt -s dotglob; tar -cf /tmp/a.tar *',
      'tar czf /tmp/k.tgz -C /home/agent .tollgate', 'tar -c -f /tmp/k.tar -C /home/agent/.tollgate .', 'tar --create --file=/tmp/k.tar --directory=/home/agent .tollgate/keys'];
    const allows = ['cd /home/agent && rg foo', 'rg foo /home/agent', 'cd /home/agent && ag foo', 'rg foo', 'tar -czf build.tgz dist/', 'zip -r site.zip public',
      'cp -a src /tmp/x', 'cat .TOLLGATE/KEYS/*', 'shopt -s globstar; grep -r . **/keys', 'cd /home/agent && grep -r --exclude-dir=.tollgate foo .',
      'shopt -s nocaseglob; ls *.JPG', 'cp .tollgate/ledger.db /tmp/l.db', 'grep -r x keys', 'cp -r data /tmp/d', 'tar czf /tmp/s.tgz -C /home/agent/project src'];
    for (const line of stops) it(`blocks: ${line}`, () => expect(ids(line, dotted)).to.include('read-secret'));
    for (const line of allows) it(`allows: ${line}`, () => expect(ids(line, dotted)).not.to.include('read-secret'));
  });
});
