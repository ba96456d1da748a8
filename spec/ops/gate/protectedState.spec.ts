import { expect } from 'chai';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../../ops/config/loadConfig.ts';
import { protectedState } from '../../../ops/gate/protectedState.ts';

describe('protected-state facts (computed once at gate open)', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-facts-'));
  const home = join(root, 'home');
  const clone = join(root, 'clone');
  mkdirSync(join(home, '.hermes', 'profiles', 'work'), { recursive: true });
  mkdirSync(join(home, '.hermes', 'profiles', 'play'), { recursive: true });
  mkdirSync(join(clone, '.git'), { recursive: true });
  after(() => rmSync(root, { recursive: true, force: true }));

  const facts = (config: unknown = {}, env: NodeJS.ProcessEnv = {}) =>
    protectedState(parseConfig(config), { env: { HOME: home, ...env }, cwd: join(root, 'project'), pid: 77, codeRoot: clone, configFile: join(root, 'etc', 'tg.yaml') });

  it('names the config files, data folder, keys, token, socket and its folder, resolved against the cwd', () => {
    const { paths } = facts();
    const project = join(root, 'project');
    expect(paths).to.deep.include.members([
      { path: join(root, 'etc', 'tg.yaml'), kind: 'config' }, { path: join(project, 'tollgate.yaml'), kind: 'config' },
      { path: join(project, 'data'), kind: 'data' }, { path: join(project, 'data', 'keys'), kind: 'secret' },
      { path: join(project, 'data', 'http-token'), kind: 'secret' }, { path: join(project, 'data', 'tollgate.sock'), kind: 'socket' },
    ]);
  });

  it("protects all the code a clone's daemon loads (bin/, adapters/, domain/, ops/, projections/, node_modules/, package and tsconfig files), not the whole clone nor its docs", () => {
    const { paths } = facts();
    const code = ['bin', 'adapters', 'domain', 'ops', 'projections', 'node_modules', 'package.json', 'package-lock.json', 'tsconfig.json'];
    expect(paths).to.deep.include.members(code.map((part) => ({ path: join(clone, part), kind: 'code' })));
    for (const open of [clone, join(clone, 'docs'), join(clone, 'spec'), join(clone, 'README.md')]) expect(paths.map((p) => p.path)).not.to.include(open);
  });

  it('protects the default paths of a system install whatever this gate is: config, sockets, code, link, unit, tmpfiles entry (and the state folder with its keys where one exists)', () => {
    const { paths } = facts();
    if (existsSync('/var/lib/tollgate')) expect(paths).to.deep.include.members([{ path: '/var/lib/tollgate/keys', kind: 'secret' }, { path: '/var/lib/tollgate/http-token', kind: 'secret' }]);
    else expect(paths.map((p) => p.path)).not.to.include('/var/lib/tollgate/keys');
    expect(paths).to.deep.include.members([
      { path: '/etc/tollgate', kind: 'config' }, { path: '/run/tollgate', kind: 'socket-dir' }, { path: '/run/tollgate/tollgate.sock', kind: 'socket' },
      { path: '/run/tollgate/human/tollgate.sock', kind: 'socket' }, { path: '/opt/tollgate', kind: 'code' },
      { path: '/usr/local/bin/tollgate', kind: 'code' }, { path: '/etc/systemd/system/tollgate.service', kind: 'code' },
      { path: '/etc/tmpfiles.d/tollgate.conf', kind: 'code' },
    ]);
  });

  it('protects code outside the clone that runs the daemon or Hermes: its Node, the first node on PATH, tsx\'s cache, Node\'s per-user module folders, a Hermes virtualenv on PATH and the interpreter it runs on (with pyenv\'s shims), the test Hermes in .cache', () => {
    const venv = join(root, 'venv');
    mkdirSync(join(venv, 'bin'), { recursive: true });
    const base = join(root, 'pyenv', 'versions', '3.11.7');
    mkdirSync(join(root, 'pyenv', 'shims'), { recursive: true });
    writeFileSync(join(venv, 'pyvenv.cfg'), `home = ${base}/bin\n`);
    writeFileSync(join(venv, 'bin', 'hermes'), '#!/bin/sh\n');
    writeFileSync(join(venv, 'bin', 'node'), '');
    const plain = join(root, 'plain');
    mkdirSync(join(plain, 'bin'), { recursive: true });
    writeFileSync(join(plain, 'bin', 'hermes'), '#!/bin/sh\n');
    const code = facts({}, { PATH: `${join(plain, 'bin')}:${join(venv, 'bin')}` }).paths.filter((p) => p.kind === 'code').map((p) => p.path);
    const uid = process.geteuid?.() ?? 0;
    expect(code).to.include.members([process.execPath, join(tmpdir(), `tsx-${uid}`), join(home, '.node_modules'), join(home, '.node_libraries'), venv, join(venv, 'bin', 'node'), join(clone, '.cache'),
      base, join(root, 'pyenv', 'shims'), join(root, 'pyenv', 'version')]);
    expect(code).not.to.include(plain);
  });

  it('finds every Hermes home: $HERMES_HOME, ~/.hermes and its profiles, and the configured ones', () => {
    const { hermesHomes, hermesHome } = facts({ protection: { hermes_homes: ['/srv/bot'] } }, { HERMES_HOME: '/opt/hermes-home' });
    expect(hermesHome).to.equal('/opt/hermes-home');
    expect(hermesHomes).to.include.members(['/opt/hermes-home', join(home, '.hermes'), join(home, '.hermes', 'profiles', 'work'), join(home, '.hermes', 'profiles', 'play'), '/srv/bot']);
  });

  it('records the pid, the HTTP port only when HTTP is on, the rules files and extra paths', () => {
    expect(facts()).to.include({ pid: 77, httpPort: null, home });
    const on = facts({ server: { http: { enabled: true, port: 9999 } }, protection: { rules_files: ['AGENTS.md'], paths: ['~/guard'] } });
    expect(on.httpPort).to.equal(9999);
    expect(on.rulesFiles).to.deep.equal(['AGENTS.md']);
    expect(on.paths).to.deep.include({ path: join(home, 'guard'), kind: 'extra' });
  });

  it('does not protect a shared folder whole because the socket sits in it', () => {
    const { paths } = facts({ server: { socket: '/tmp/tollgate.sock' } });
    expect(paths).to.deep.include({ path: '/tmp/tollgate.sock', kind: 'socket' });
    expect(paths.map((p) => p.path)).not.to.include('/tmp');
  });
});
