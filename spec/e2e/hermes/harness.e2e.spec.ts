/**
 * The harness itself, without tollgate: a real Hermes 0.19 runs a scripted tool call against the fake model. This is
 * the positive control for every other test here — it shows that a command Hermes is told to run really runs
 * (the sentinel appears), and that the model's next request carries the tool result the tests read.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { useTempDir } from '../../support/tempDir.ts';
import { startFakeModel, type FakeModel } from './support/fakeModelServer.ts';
import { createHermesHome } from './support/hermesHome.ts';
import { useHermes } from './support/hermesVenv.ts';
import { runHermes } from './support/runHermes.ts';

describe('Hermes e2e harness (no tollgate)', function () {
  this.timeout(180_000);
  const hermes = useHermes();
  const temp = useTempDir('tollgate-hermes-harness');
  let model: FakeModel;
  afterEach(async () => { await model?.close(); });

  it('runs a scripted terminal call for real and shows the model its result', async () => {
    const work = temp.current.file('work');
    mkdirSync(work);
    const sentinel = join(work, 'sentinel-created');
    model = await startFakeModel([
      { tool: 'terminal', args: { command: `touch ${sentinel} && echo harness-output-42` } },
      { text: 'Done: the sentinel exists.' },
    ]);
    const home = createHermesHome({ root: temp.current.path, modelBaseUrl: model.baseUrl, model: model.model });
    const run = await runHermes({ install: hermes.current, home, model, userText: 'Create the sentinel file, please.', cwd: work });

    expect(run.exitCode, run.describe()).to.equal(0);
    expect(existsSync(sentinel), `sentinel missing\n${run.describe()}`).to.equal(true);
    expect(run.stdout).to.contain('Done: the sentinel exists.');
    const [result] = model.toolResults();
    expect(result?.content, run.describe()).to.contain('harness-output-42');
    // Offline: every request Hermes made was an agent-loop turn of the script (no auxiliary calls, no retries).
    expect(run.requests.map((r) => r.hasTools), run.describe()).to.deep.equal([true, true]);
    expect(run.requests[0]?.messages.find((m) => m.role === 'user')?.content).to.equal('Create the sentinel file, please.');
    // Hermes 0.19 streams its chat completions even under -Q (agent/chat_completion_helpers.py); the fake serves both.
    expect(run.requests.map((r) => r.stream)).to.deep.equal([true, true]);
  });
});
