/** Text carried to a shell through plumbing is judged as the code that shell runs (red team 8). */
import { expect } from 'chai';
import { xargsCommands, withHome } from '../../../../adapters/shell/shellPlumbing.ts';
import { devSocketExamples, devSocketReachesPort } from '../../../../domain/gate/selfProtection/devTcpPorts.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';
import { plumbedFileExamples, plumbedFiles } from '../../../../domain/gate/selfProtection/plumbedFiles.ts';
import { findSelfProtection } from '../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import { useBashAnalyzer } from '../../../support/shell.ts';

const approve = 'tollgate approve a1 always';

describe('shell plumbing: text a shell reads through a substitution, descriptor, coprocess, fifo, xargs or filter is its code', () => {
  const analyze = useBashAnalyzer();
  const blocks = (line: string, scripts: Record<string, string> = {}) =>
    findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analyze(line), protection: exampleFacts, scripts }).some((f) => f.verdict === 'block');

  const stops: readonly (readonly [string, string])[] = [
    ['a shell in a process substitution tee writes into', `echo "${approve}" | tee >(sh)`],
    ['a shell in a process substitution tee writes through /dev/fd/N', `echo "${approve}" | tee /dev/fd/3 3> >(sh)`],
    ['a shell in a process substitution the output is redirected into', `printf '${approve}\\n' > >(bash)`],
    ['a shell exec sends the rest of the line to', `exec > >(sh); echo "${approve}"`],
    ['a shell exec opened on a descriptor the line writes to', `exec 3> >(sh); echo "${approve}" >&3`],
    ['a coprocess shell fed through ${COPROC[1]}', `coproc sh; echo "${approve}" >&\${COPROC[1]}`],
    ['a named coprocess group', `coproc S { sh; }; echo "${approve}" >&\${S[1]}`],
    ['a named coprocess running the command itself', `coproc S { ${approve}; }`],
    ['a shell reading a fifo the line writes after it', `mkfifo f; sh < f & echo "${approve}" > f`],
    ['a shell cat-ing a fifo the line writes after it', `mkfifo f; cat f | sh & echo "${approve}" > f`],
    ['a script read from a heredoc on /dev/fd/3', `bash /dev/fd/3 3<<EOF\n${approve}\nEOF`],
    ['a script read from <(…) on /dev/fd/3', `bash /dev/fd/3 3< <(echo "${approve}")`],
    ['a shell reading <(echo …) on stdin', `sh < <(echo "${approve}")`],
    ['a shell reading <(cat f) of a file written on the line', `echo '${approve}' > /tmp/c; sh < <(cat /tmp/c)`],
    ['source /dev/stdin reading <(…)', `. /dev/stdin < <(echo "${approve}")`],
    ['sudo -s reading the pipe (table: sudo)', `echo "${approve}" | sudo -u root -s`],
    ['doas -s reading the pipe (table: doas)', `echo "${approve}" | doas -s`],
    ['su reading the pipe (table: su)', `echo "${approve}" | su - root`],
    ['script reading the pipe (table: script)', `echo "${approve}" | script -q /dev/null`],
    ['ssh to a host that may be this machine (table: ssh)', `echo "${approve}" | ssh -p 22 localhost`],
    ['a group piped into a shell', `{ echo "${approve}"; } | sh`],
    ['a subshell piped into a shell', `(echo "${approve}") | sh`],
    ['a filter passing text on (table: tee)', `echo "${approve}" | tee /dev/null | sh`],
    ['a filter passing text on (table: sed)', `echo "${approve}" | sed s/x/y/ | sh`],
    ['a filter passing text on (table: awk)', `echo "${approve}" | awk 1 | sh`],
    ['a filter passing text on (table: grep)', `echo "${approve}" | grep . | sh`],
    ['a filter passing text on (table: head)', `echo "${approve}" | head -n1 | bash`],
    ['xargs appending its input to the command', 'echo approve a1 always | xargs tollgate'],
    ['xargs -I filling sh -c', `echo "${approve}" | xargs -I{} sh -c {}`],
    ['xargs -0 handing the whole input to sh -c', `echo "${approve}" | xargs -0 sh -c`],
    ['xargs -d newline -n1', `echo "${approve}" | xargs -d '\\n' -n1 bash -c`],
    ['xargs -a of a file written on the line', `echo "${approve}" > cmds; xargs -a cmds -I{} bash -c {}`],
    ['xargs reached through busybox', "busybox xargs tollgate <<< 'approve a1 always'"],
    ['~ after HOME set to a Hermes home', 'HOME=/srv/hermes-bot; rm -rf ~/plugins'],
    ['~ after HOME set to a value not known', 'HOME=$X; rm -rf ~/plugins'],
    ['~ in a command HOME is given to', "HOME=/srv/hermes-bot bash -c 'rm -rf ~/plugins'"],
    ['~ in a redirect after HOME changed', 'HOME=/srv/hermes-bot; echo x > ~/config.yaml'],
    ['a bare cd after HOME changed', 'HOME=/srv/hermes-bot; cd && rm -rf plugins'],
    ['a script read from a descriptor exec opened on a heredoc', `exec 3<<EOF\n${approve}\nEOF\nsource /dev/fd/3`],
    ['a shell reading a descriptor exec opened', `exec 3<<EOF\n${approve}\nEOF\nsh <&3`],
    ['the words after sh -c NAME as its positional parameters', `sh -c '"$@"' _ ${approve}`],
    ['positional words xargs adds after sh -c NAME', `echo '${approve}' | xargs sh -c '"$@"' _`],
    ['a command substitution reading the shell\'s piped input', `echo '${approve}' | sh -c 'eval "$(cat)"'`],
    ['a command substitution as the command word', `echo '${approve}' | sh -c '$(cat)'`],
  ];
  for (const [what, line] of stops) it(`blocks ${what}: ${line}`, () => expect(blocks(line)).to.equal(true));

  const allows = [
    'ls | tee >(wc -l)', 'echo hi | tee >(sh)', 'exec > >(tee log); echo hi', 'exec > >(sh); echo hi', 'coproc cat; echo hi >&${COPROC[1]}',
    'mkfifo f; sh < f & echo hi > f', 'bash /dev/fd/3 3<<EOF\necho hi\nEOF', 'sh < <(echo echo hi)', 'echo hi | sudo -s', 'echo hi | ssh example.org',
    'echo hi | xargs echo', 'echo hi | xargs -I{} sh -c "echo {}"', 'echo a b | xargs -n1 echo', '{ echo ls; } | sh', 'echo data | tee >(gzip > out.gz) | sha256sum',
    'HOME=/tmp/x; rm -rf ~/plugins', 'HOME=/tmp/x; mkdir -p ~/build', 'sort < <(ls)',
    'HOME=/tmp/x; cd && rm -rf plugins', 'exec 3<<EOF\necho hi\nEOF\nbash /dev/fd/3', `sh -c '"$@"' _ echo hi`,
  ];
  for (const line of allows) it(`allows: ${line}`, () => expect(blocks(line)).to.equal(false));

  describe('files read from disk through plumbing', () => {
    const disk = { '/tmp/c.sh': `${approve}\n`, '/tmp/ok.sh': 'echo hi\n' };
    for (const line of plumbedFileExamples.stops) it(`blocks: ${line}`, () => expect(blocks(line, disk)).to.equal(true));
    for (const line of plumbedFileExamples.allows) it(`allows: ${line}`, () => expect(blocks(line, disk)).to.equal(false));
    it('names the file behind <(cat f) and behind the descriptor, nothing for a heredoc', () => {
      const files = (line: string) => analyze(line).commands.flatMap(plumbedFiles);
      expect(files('sh < <(cat /tmp/c.sh)')).to.deep.equal(['/tmp/c.sh']);
      expect(files('bash /dev/fd/3 3< /tmp/c.sh')).to.deep.equal(['/tmp/c.sh']);
      expect(files('bash /dev/fd/3 3<<EOF\nls\nEOF')).to.deep.equal([]);
    });
  });

  describe('bash /dev/tcp ports the floor folds', () => {
    for (const word of devSocketExamples.stops) it(`reaches the HTTP port: ${word}`, () => expect(devSocketReachesPort(word, 8787)).to.equal(true));
    for (const word of devSocketExamples.allows) it(`does not: ${word}`, () => expect(devSocketReachesPort(word, 8787)).to.equal(false));
  });

  describe('what xargs makes of its input', () => {
    const none = () => undefined;
    it('appends the items, in runs of -n', () => {
      expect(xargsCommands(['xargs', 'tollgate'], 'approve a1 always\n', none)).to.deep.equal([['tollgate', 'approve', 'a1', 'always']]);
      expect(xargsCommands(['xargs', '-n1', 'rm'], 'a b\n', none)).to.deep.equal([['rm', 'a'], ['rm', 'b']]);
    });
    it('fills the -I placeholder with each line', () => expect(xargsCommands(['xargs', '-I', '%', 'sh', '-c', '%'], 'a b\nc\n', none)).to.deep.equal([['sh', '-c', 'a b'], ['sh', '-c', 'c']]));
    it('keeps quoted items whole', () => expect(xargsCommands(['xargs', 'sh', '-c'], "'a b'\n", none)).to.deep.equal([['sh', '-c', 'a b']]));
    it('reads -a files the line wrote, and echo is the default command', () =>
      expect(xargsCommands(['xargs', '-a', 'f'], undefined, (p) => (p === 'f' ? 'x\n' : undefined))).to.deep.equal([['echo', 'x']]));
    it('knows nothing without input', () => expect(xargsCommands(['xargs', 'rm'], undefined, none)).to.deep.equal([]));
  });

  it('expands ~ only at a word\'s start, to a placeholder when HOME is not known', () => {
    expect(withHome('~/x', '/srv/h')).to.equal('/srv/h/x');
    expect(withHome('a~/x', '/srv/h')).to.equal('a~/x');
    expect(withHome('~', null)).to.match(/^\$/);
  });
});
