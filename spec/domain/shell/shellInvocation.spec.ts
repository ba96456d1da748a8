import { expect } from 'chai';
import { interpreterCall } from '../../../domain/shell/interpreters.ts';
import { shellMode } from '../../../domain/shell/shellInvocation.ts';

describe('shell invocation', () => {
  it('finds the command string of -c, also in combined flags and after other options', () => {
    expect(shellMode(['-c', 'ls'])).to.deep.equal({ kind: 'command-string', script: 'ls' });
    expect(shellMode(['-lc', 'ls'])).to.deep.equal({ kind: 'command-string', script: 'ls' });
    expect(shellMode(['-o', 'pipefail', '-ec', 'ls', 'name'])).to.deep.equal({ kind: 'command-string', script: 'ls' });
    expect(shellMode(['--rcfile', 'rc', '-c', 'ls'])).to.deep.equal({ kind: 'command-string', script: 'ls' });
    expect(shellMode(['--command=ls'])).to.deep.equal({ kind: 'command-string', script: 'ls' });
  });

  it('reads code from stdin with no operand, with -s, or after a lone -', () => {
    for (const args of [[], ['-x'], ['-s', '--', 'arg'], ['-']]) expect(shellMode(args), args.join(' ')).to.deep.equal({ kind: 'stdin' });
  });

  it('runs a script file otherwise, and long options like --norc are not -c', () => {
    expect(shellMode(['deploy.sh'])).to.deep.equal({ kind: 'script-file', path: 'deploy.sh' });
    expect(shellMode(['--norc', 'x.sh'])).to.deep.equal({ kind: 'script-file', path: 'x.sh' });
  });
});

describe('interpreter calls', () => {
  it('sees inline code', () => {
    expect(interpreterCall('python', ['-c', 'print(1)']).inlineCode).to.equal(true);
    expect(interpreterCall('python', ['-W', 'ignore', '-uc', 'x']).inlineCode).to.equal(true);
    expect(interpreterCall('perl', ['-lne', 'print']).inlineCode).to.equal(true);
    expect(interpreterCall('node', ['--eval=1']).inlineCode).to.equal(true);
    expect(interpreterCall('deno', ['eval', '1']).inlineCode).to.equal(true);
  });

  it('does not mistake option values or modules for inline code', () => {
    expect(interpreterCall('python', ['-m', 'pytest', '-c', 'setup.cfg']).inlineCode).to.equal(false);
    expect(interpreterCall('perl', ['-pie', 's/a/b/', 'f']).inlineCode).to.equal(false); // -i takes "e" as its suffix
    expect(interpreterCall('node', ['-r', 'ts-node/register', 'app.ts']).inlineCode).to.equal(false);
  });

  it('knows when the program comes from stdin', () => {
    expect(interpreterCall('python', []).readsStdin).to.equal(true);
    expect(interpreterCall('python', ['-u', '-']).readsStdin).to.equal(true);
    expect(interpreterCall('python', ['script.py']).readsStdin).to.equal(false);
    expect(interpreterCall('python', ['-m', 'json.tool']).readsStdin).to.equal(false);
  });
});
