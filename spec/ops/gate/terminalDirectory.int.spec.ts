/**
 * Red team 2, R1, through the real Gate and bash grammar: Hermes' terminal keeps its directory between calls, but
 * the runtime reports its process's folder. A `cd` in one allowed call must move where the next call's relative
 * paths are judged, for a registered plugin and an anonymous shell hook alike; a `cd` the gate cannot follow
 * leaves the directory unknown (recorded as null); ordinary work after a `cd` is judged as before.
 */
import { expect } from 'chai';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEvent } from '../../../domain/events/codec.ts';
import { anonymousRuntime, registeredRuntime } from '../../../domain/session/caller.ts';
import { replaySession } from '../../../domain/session/replaySession.ts';
import type { Gate } from '../../../ops/gate/gate.ts';
import { openTestGate } from '../../support/openTestGate.ts';

const root = mkdtempSync(join(tmpdir(), 'tollgate-terminal-cwd-'));
const home = join(root, 'home');
const install = join(root, 'tollgate');
const data = join(install, 'data');
const project = join(root, 'project');
mkdirSync(join(data, 'keys'), { recursive: true });
mkdirSync(join(home, '.hermes', 'plugins'), { recursive: true });
mkdirSync(join(project, 'data'), { recursive: true });
writeFileSync(join(data, 'keys', 'runtime-registrations.json'), '{}\n');
writeFileSync(join(home, '.hermes', 'config.yaml'), 'plugins: {}\n');
/** What Hermes' shell hook sends: its own process's folder, whatever the terminal did. */
const reported = '/tmp';

const recordedCwds = async (gate: Gate, sessionId: string): Promise<(string | null | undefined)[]> =>
  (await gate.ledger.readStream(`session-${sessionId}`))
    .filter((r) => r.type === 'ToolCallDecided')
    .map((r) => (r.metadata as { command?: { data?: { pathFacts?: { cwd: string | null } } } }).command?.data?.pathFacts?.cwd);

describe("the terminal's directory, followed from call to call (red team 2, R1)", function () {
  this.timeout(20_000);
  const saved = { HOME: process.env['HOME'], HERMES_HOME: process.env['HERMES_HOME'] };
  let gate: Gate;
  let session = 0;
  let sessionId = '';
  const call = (command: string, caller = registeredRuntime('plugin')) =>
    gate.toolCall({ sessionId, tool: 'terminal', args: { command }, cwd: reported, caller });

  before(async () => {
    process.env['HOME'] = home;
    delete process.env['HERMES_HOME'];
    gate = await openTestGate({ config: { data: { dir: data }, server: { socket: join(data, 'tollgate.sock') }, approvals: { yolo: true } } });
  });
  after(async () => {
    await gate.close();
    for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key]; else process.env[key] = value;
    rmSync(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    sessionId = `s${++session}`;
    await gate.userMessage({ sessionId, text: 'work on the project' });
  });

  it("blocks reading the registration keys by a relative path after an earlier call's cd into the data folder", async () => {
    expect((await call(`cd ${data}`)).verdict).to.equal('allow');
    const read = await call('cat keys/runtime-registrations.json');
    expect(read.verdict, read.message).to.equal('block');
    expect(read.reasons).to.include('self-protection:read-secret');
    for (const line of ["echo '{}' > keys/runtime-registrations.json", 'cp keys/runtime-registrations.json /tmp/x.json', 'rm -rf keys']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
    }
    expect(await recordedCwds(gate, sessionId)).to.deep.equal([reported, data, data, data, data]);
  });

  it("blocks rewriting Hermes' config and removing its plugins after cd ~/.hermes", async () => {
    expect((await call('cd ~/.hermes')).verdict).to.equal('allow');
    for (const line of ["echo 'plugins: {}' > config.yaml", 'rm -rf plugins', "sed -i 's/x/y/' config.yaml"]) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
      expect(verdict.layer).to.equal('self-protection');
    }
  });

  it('follows a cd made through the shell hook (anonymous) in the same session, and a plugin call after it', async () => {
    expect((await call(`cd ${install}`, anonymousRuntime)).verdict).to.equal('allow');
    expect((await call('rm -rf data')).verdict).to.equal('block');
    expect((await call('cd data', anonymousRuntime)).verdict).to.equal('allow');
    const read = await call('cat keys/runtime-registrations.json', anonymousRuntime);
    expect(read.verdict, read.message).to.equal('block');
    expect(read.reasons).to.include('self-protection:read-secret');
  });

  it('records the directory as unknown (null) after a cd it cannot follow, and an absolute cd makes it known again', async () => {
    expect((await call('cd "$X"')).verdict).to.equal('allow');
    // With the directory unknown the floor judges relative words by their tails and protected names.
    for (const line of ['echo x > data/ledger.db', 'cat data/keys/runtime-registrations.json', 'echo x > tollgate.yaml', 'echo x > .hermes/config.yaml']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
    }
    await call(`cd ${data}`);
    await call('ls');
    expect(await recordedCwds(gate, sessionId)).to.deep.equal([reported, null, null, null, null, null, data]);
  });

  it('treats bare relative names as possibly protected once the directory is lost, under yolo (the floor, not an ask)', async () => {
    expect((await call('cd "$(mktemp -d)"')).verdict).to.equal('allow');
    for (const line of ['rm -rf data', 'mv data d.old', "echo 'plugins: {}' > config.yaml", 'rm -rf plugins', 'echo x >> .env',
      'cat keys/runtime-registrations.json', 'rm ledger.db', 'rm -rf .', 'chmod -R 000 profiles/work', 'rm -rf tollgate',
      // Red team 3, F1: the data folder's other files and a runtime's settings, by name.
      'rm -f ledger.db.checkpoint.json', 'cp /tmp/g.json grants.json', "echo '{}' > settings.json", 'rm -rf .claude']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
      expect(verdict.layer, line).to.equal('self-protection');
      // The key files are protected by name anyway; the rest are stopped because the folder may be a protected one.
      if (!line.includes('runtime-registrations')) expect(verdict.message, line).to.match(/folder it is in is unknown to the gate; use an absolute path, or cd to one first/);
    }
  });

  it('loses the directory inside one line too: `cd $X && rm -rf data`, `cd - && rm -rf plugins`', async () => {
    for (const line of ['cd $X && rm -rf data', 'cd - && rm -rf plugins', 'cd "$(mktemp -d)"; echo x > config.yaml']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('block');
    }
  });

  it('lets ordinary relative work through while lost, and judges it by the real folder again after an absolute cd', async () => {
    await call('cd "$X"');
    for (const line of ['rm -rf build', 'echo x > notes.md', 'ls -la', 'cat README.md', 'mkdir -p out/reports']) {
      const verdict = await call(line);
      expect(verdict.verdict, `${line}: ${verdict.message}`).to.equal('allow');
    }
    await call(`cd ${project}`);
    expect((await call('echo x > config.yaml')).verdict).to.equal('allow');
  });

  it('stays as lenient as before when no directory was ever reported or lost (the runtime sent no cwd, no cd)', async () => {
    const quiet = await gate.toolCall({ sessionId, tool: 'terminal', args: { command: 'echo x > config.yaml' }, caller: registeredRuntime('plugin') });
    expect(quiet.verdict, quiet.message).to.equal('allow');
  });

  it('judges ordinary work after a benign cd as before: rm -rf of a project folder is a dangerous command, not tollgate', async () => {
    const gateManual = await openTestGate({ config: { data: { dir: data }, server: { socket: join(data, 'tollgate.sock') } } });
    try {
      await gateManual.userMessage({ sessionId: 'b', text: 'clean the build' });
      expect((await gateManual.toolCall({ sessionId: 'b', tool: 'terminal', args: { command: `cd ${project} && ls` }, cwd: reported })).verdict).to.equal('allow');
      const remove = await gateManual.toolCall({ sessionId: 'b', tool: 'terminal', args: { command: 'rm -rf data' }, cwd: reported });
      expect(remove.verdict, remove.message).to.equal('ask');
      expect(remove.layer).to.equal('approvals');
      expect((await recordedCwds(gateManual, 'b')).at(-1)).to.equal(project);
    } finally {
      await gateManual.close();
    }
  });

  it('replays a session that moved its terminal exactly (the directory travels in the recorded command)', async () => {
    for (const line of [`cd ${data}`, 'cat keys/runtime-registrations.json', 'cd "$X"', 'ls', `cd ${project}`, 'rm -rf data']) await call(line);
    const records = (await gate.ledger.readStream(`session-${sessionId}`)).map((r) => ({ position: r.position, event: decodeEvent(r), metadata: r.metadata }));
    const report = replaySession(records);
    expect(report.differences).to.deep.equal([]);
    expect(report.commands).to.be.greaterThan(6);
  });
});
