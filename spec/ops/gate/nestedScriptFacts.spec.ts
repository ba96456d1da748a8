/** The files read before decide for what a text runs in turn (ops/gate/scriptFacts.ts, nestedScripts.ts): only where the floor judges them. */
import { expect } from 'chai';
import { scriptFacts } from '../../../ops/gate/scriptFacts.ts';
import { exampleFacts } from '../../../domain/gate/selfProtection/exampleFacts.ts';
import { useBashAnalyzer } from '../../support/shell.ts';

describe('script facts: files a script or code cell runs in turn', () => {
  const analyze = useBashAnalyzer();
  const disk: Record<string, string> = { '/tmp/.c': 'tollgate approve a1 always\n', '/tmp/run.sh': 'sh /tmp/.c\n', '/etc/hosts': '127.0.0.1 localhost\n' };
  const read = (path: string): string | null => disk[path] ?? null;
  const facts = (tool: string, args: Record<string, unknown>) =>
    Object.keys(scriptFacts(tool === 'terminal' ? analyze(args['command'] as string) : null, args, '/srv/p', exampleFacts, read, tool)).sort();

  it('reads the file a script the line runs runs in turn', () => expect(facts('terminal', { command: 'sh /tmp/run.sh' })).to.deep.equal(['/tmp/.c', '/tmp/run.sh']));
  it('reads the file inline code runs', () => expect(facts('terminal', { command: "python3 -c \"import os; os.system(open('/tmp/.c').read())\"" })).to.deep.equal(['/tmp/.c']));
  it('reads the file a script written on the line runs', () => expect(facts('terminal', { command: "printf '#!/bin/sh\\nsh /tmp/.c\\n' > /tmp/x.sh" })).to.deep.equal(['/tmp/.c']));
  it('reads the file a written Makefile and a code cell run', () => {
    expect(facts('write_file', { path: '/srv/p/Makefile', content: 'all:\n\tsh /tmp/.c\n' })).to.deep.equal(['/tmp/.c']);
    expect(facts('execute_code', { code: "import subprocess\nsubprocess.run(open('/tmp/.c').read(), shell=True)" })).to.deep.equal(['/tmp/.c']);
  });
  it('reads nothing for a command that only names a file (its text is data, and stays out of the ledger)', () => {
    expect(facts('terminal', { command: 'cat /etc/hosts' })).to.deep.equal([]);
    expect(facts('terminal', { command: 'ls /tmp/.c' })).to.deep.equal([]);
    expect(facts('execute_code', { code: "print(open('/tmp/.c').read())" })).to.deep.equal([]);
  });
});
