/** `tollgate install hermes` on a temporary HERMES_HOME, through the real binary. */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseDocument } from 'yaml';
import { pluginSourceDir, tollgateBin } from '../../../ops/install/installHermes.ts';
import { scriptMtimeIso } from '../../../ops/install/hermesConfig.ts';
import { splitWords } from '../../../ops/install/shellWords.ts';
import { runCli } from '../../support/runCli.ts';
import { useTempDir } from '../../support/tempDir.ts';
import { hermesPython } from '../doctor/support/hermesPython.ts';

const handEditedConfig = `# Hermes configuration, edited by hand
model:
  default: anthropic/claude-sonnet-4 # the main model
  provider: openrouter

# plugins I trust
plugins:
  enabled:
    - disk-cleanup # tidies ~/tmp after each session
    - my-notes
  disabled: [tollgate, noisy]

approvals:
  mode: manual   # ask me
  timeout: 120
hooks_auto_accept: false
display:
  skin: "default"
`;

/** Every file under a folder with its content and mtime: equal snapshots mean nothing was written. */
const snapshot = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${statSync(p).mtimeMs}:${readFileSync(p, 'utf8')}`;
    }
  };
  walk(dir);
  return out;
};

const yamlOf = (text: string) => parseDocument(text, { version: '1.1' }).toJS() as Record<string, unknown>;

describe('tollgate install hermes', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-install');
  const home = () => temp.current.file('hermes');
  const socket = () => temp.current.file('tollgate.sock');
  const install = (...args: string[]) => runCli(['install', 'hermes', '--hermes-home', home(), '--socket', socket(), ...args], { cwd: temp.current.path });
  const writeConfig = (text = handEditedConfig) => {
    mkdirSync(home(), { recursive: true });
    writeFileSync(join(home(), 'config.yaml'), text);
  };
  const backups = () => readdirSync(home(), { recursive: true, encoding: 'utf8' }).filter((f) => f.includes('.tollgate-backup-'));

  it('copies the plugin, writes its socket, enables it, keeps comments and other keys, and backs up config.yaml', async () => {
    writeConfig();
    const result = await install();
    expect(result.exitCode, result.stderr).to.equal(0);
    for (const file of readdirSync(pluginSourceDir).filter((f) => !f.startsWith('__pycache__'))) {
      expect(readFileSync(join(home(), 'plugins/tollgate', file), 'utf8'), file).to.equal(readFileSync(join(pluginSourceDir, file), 'utf8'));
    }
    expect(JSON.parse(readFileSync(join(home(), 'plugins/tollgate/config.json'), 'utf8'))).to.deep.equal({ socket: socket() });
    const after = readFileSync(join(home(), 'config.yaml'), 'utf8');
    for (const comment of ['# Hermes configuration, edited by hand', '# the main model', '# plugins I trust', '# tidies ~/tmp after each session', '# ask me'])
      expect(after, comment).to.include(comment);
    const before = yamlOf(handEditedConfig);
    const now = yamlOf(after);
    expect(now['plugins']).to.deep.equal({ enabled: ['disk-cleanup', 'my-notes', 'tollgate'], disabled: ['noisy'] });
    for (const key of ['model', 'approvals', 'hooks_auto_accept', 'display']) expect(now[key], key).to.deep.equal(before[key]);
    expect(now).to.not.have.property('hooks');
    const [backup, ...more] = backups();
    expect(more).to.deep.equal([]);
    expect(backup).to.match(/^config\.yaml\.tollgate-backup-\d{8}T\d{6}Z$/);
    expect(readFileSync(join(home(), backup!), 'utf8')).to.equal(handEditedConfig);
    expect(result.stdout).to.include(`backup: ${join(home(), backup!)}`).and.to.include('tollgate doctor');
  });

  it('changes nothing on a second run, and says so', async () => {
    writeConfig();
    expect((await install()).exitCode).to.equal(0);
    const before = snapshot(home());
    const again = await install();
    expect(again.exitCode).to.equal(0);
    expect(again.stdout).to.match(/nothing to change/);
    expect(snapshot(home())).to.deep.equal(before);
  });

  it('--dry-run prints the planned changes and writes nothing', async () => {
    writeConfig();
    const before = snapshot(home());
    const result = await install('--dry-run', '--both');
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(result.stdout).to.match(/dry run: \d+ files would change \(nothing was written\)/)
      .and.to.include(`create ${join(home(), 'plugins/tollgate/__init__.py')}`)
      .and.to.include(`update ${join(home(), 'config.yaml')}`)
      .and.to.include('+     - tollgate')
      .and.to.include('shell-hooks-allowlist.json');
    expect(snapshot(home())).to.deep.equal(before);
  });

  it('respects HERMES_HOME when no --hermes-home is given', async () => {
    writeConfig();
    const result = await runCli(['install', 'hermes', '--socket', socket()], { cwd: temp.current.path, env: { HERMES_HOME: home() } });
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(existsSync(join(home(), 'plugins/tollgate/plugin.yaml'))).to.equal(true);
  });

  it('creates config.yaml in a fresh Hermes home', async () => {
    const result = await install();
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(yamlOf(readFileSync(join(home(), 'config.yaml'), 'utf8'))).to.deep.equal({ plugins: { enabled: ['tollgate'] } });
    expect(backups()).to.deep.equal([]);
  });

  it('restores a changed plugin file, backing up the changed copy, and keeps the user\'s other plugin settings', async () => {
    writeConfig();
    await install();
    const init = join(home(), 'plugins/tollgate/__init__.py');
    writeFileSync(init, '# tampered\n');
    writeFileSync(join(home(), 'plugins/tollgate/config.json'), JSON.stringify({ socket: '/old.sock', timeout_ms: 1500 }));
    const result = await install();
    expect(result.exitCode).to.equal(0);
    expect(readFileSync(init, 'utf8')).to.equal(readFileSync(join(pluginSourceDir, '__init__.py'), 'utf8'));
    expect(JSON.parse(readFileSync(join(home(), 'plugins/tollgate/config.json'), 'utf8'))).to.deep.equal({ socket: socket(), timeout_ms: 1500 });
    const saved = backups().filter((b) => b.startsWith('plugins/tollgate/__init__.py.tollgate-backup-'));
    expect(saved).to.have.length(1);
    expect(readFileSync(join(home(), saved[0]!), 'utf8')).to.equal('# tampered\n');
  });

  it('--shell-hook registers pre_tool_call and pre_llm_call with fail_closed and records the consent as Hermes 0.19 does', async () => {
    writeConfig();
    const result = await install('--shell-hook');
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(existsSync(join(home(), 'plugins/tollgate'))).to.equal(false);
    const config = yamlOf(readFileSync(join(home(), 'config.yaml'), 'utf8'));
    expect(config['plugins']).to.deep.equal(yamlOf(handEditedConfig)['plugins']);
    const hooks = config['hooks'] as Record<string, Record<string, unknown>[]>;
    const command = hooks['pre_tool_call']![0]!['command'] as string;
    expect(splitWords(command)).to.deep.equal([process.execPath, tollgateBin, 'hook', '--hermes', '--socket', socket()]);
    expect(hooks['pre_tool_call']).to.deep.equal([{ matcher: '.*', command, timeout: 10, fail_closed: true }]);
    expect(hooks['pre_llm_call']).to.deep.equal([{ command, timeout: 10, fail_closed: true }]);
    const allowlist = JSON.parse(readFileSync(join(home(), 'shell-hooks-allowlist.json'), 'utf8')) as { approvals: Record<string, unknown>[] };
    expect(allowlist.approvals.map((a) => [a['event'], a['command']])).to.deep.equal([['pre_tool_call', command], ['pre_llm_call', command]]);
    expect(allowlist.approvals[0]!['script_mtime_at_approval']).to.equal(scriptMtimeIso(command));
    expect(Object.keys(allowlist.approvals[0]!)).to.deep.equal(['approved_at', 'command', 'event', 'script_mtime_at_approval']);
    expect(allowlist.approvals[0]!['approved_at']).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/);
    expect(statSync(join(home(), 'shell-hooks-allowlist.json')).mode & 0o777).to.equal(0o600);
    expect(result.stdout).to.match(/fail_closed: true is honoured only by newer Hermes/).and.to.match(/hermes hooks revoke/);
    const again = await install('--shell-hook');
    expect(again.stdout).to.match(/nothing to change/);
  });

  it('--no-accept leaves the allowlist alone and explains hooks_auto_accept', async () => {
    writeConfig();
    const result = await install('--shell-hook', '--no-accept');
    expect(result.exitCode).to.equal(0);
    expect(existsSync(join(home(), 'shell-hooks-allowlist.json'))).to.equal(false);
    expect(result.stdout).to.match(/hooks_auto_accept: true/);
  });

  it('--both after --shell-hook keeps the pre_tool_call hook, drops the pre_llm_call one (the plugin reports user messages), and updates an older hook entry', async () => {
    writeConfig(`${handEditedConfig}hooks:
  pre_tool_call:
    - matcher: "terminal"
      command: /old/node /old/tollgate/bin/tollgate.mjs hook --hermes
      timeout: 3
    - command: /usr/local/bin/audit-hook.sh   # someone else's hook
`);
    expect((await install('--shell-hook')).exitCode).to.equal(0);
    const result = await install('--both');
    expect(result.exitCode, result.stderr).to.equal(0);
    const after = readFileSync(join(home(), 'config.yaml'), 'utf8');
    expect(after).to.include("# someone else's hook");
    const hooks = yamlOf(after)['hooks'] as Record<string, Record<string, unknown>[]>;
    expect(hooks['pre_tool_call']).to.have.length(2);
    expect(hooks['pre_tool_call']![0]).to.deep.include({ matcher: '.*', timeout: 10, fail_closed: true });
    expect(hooks['pre_tool_call']![0]!['command']).to.include(tollgateBin);
    expect(hooks['pre_tool_call']![1]).to.deep.equal({ command: '/usr/local/bin/audit-hook.sh' });
    expect(hooks['pre_llm_call']).to.deep.equal([]);
    expect((yamlOf(after)['plugins'] as { enabled: string[] }).enabled).to.include('tollgate');
  });

  it('refuses a config.yaml that is not valid YAML, and writes nothing', async () => {
    writeConfig('plugins:\n  enabled: [a\n');
    const before = snapshot(home());
    const result = await install();
    expect(result.exitCode).to.equal(1);
    expect(result.stderr).to.match(/config\.yaml is not valid YAML/);
    expect(snapshot(home())).to.deep.equal(before);
  });

  it('refuses --shell-hook together with --both', async () => {
    const result = await install('--shell-hook', '--both');
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.match(/choose one/);
  });

  it('is read by Hermes 0.19 itself as intended (plugin enabled, hooks parsed and allowlisted)', async function () {
    const python = hermesPython();
    if (python === null) this.skip();
    writeConfig();
    expect((await install('--both')).exitCode).to.equal(0);
    const out = spawnSync(python!, ['-c', `
import json
from hermes_cli.config import load_config
from hermes_cli.plugins import _get_enabled_plugins, _get_disabled_plugins
from agent import shell_hooks
specs = shell_hooks.iter_configured_hooks(load_config())
print(json.dumps({"enabled": sorted(_get_enabled_plugins() or []), "disabled": sorted(_get_disabled_plugins()),
  "hooks": [[s.event, s.matcher, s.timeout, shell_hooks._is_allowlisted(s.event, s.command),
             shell_hooks.script_mtime_iso(s.command) == (shell_hooks.allowlist_entry_for(s.event, s.command) or {}).get("script_mtime_at_approval")] for s in specs]}))
`], { env: { ...process.env, HERMES_HOME: home() }, encoding: 'utf8', timeout: 60_000 });
    const line = out.stdout.trim().split('\n').pop() ?? '';
    expect(JSON.parse(line), out.stderr).to.deep.equal({
      enabled: ['disk-cleanup', 'my-notes', 'tollgate'], disabled: ['noisy'], hooks: [['pre_tool_call', '.*', 10, true, true]],
    });
  });
});
