/** Where a script's text is recorded (scriptKeys.ts): absolute paths, and relative ones below the unknown folder. */
import { expect } from 'chai';
import { recordedScript, scriptKey, unknownFolderKey } from '../../../../domain/gate/selfProtection/scriptKeys.ts';

const unknown = { home: '/home/a', hermesHome: null, cwd: null };

describe('script keys: where the text of a script a line runs was recorded', () => {
  it('an absolute or resolvable path is its own key', () => {
    expect(scriptKey('/tmp/x.sh', unknown)).to.equal('/tmp/x.sh');
    expect(scriptKey('x.sh', { ...unknown, cwd: '/srv/p' })).to.equal('/srv/p/x.sh');
    expect(scriptKey('~/x.sh', unknown)).to.equal('/home/a/x.sh');
  });

  it('a relative path in an unknown folder is kept below the unknown folder, after the folders cd entered', () => {
    expect(scriptKey('./run.txt', unknown)).to.equal('unknown-folder:run.txt');
    expect(scriptKey('x.sh', { ...unknown, base: 'tasks' })).to.equal('unknown-folder:tasks/x.sh');
  });

  it('no key where the folder was lost, for a path that leaves the folder, or one a variable or glob names', () => {
    expect(scriptKey('run.txt', { ...unknown, lost: true })).to.equal(null);
    expect(unknownFolderKey('../run.txt')).to.equal(null);
    expect(unknownFolderKey('$D/run.txt')).to.equal(null);
    expect(unknownFolderKey('*.sh')).to.equal(null);
  });

  it('reads the recorded text under the key', () => {
    expect(recordedScript({ 'unknown-folder:run.txt': 'x' }, 'run.txt', unknown)).to.equal('x');
    expect(recordedScript({ 'unknown-folder:run.txt': 'x' }, 'run.txt', { ...unknown, cwd: '/srv' })).to.equal(undefined);
  });
});
