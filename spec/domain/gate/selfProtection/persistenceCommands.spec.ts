import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { exportedLoaderExamples } from '../../../../domain/gate/selfProtection/persistenceCommands.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

// The command rows (persistenceCommandRules) run with commandRules' own examples; these are the exported variables.
describe('variables exported into every later program that load code from elsewhere (persistenceCommands.ts, real bash grammar)', () => {
  const analyze = useBashAnalyzer();
  const blocks = (line: string) => findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).filter((f) => f.verdict === 'block');
  for (const line of exportedLoaderExamples.stops) it(`blocks: ${line}`, () => expect(blocks(line).map((f) => f.id)).to.include('hidden-command'));
  for (const line of exportedLoaderExamples.allows) it(`allows: ${line}`, () => expect(blocks(line)).to.deep.equal([]));

  it('a git alias that runs a Hermes or tollgate control command is that command', () => {
    expect(blocks("git config --global alias.st '!hermes config set approvals.yolo true'").map((f) => f.id)).to.include('script-would-disable-guard');
    expect(blocks("git config --global alias.ok '!tollgate approve abc always'").length).to.be.greaterThan(0);
  });
});

describe('a search path judged folder by folder (loadsForeignCode)', () => {
  it('keeps folders inside the working directory and the system, not others', async () => {
    const { loadsForeignCode } = await import('../../../../domain/gate/selfProtection/persistenceCommands.ts');
    expect(loadsForeignCode('PYTHONPATH', '/home/agent/project/src', '/home/agent/project')).to.equal(false);
    expect(loadsForeignCode('PYTHONPATH', '/home/agent/project/src', null)).to.equal(true);
    expect(loadsForeignCode('PYTHONPATH', '/usr/lib/python3/dist-packages:src', '/home/agent/project')).to.equal(false);
    expect(loadsForeignCode('PYTHONPATH', '/home/agent/other', '/home/agent/project')).to.equal(true);
    expect(loadsForeignCode('NODE_PATH', '/tmp/m', '/home/agent/project')).to.equal(true);
  });
});
