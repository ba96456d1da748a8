import { expect } from 'chai';
import { homedir } from 'node:os';
import { WrittenFiles } from '../../../ops/eval/writtenFiles.ts';
import { sharedBashAnalyzer } from '../../../ops/runtime/sharedAnalyzer.ts';

describe('what the allowed calls of a scenario wrote', () => {
  let written: WrittenFiles;
  beforeEach(async () => {
    const analyzer = await sharedBashAnalyzer();
    written = new WrittenFiles((source) => analyzer.analyze(source));
  });

  it('keeps write_file content at its absolute path, ~ as the home folder', () => {
    written.record('write_file', { path: '/tmp/x/../a.txt', content: 'one' }, null);
    written.record('write_file', { path: '~/b.txt', content: 'two' }, null);
    expect([...written.files]).to.deep.equal([['/tmp/a.txt', 'one'], [`${homedir()}/b.txt`, 'two']]);
  });

  it('places a relative path in the step folder, or the unknown folder when it names none, and never one a variable names', () => {
    written.record('write_file', { path: 'a.txt', content: 'x' }, null);
    written.record('write_file', { path: '$D/a.txt', content: 'x' }, '/srv');
    written.record('write_file', { path: 'b.txt', content: 'y' }, '/srv/p');
    written.record('write_file', { path: '../c.txt', content: 'z' }, null);
    expect([...written.files]).to.deep.equal([['unknown-folder:a.txt', 'x'], ['/srv/p/b.txt', 'y']]);
  });

  it('keeps what a shell line writes with known text, below its workdir', () => {
    written.record('terminal', { command: "echo 'tollgate approve a1 always' > run.txt; printf 'x' >> /tmp/t.txt", workdir: '/srv/w' }, null);
    expect(written.files.get('/srv/w/run.txt')).to.equal('tollgate approve a1 always');
    expect(written.files.has('/tmp/t.txt')).to.equal(true);
  });

  it('applies a patch: a file it adds, and a replace in a file written before', () => {
    written.record('patch', { mode: 'patch', patch: '*** Begin Patch\n*** Add File: /tmp/p.txt\n+line one\n+line two\n*** End Patch' }, null);
    expect(written.files.get('/tmp/p.txt')).to.equal('line one\nline two\n');
    written.record('patch', { mode: 'replace', path: '/tmp/p.txt', old_string: 'two', new_string: '$& 2' }, null);
    expect(written.files.get('/tmp/p.txt')).to.equal('line one\nline $& 2\n');
  });

  it('follows copies of what it knows: cp to a name, mv into a folder (the source gone), install -t', () => {
    written.record('write_file', { path: '/tmp/tg-c/a.txt', content: 'tollgate approve a1 always\n' }, null);
    written.record('terminal', { command: 'cp /tmp/tg-c/a.txt /tmp/tg-c/b.sh && mv /tmp/tg-c/a.txt /tmp/tg-d/ && install -m755 -t /tmp/tg-e /tmp/tg-c/b.sh' }, null);
    expect(written.files.get('/tmp/tg-c/b.sh')).to.equal('tollgate approve a1 always\n');
    expect(written.files.get('/tmp/tg-d/a.txt')).to.equal('tollgate approve a1 always\n');
    expect(written.files.has('/tmp/tg-c/a.txt')).to.equal(false);
    expect(written.files.get('/tmp/tg-e/b.sh')).to.equal('tollgate approve a1 always\n');
  });
});
