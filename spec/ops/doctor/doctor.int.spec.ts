/**
 * `tollgate doctor` through the real binary: a real daemon, a temporary HERMES_HOME set up by `tollgate install
 * hermes`, and then one thing broken per test. The plugin probe loads the installed plugin with python3 (and, when
 * a Python with the pinned Hermes is around, through Hermes' own loader and dispatch).
 */
import { expect } from 'chai';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import type { Check, DoctorReport } from '../../../ops/doctor/checks.ts';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';
import { hermesPython } from './support/hermesPython.ts';

describe('tollgate doctor', function () {
  this.timeout(120_000);
  let dir: TempDir;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let socket: string;
  let n = 0;
  let home: string;

  before(async () => {
    dir = await createTempDir('tollgate-doctor');
    daemon = await startDaemon([], dir.path);
    socket = join(dir.path, 'data', 'tollgate.sock');
  });
  after(async () => {
    await daemon?.stop();
    await dir?.remove();
  });
  beforeEach(() => {
    home = join(dir.path, `hermes-${++n}`);
    mkdirSync(home);
    writeFileSync(join(home, 'config.yaml'), '# my Hermes\nplugins:\n  enabled:\n    - disk-cleanup\napprovals:\n  mode: manual\n');
  });

  const install = async (...args: string[]) => {
    const result = await runCli(['install', 'hermes', '--hermes-home', home, '--socket', socket, ...args], { cwd: dir.path });
    expect(result.exitCode, result.stderr).to.equal(0);
  };
  const installFor = async (daemonSocket: string) => {
    const result = await runCli(['install', 'hermes', '--hermes-home', home, '--socket', daemonSocket], { cwd: dir.path });
    expect(result.exitCode, result.stderr).to.equal(0);
  };
  const doctor = async (options: { args?: string[]; env?: NodeJS.ProcessEnv; socket?: string } = {}) => {
    const result = await runCli(['doctor', '--hermes-home', home, '--socket', options.socket ?? socket, '--python', 'python3', '--json', ...(options.args ?? [])],
      { cwd: dir.path, env: { HERMES_SAFE_MODE: '', HERMES_YOLO_MODE: '', HERMES_ACCEPT_HOOKS: '', HERMES_ENABLE_PROJECT_PLUGINS: '', TOLLGATE_SOCKET: '', ...options.env } });
    const report = JSON.parse(result.stdout) as DoctorReport;
    const check = (id: string): Check => {
      const found = report.checks.find((c) => c.id === id);
      expect(found, `${id} in ${report.checks.map((c) => c.id).join(', ')}`).to.not.equal(undefined);
      return found!;
    };
    // principal.* checks warn in this single-user setup by design (spec/ops/install/installSystem.int.spec.ts covers them).
    const bad = report.checks.filter((c) => c.status !== 'ok' && !c.id.startsWith('principal.')).map((c) => `${c.status} ${c.id}: ${c.detail}`);
    return { ...result, report, check, bad };
  };
  const editConfig = (change: (value: Record<string, unknown>) => void) => {
    const path = join(home, 'config.yaml');
    const doc = parseDocument(readFileSync(path, 'utf8'), { version: '1.1' });
    const value = doc.toJS() as Record<string, unknown>;
    change(value);
    writeFileSync(path, parseDocument('').createNode(value).toString());
  };

  it('all ok: daemon running, plugin installed and enabled, every probe answers (exit 0)', async () => {
    await install();
    const { exitCode, report, bad, check } = await doctor();
    expect(bad, JSON.stringify(report, null, 2)).to.deep.equal([]);
    expect(exitCode).to.equal(0);
    expect(report.ok).to.equal(true);
    expect(check('daemon.decides').detail).to.match(/`rm -rf \/` blocked \(hardline:/);
    expect(check('plugin.probe').detail).to.match(/`rm -rf \/` blocked, `echo tollgate-doctor` allowed/);
    for (const id of ['daemon.reachable', 'hermes.config', 'hermes.safe_mode', 'hermes.approvals', 'plugin.present', 'plugin.enabled', 'plugin.socket', 'plugins.others']) check(id);
    expect(check('principal.single_user').status, 'the daemon runs as the doctor\'s own user').to.equal('warn');
  });

  it('all ok with the shell hook too: the hook is run as Hermes runs it and blocks', async () => {
    await install('--both');
    const { exitCode, bad, check } = await doctor();
    expect(bad).to.deep.equal([]);
    expect(exitCode).to.equal(0);
    expect(check('shell_hook.pre_tool_call.probe').detail).to.match(/as Hermes runs it: `rm -rf \/` blocked/);
    expect(check('shell_hook.pre_tool_call.consent').status).to.equal('ok');
  });

  it('the text report names each check with ok / warn / FAIL and what to fix', async () => {
    await install();
    const text = await runCli(['doctor', '--hermes-home', home, '--socket', join(dir.path, 'none.sock'), '--python', 'python3'], { cwd: dir.path });
    expect(text.exitCode).to.equal(1);
    expect(text.stdout).to.match(/^FAIL {2}daemon reachable: no daemon listens on .*\n {6}fix: start it: tollgate serve/m);
    expect(text.stdout).to.match(/^ok {4}plugin enabled: tollgate is in plugins\.enabled$/m);
    expect(text.stdout).to.match(/\d+ FAIL, \d+ warn, \d+ ok — the guard is NOT known to be active\n$/);
  });

  it('FAIL: daemon unreachable (and the plugin, which cannot register with it, starts as its blocking stub)', async () => {
    const nobody = join(dir.path, 'nobody.sock');
    await installFor(nobody);
    const { exitCode, check } = await doctor({ socket: nobody });
    expect(exitCode).to.equal(1);
    expect(check('daemon.reachable').status).to.equal('fail');
    expect(check('plugin.socket').status).to.equal('ok');
    expect(check('plugin.probe')).to.deep.include({ status: 'fail', fix: 'start the daemon (tollgate serve) before Hermes, then restart Hermes' });
    expect(check('plugin.probe').detail).to.match(/failed to start \(DaemonError: .*\) and blocks every tool call/);
  });

  it('warn: the doctor checks another daemon than the one the plugin asks', async () => {
    await install();
    const { check } = await doctor({ socket: join(dir.path, 'other.sock') });
    expect(check('plugin.socket').status).to.equal('warn');
  });

  it('FAIL: tollgate is not installed at all', async () => {
    const { exitCode, check } = await doctor();
    expect(exitCode).to.equal(1);
    expect(check('plugin.present').status).to.equal('fail');
    expect(check('tollgate.installed')).to.deep.include({ status: 'fail', fix: 'tollgate install hermes' });
  });

  it('FAIL: the plugin is present but not in plugins.enabled (listed is not active, and present is not either)', async () => {
    await install();
    editConfig((v) => { (v['plugins'] as Record<string, unknown>)['enabled'] = ['disk-cleanup']; });
    const { exitCode, check } = await doctor();
    expect(exitCode).to.equal(1);
    expect(check('plugin.enabled').status).to.equal('fail');
    expect(check('plugin.enabled').detail).to.match(/not in plugins\.enabled/);
  });

  it('FAIL: the plugin is enabled but also in plugins.disabled', async () => {
    await install();
    editConfig((v) => { (v['plugins'] as Record<string, unknown>)['disabled'] = ['tollgate']; });
    const { check } = await doctor();
    expect(check('plugin.enabled')).to.deep.include({ status: 'fail' });
    expect(check('plugin.enabled').detail).to.match(/plugins\.disabled/);
  });

  it('FAIL: HERMES_SAFE_MODE, from the environment or from $HERMES_HOME/.env', async () => {
    await install();
    const fromEnv = await doctor({ env: { HERMES_SAFE_MODE: '1' } });
    expect(fromEnv.exitCode).to.equal(1);
    expect(fromEnv.check('hermes.safe_mode').status).to.equal('fail');
    writeFileSync(join(home, '.env'), '# Hermes secrets\nOPENAI_API_KEY=sk-test\nexport HERMES_SAFE_MODE="true"\n');
    const fromFile = await doctor();
    expect(fromFile.check('hermes.safe_mode').status).to.equal('fail');
    expect(fromFile.check('hermes.safe_mode').detail).to.include(join(home, '.env'));
  });

  it('warn: yolo (HERMES_YOLO_MODE) and approvals.mode: off', async () => {
    await install();
    const yolo = await doctor({ env: { HERMES_YOLO_MODE: '1' } });
    expect(yolo.check('hermes.approvals').status).to.equal('warn');
    expect(yolo.check('hermes.approvals').detail).to.match(/HERMES_YOLO_MODE/);
    expect(yolo.exitCode).to.equal(0);
    writeFileSync(join(home, 'config.yaml'), readFileSync(join(home, 'config.yaml'), 'utf8').replace('mode: manual', 'mode: off'));
    const off = await doctor();
    expect(off.check('hermes.approvals').status).to.equal('warn');
    expect(off.check('hermes.approvals').detail).to.match(/approvals\.mode is off/);
  });

  it('warn: another enabled plugin registers pre_tool_call (it could answer before tollgate)', async () => {
    await install();
    const other = join(home, 'plugins', 'approve-all');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'plugin.yaml'), 'name: approve-all\nversion: 1.0.0\nprovides_hooks: [pre_tool_call]\n');
    writeFileSync(join(other, '__init__.py'), 'def register(ctx):\n    ctx.register_hook("pre_tool_call", lambda **kw: {"action": "approve", "message": "ok"})\n');
    editConfig((v) => { (v['plugins'] as Record<string, string[]>)['enabled']!.push('approve-all'); });
    const { check } = await doctor();
    expect(check('plugins.others').status).to.equal('warn');
    expect(check('plugins.others').detail).to.match(/approve-all/);
  });

  it('warn: the plugin asks another socket than the daemon the doctor checked', async () => {
    await install();
    writeFileSync(join(home, 'plugins/tollgate/config.json'), JSON.stringify({ socket: '/somewhere/else.sock' }));
    const { check } = await doctor();
    expect(check('plugin.socket').status).to.equal('warn');
    expect(check('plugin.socket').detail).to.include('/somewhere/else.sock');
  });

  it('warn: the installed plugin differs from this tollgate\'s (an older install)', async () => {
    await install();
    writeFileSync(join(home, 'plugins/tollgate/core.py'), `${readFileSync(join(home, 'plugins/tollgate/core.py'), 'utf8')}\n# old\n`);
    const { check } = await doctor();
    expect(check('plugin.present').status).to.equal('warn');
    expect(check('plugin.present').detail).to.include('core.py');
  });

  it('FAIL: a shell hook without consent is silently skipped by Hermes (the only guard); hooks_auto_accept counts as consent', async () => {
    await install('--shell-hook', '--no-accept');
    const skipped = await doctor();
    expect(skipped.exitCode).to.equal(1);
    expect(skipped.check('shell_hook.pre_tool_call.consent').status).to.equal('fail');
    expect(skipped.check('shell_hook.pre_tool_call.consent').detail).to.match(/listed is not active/);
    editConfig((v) => { v['hooks_auto_accept'] = true; });
    const accepted = await doctor();
    expect(accepted.check('shell_hook.pre_tool_call.consent').status).to.equal('ok');
    expect(accepted.check('shell_hook.pre_tool_call.probe').status).to.equal('ok');
    expect(accepted.check('plugin.present').status).to.equal('warn');
  });

  it('warn: a shell hook without fail_closed, with a timeout shorter than its own deadline, or a matcher that misses tools', async () => {
    await install('--shell-hook');
    editConfig((v) => {
      const entry = (v['hooks'] as Record<string, Record<string, unknown>[]>)['pre_tool_call']![0]!;
      delete entry['fail_closed'];
      entry['timeout'] = 2;
      entry['matcher'] = 'terminal';
    });
    const { check } = await doctor();
    expect(check('shell_hook.pre_tool_call.fail_closed').status).to.equal('warn');
    expect(check('shell_hook.pre_tool_call.timeout').status).to.equal('warn');
    expect(check('shell_hook.pre_tool_call.matcher').detail).to.match(/execute_code, write_file, patch/);
  });

  it('FAIL: a shell hook whose command cannot run (Hermes 0.19 would then run the call)', async () => {
    await install('--shell-hook');
    const path = join(home, 'config.yaml');
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(process.execPath, '/nonexistent/node'));
    rmSync(join(home, 'shell-hooks-allowlist.json'));
    editConfig((v) => { v['hooks_auto_accept'] = true; });
    const { exitCode, check } = await doctor();
    expect(exitCode).to.equal(1);
    expect(check('shell_hook.pre_tool_call.probe').status).to.equal('fail');
    expect(check('shell_hook.pre_tool_call.probe').detail).to.match(/cannot start/);
  });

  it('through Hermes 0.19\'s own loader and dispatch when its Python is given: the real decision path', async function () {
    const python = hermesPython();
    if (python === null) this.skip();
    await install();
    const result = await runCli(['doctor', '--hermes-home', home, '--socket', socket, '--python', python!, '--json'], { cwd: dir.path, env: { HERMES_SAFE_MODE: '', HERMES_YOLO_MODE: '' } });
    const report = JSON.parse(result.stdout) as DoctorReport;
    const probe = report.checks.find((c) => c.id === 'plugin.probe')!;
    expect(probe.status, probe.detail).to.equal('ok');
    expect(probe.detail).to.match(/Hermes 0\.19\.0's own plugin loader and dispatch/);
    // A plugin loaded before tollgate (sorted first) that approves everything: tollgate still decides first.
    const other = join(home, 'plugins', 'approve-all');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'plugin.yaml'), 'name: approve-all\nversion: 1.0.0\n');
    writeFileSync(join(other, '__init__.py'), 'def register(ctx):\n    ctx.register_hook("pre_tool_call", lambda **kw: {"action": "approve", "message": "fine by me"})\n');
    editConfig((v) => { (v['plugins'] as Record<string, string[]>)['enabled']!.push('approve-all'); });
    const crowded = JSON.parse((await runCli(['doctor', '--hermes-home', home, '--socket', socket, '--python', python!, '--json'], { cwd: dir.path, env: { HERMES_SAFE_MODE: '', HERMES_YOLO_MODE: '' } })).stdout) as DoctorReport;
    const crowdedProbe = crowded.checks.find((c) => c.id === 'plugin.probe')!;
    expect(crowdedProbe.status, crowdedProbe.detail).to.equal('ok');
    const others = crowded.checks.find((c) => c.id === 'plugins.others')!;
    expect(others.status).to.equal('warn');
    expect(others.detail).to.match(/approve-all \(user\).*tollgate runs first/);
    const off = await runCli(['doctor', '--hermes-home', home, '--socket', socket, '--python', python!, '--json'], { cwd: dir.path, env: { HERMES_SAFE_MODE: '1' } });
    const offProbe = (JSON.parse(off.stdout) as DoctorReport).checks.find((c) => c.id === 'plugin.probe')!;
    expect(offProbe.status).to.equal('fail');
    expect(offProbe.detail).to.match(/Hermes does not load it/);
  });
});
