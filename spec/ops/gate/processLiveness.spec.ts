/** Process liveness for session claims: only a process known to be gone lets another registration take over. */
import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { processGone, processStartTime } from '../../../ops/gate/processLiveness.ts';

describe('process liveness (claims after a runtime restart)', function () {
  before(function () { if (process.platform !== 'linux') this.skip(); });

  it('a running process is alive: its start time matches', () => {
    const started = processStartTime(process.pid);
    expect(started).to.match(/^\d+$/);
    expect(processGone(process.pid, started)).to.equal(false);
  });

  it('an exited process is gone', async () => {
    const child = spawn('true');
    const pid = child.pid!;
    const started = processStartTime(pid) ?? '0';
    await new Promise((done) => child.once('exit', done));
    await new Promise((done) => setTimeout(done, 50));
    expect(processGone(pid, started)).to.equal(true);
  });

  it('a pid now held by a later process counts as gone (the start time differs)', () => {
    expect(processGone(process.pid, '1')).to.equal(true);
  });

  it('unknown liveness counts as alive: no pid, or no recorded start time', () => {
    expect(processGone(null, '123')).to.equal(false);
    expect(processGone(process.pid, null)).to.equal(false);
  });
});
