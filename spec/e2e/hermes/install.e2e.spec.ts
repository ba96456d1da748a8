/**
 * What a Hermes user does: `tollgate install hermes` into their HERMES_HOME (here one that has a model configured
 * and no tollgate), `tollgate doctor`, then plain `hermes chat` — no TOLLGATE_SOCKET in the environment, the plugin
 * finds the daemon from what install wrote. The hardline command must then be blocked by tollgate.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { runCli } from '../../support/runCli.ts';
import { useHermes } from './support/hermesVenv.ts';
import { createHermesHome, type HermesHome } from './support/hermesHome.ts';
import { expectTollgateBlock, hardlineCommand, type HardlineCommand } from './support/commands.ts';
import { ofType, type RecordedTollgateEvent } from './support/tollgateDaemon.ts';
import { converse, openWorld, type Conversation, type World } from './support/world.ts';
import type { CliResult } from '../../support/runCli.ts';

describe('tollgate install hermes + doctor, then a real Hermes 0.19', function () {
  this.timeout(240_000);
  const hermes = useHermes();
  let world: World;
  let home: HermesHome;
  let install: CliResult;
  let reinstall: CliResult;
  let configAfterInstall: string;
  let configAfterReinstall: string;
  let doctor: CliResult;
  let conversation: Conversation;
  let hardline: HardlineCommand;
  let events: RecordedTollgateEvent[];

  before(async () => {
    world = await openWorld({ label: 'tollgate-hermes-install' });
    home = createHermesHome({ root: world.temp.path, modelBaseUrl: world.model.baseUrl, model: world.model.model });
    const args = ['install', 'hermes', '--hermes-home', home.path, '--socket', world.socket];
    install = await runCli(args, { cwd: world.temp.path });
    configAfterInstall = readFileSync(home.configPath, 'utf8');
    reinstall = await runCli(args, { cwd: world.temp.path });
    configAfterReinstall = readFileSync(home.configPath, 'utf8');
    doctor = await runCli(['doctor', '--hermes-home', home.path, '--socket', world.socket, '--python', hermes.current.python, '--json'], {
      cwd: world.temp.path, env: { HERMES_HOME: home.path },
    });
    hardline = hardlineCommand(world);
    conversation = await converse(world, {
      install: hermes.current,
      home,
      socketEnv: false,
      userText: 'Mark it, then wipe the disk.',
      script: [
        { id: 'call_plain', tool: 'terminal', args: { command: `touch ${world.file('installed-plain-ran')}` } },
        { id: 'call_hardline', tool: 'terminal', args: { command: hardline.command } },
        { text: 'Installed conversation over.' },
      ],
    });
    events = await world.daemon!.events();
  });
  after(async () => { await world?.close(); });

  it('installs, and a second run changes nothing', () => {
    expect(install.exitCode, install.stdout + install.stderr).to.equal(0);
    expect(reinstall.exitCode, reinstall.stdout + reinstall.stderr).to.equal(0);
    expect(configAfterReinstall).to.equal(configAfterInstall);
    expect(configAfterInstall).to.match(/tollgate/);
  });

  it('doctor reports the guard active, through Hermes\' own plugin loader', () => {
    expect(doctor.exitCode, doctor.stdout + doctor.stderr).to.equal(0);
    const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: { id: string; status: string; detail: string }[] };
    const failed = report.checks.filter((c) => c.status === 'fail');
    expect(failed, JSON.stringify(report, null, 1)).to.deep.equal([]);
    expect(report.ok).to.equal(true);
  });

  it('then every tool call passes tollgate: plain runs, hardline blocked', () => {
    const { run } = conversation;
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(world.exists('installed-plain-ran'), run.describe()).to.equal(true);
    expectTollgateBlock(world, run, events, 'call_hardline', hardline);
    expect(ofType(events, 'OutputChecked'), run.describe()).to.have.length(1);
  });
});
