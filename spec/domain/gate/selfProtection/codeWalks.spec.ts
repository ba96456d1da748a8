import { expect } from 'chai';
import { codeWalkExamples, codeWalkRows } from '../../../../domain/gate/selfProtection/codeWalks.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

describe('code that walks a folder holding the keys (codeWalks.ts, real bash grammar, exampleFacts)', () => {
  const analyze = useBashAnalyzer();
  const ids = (line: string) => findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts }).map((f) => f.id);

  for (const line of codeWalkExamples.stops) it(`blocks as a key read: ${line}`, () => expect(ids(line)).to.include('read-secret'));
  for (const line of codeWalkExamples.allows) it(`does not take it for a key read: ${line}`, () => expect(ids(line)).not.to.include('read-secret'));

  it('reads the same walk in an execute_code cell', () => {
    const code = "import os\nfor r, d, f in os.walk('/home/agent/project/data'):\n    for x in f: print(open(os.path.join(r, x)).read())\n";
    const found = findSelfProtection({ tool: 'execute_code', args: { code }, shell: null, protection: exampleFacts }).map((f) => f.id);
    expect(found).to.include('read-secret');
  });

  it('has a stopped example for every language row', () => {
    for (const row of codeWalkRows) expect(codeWalkExamples.stops.some((line) => row.walks.test(line)), row.language).to.equal(true);
  });
});
