import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { startupFileRows } from '../../../../domain/gate/selfProtection/startupFiles.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('files a program runs at start (startupFiles.ts, real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const written = (path: string) => findSelfProtection({ tool: 'write_file', args: { path, content: 'x' }, shell: null, protection: exampleFacts }).filter((f) => f.verdict === 'block');
  const echoed = (path: string) => {
    const line = `echo x >> '${path}'`;
    return findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).filter((f) => f.verdict === 'block');
  };

  for (const row of startupFileRows) {
    describe(row.name, () => {
      it('says why and has examples both ways', () => {
        expect(row.why).to.not.equal('');
        expect(row.stops).to.have.length.greaterThan(0);
        expect(row.allows).to.have.length.greaterThan(0);
      });
      for (const path of row.stops) {
        it(`blocks write_file of ${path}`, () => expect(written(path)).to.have.length.greaterThan(0));
        it(`blocks an append to ${path}`, () => expect(echoed(path)).to.have.length.greaterThan(0));
      }
      for (const path of row.allows) {
        it(`allows write_file of ${path}`, () => expect(written(path)).to.deep.equal([]));
        it(`allows an append to ${path}`, () => expect(echoed(path)).to.deep.equal([]));
      }
    });
  }

  it('judges a relative name by the folder the terminal is in', () => {
    const line = 'cd /etc/cron.d && echo x > job';
    expect(findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).map((f) => f.verdict)).to.include('block');
  });

  it('leaves reads of them alone', () => {
    for (const line of ['cat ~/.gitconfig', 'cat .npmrc', 'crontab -l', 'cat /etc/crontab', 'git config --get user.name']) {
      expect(findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }), line).to.deep.equal([]);
    }
  });
});
