/**
 * The Python plugin's own unit tests (stdlib unittest, adapters/hermes/plugin/tests) run as part of `npm test`:
 * with a plain Python 3 (the plugin needs nothing else), and again with the pinned Hermes' Python when one is
 * available, so the tests that load the plugin into Hermes' real PluginManager and ask through Hermes' real
 * approval prompt run too.
 */
import { expect } from 'chai';
import { hermesPython, plainPython, runPluginUnittests } from './support/python.ts';

describe('the Hermes plugin (Python unit tests)', function () {
  this.timeout(300_000);

  it('pass with a plain Python 3 (standard library only)', () => {
    const run = runPluginUnittests(plainPython());
    expect(run.status, run.output).to.equal(0);
    expect(run.failed, run.output).to.equal(false);
    expect(run.ran, run.output).to.be.greaterThan(50);
  });

  it('pass inside the pinned Hermes, none skipped (TOLLGATE_HERMES_PYTHON or the e2e venv)', function () {
    const { python, why } = hermesPython();
    if (python === null) {
      console.log(`      (skipped: ${why})`);
      this.skip();
    }
    const run = runPluginUnittests(python);
    expect(run.status, run.output).to.equal(0);
    expect(run.skipped, `tests were skipped inside Hermes:\n${run.output}`).to.equal(0);
  });
});
