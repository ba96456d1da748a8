import { expect } from 'chai';
import { firstOperandIndex, optionValuesAnywhere, parseOptions } from '../../../domain/shell/commandOptions.ts';

describe('command options', () => {
  it('reads clusters, long options and operands in any order, as GNU tools do', () => {
    const parsed = parseOptions(['build', '-rf', '--verbose', '--interactive=never', 'dist']);
    expect([...parsed.short.keys()]).to.deep.equal(['r', 'f']);
    expect(Object.fromEntries(parsed.long)).to.deep.equal({ verbose: true, interactive: 'never' });
    expect(parsed.operands).to.deep.equal(['build', 'dist']);
  });

  it('stops reading options at --', () => expect(parseOptions(['-f', '--', '-rf', '/']).operands).to.deep.equal(['-rf', '/']));

  it('gives value-taking options their value, attached or next', () => {
    const parsed = parseOptions(['-uroot', '-g', 'wheel', '--user', 'bob', 'cmd'], { shortWithValue: 'ug', longWithValue: ['user'] });
    expect(Object.fromEntries(parsed.short)).to.deep.equal({ u: 'root', g: 'wheel' });
    expect(parsed.long.get('user')).to.equal('bob');
    expect(parsed.operands).to.deep.equal(['cmd']);
  });

  it('lets attached-only options keep the next word as an operand', () =>
    expect(parseOptions(['-i', 'file'], { shortAttachedOnly: 'i' }).operands).to.deep.equal(['file']));

  it('finds where a wrapper\'s command starts', () => {
    expect(firstOperandIndex(['-u', 'bob', '-E', 'rm', '-rf'], 0, { shortWithValue: 'u' })).to.equal(3);
    expect(firstOperandIndex(['-n', '--', '-x'], 0)).to.equal(2);
    expect(firstOperandIndex(['-n'], 0)).to.equal(1);
  });

  it('finds every value one option is given, in each spelling, without a grammar for the rest', () => {
    expect(optionValuesAnywhere(['run', '-p', '8787:80', '--publish=1:2', '-p3:4', 'img'], 'p', ['publish'])).to.deep.equal(['8787:80', '1:2', '3:4']);
    expect(optionValuesAnywhere(['x', 'a.zpaq', '-to', '/d'], null, ['to'])).to.deep.equal(['/d']);
    expect(optionValuesAnywhere(['x', '-op/d/', 'a.rar'], 'op', [])).to.deep.equal(['/d/']);
    expect(optionValuesAnywhere(['--port'], null, ['port'])).to.deep.equal([]);
  });
});
