import { expect } from 'chai';
import { computedProgramCommands } from '../../../../domain/gate/selfProtection/unknownPrograms.ts';
import { resolvePath, containsAnywhere } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { protectionIndex } from '../../../../domain/gate/selfProtection/protectedPaths.ts';
import { exampleFacts } from '../../../../domain/gate/selfProtection/exampleFacts.ts';

const exampleIndex = () => protectionIndex(exampleFacts);

describe('a program the code computes is judged as each guard program its words reach (unknownPrograms.ts, red team 8)', () => {
  const stops: readonly (readonly [string, string])[] = [
    ["os.system(dec('xyz') + ' approve a1 always')", 'tollgate approve a1 always'],
    ["os.system(sys.argv[1] + ' deny a1')", 'tollgate deny a1'],
    ["os.system(f'{x} approve a1 always')", 'tollgate approve a1 always'],
    ["os.system('{} approve a1'.format(x))", 'tollgate approve a1'],
    ["os.system('%s approve a1' % x)", 'tollgate approve a1'],
    ['execSync(`${x} approve a1`)', 'tollgate approve a1'],
    ["subprocess.run([f(), 'approve', 'a1'])", 'tollgate approve a1'],
    ["os.execvp(x, [x, 'approve', 'a1'])", 'tollgate approve a1'],
    ['execFileSync(x, ["config", "set", "approvals.yolo", "true"])', 'hermes config set approvals.yolo true'],
    ["os.system(k + ' -f tollgate')", 'pkill -f tollgate'],
  ];
  for (const [code, command] of stops) it(`reads ${command} in ${code}`, () => expect(computedProgramCommands(code)).to.include(command));

  const allows = ["os.system(cmd + ' --help')", "subprocess.run([sys.executable, '-m', 'pytest'])", "os.system(f'{editor} notes.txt')",
    "print(name + 'approved')", 'console.log(`${a}approve`)'];
  for (const code of allows) it(`reads no guard command in ${code}`, () => expect(computedProgramCommands(code)).to.deep.equal([]));
});

describe('a path made by a decoder the walk could not read may be any path (protectedPaths.ts, red team 8)', () => {
  const context = { cwd: '/home/agent/project', home: '/home/agent', hermesHome: null };
  it('a write to the output of openssl or gunzip is refused as a word the gate cannot know', () => {
    const resolved = resolvePath('$(echo eA== | openssl base64 -d)', context as never)!;
    expect(containsAnywhere(resolved.anywhere!, exampleIndex(), false, resolved.unknownVariable)?.what).to.contain('cannot know');
  });
  it('a read of it is not a secret read', () => {
    const resolved = resolvePath('$(gunzip -c x.gz)', context as never)!;
    expect(containsAnywhere(resolved.anywhere!, exampleIndex(), true, resolved.unknownVariable)).to.equal(null);
  });
  it('tr and rev of unknown text only reshape it: not refused by this rule', () =>
    expect(resolvePath('$(echo "$f" | tr " " _)', context as never)?.unknownVariable).to.equal(undefined));
});
