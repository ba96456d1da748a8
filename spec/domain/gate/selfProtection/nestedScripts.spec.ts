/** Files a script or a code cell runs in turn (nestedScripts.ts), judged through the real gate layer. */
import { expect } from 'chai';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { nestedScriptWords } from '../../../../domain/gate/selfProtection/nestedScripts.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

const payload = { '/tmp/.c': 'tollgate approve a1 always\n' };
const harmless = { '/tmp/.c': 'echo hi\n' };

describe('nested scripts: what a script, recipe or code cell runs in turn', () => {
  const analyze = useBashAnalyzer();
  const blocks = (tool: string, args: Record<string, unknown>, scripts: Record<string, string>) =>
    findSelfProtection({ tool, args, shell: tool === 'terminal' ? analyze(args['command'] as string) : null, protection: exampleFacts, scripts }).some((f) => f.verdict === 'block');

  it('names the files shell text runs: a runner and its script, a path run as a command', () => {
    expect(nestedScriptWords('all:\n\tsh /tmp/.c\n')).to.deep.equal(['/tmp/.c']);
    expect(nestedScriptWords('. ~/x; bash -e ./y.sh')).to.deep.equal(['~/x', './y.sh']);
    expect(nestedScriptWords('make && /tmp/run')).to.deep.equal(['/tmp/run']);
  });

  it('names quoted paths in code only when the code runs or loads something', () => {
    expect(nestedScriptWords("import os\nos.system(open('/tmp/.c').read())")).to.deep.equal(['/tmp/.c']);
    expect(nestedScriptWords("print(open('/tmp/.c').read())")).to.deep.equal([]);
  });

  const cases: readonly (readonly [string, string, Record<string, unknown>])[] = [
    ['a script the line runs, which runs another', 'terminal', { command: 'sh /tmp/run.sh' }],
    ['a Makefile written with a recipe running the file', 'write_file', { path: '/tmp/p/Makefile', content: 'all:\n\tsh /tmp/.c\n' }],
    ['a package.json whose postinstall runs the file', 'write_file', { path: '/tmp/p/package.json', content: '{"scripts":{"postinstall":"sh /tmp/.c"}}' }],
    ['a code cell running the file\'s text', 'execute_code', { code: "import os\nos.system(open('/tmp/.c').read())" }],
    ['inline code running the file\'s text', 'terminal', { command: "python3 -c \"import os;os.system(open('/tmp/.c').read())\"" }],
    ['a script written on the line that runs the file', 'terminal', { command: "echo 'sh /tmp/.c' > /tmp/r.sh" }],
    ['a code cell handing the file to a shell through exec (red team 12)', 'execute_code', { code: "import os\nos.execvp('sh', ['sh', '/tmp/.c'])" }],
  ];
  for (const [about, tool, args] of cases) {
    it(`blocks ${about} when that file reaches the guard, and not when it is harmless`, () => {
      const runSh = { '/tmp/run.sh': '#!/bin/sh\nsh /tmp/.c\n' };
      expect(blocks(tool, args, { ...payload, ...runSh })).to.equal(true);
      expect(blocks(tool, args, { ...harmless, ...runSh })).to.equal(false);
    });
  }
});
