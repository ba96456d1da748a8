/**
 * `tollgate install system` into a temporary root, with real OS users: the daemon runs as its own system user, the
 * agent's user and an approver try what they may and may not do. Root only (useradd, chown); skipped otherwise.
 */
import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupGroup, lookupUser, groupsOfUser } from '../../../ops/install/accounts.ts';
import { systemLayout, type SystemLayout } from '../../../ops/install/systemLayout.ts';
import { runCli } from '../../support/runCli.ts';
import { asUser, isRoot, requireRoot, spawnAsUser, useTestAccounts } from './support/osUsers.ts';

const node = '/usr/bin/node';

const ownerOf = (path: string): string => {
  const st = lstatSync(path);
  const user = st.uid === 0 ? 'root' : readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[2] === String(st.uid))?.split(':')[0];
  const group = st.gid === 0 ? 'root' : readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.split(':')[2] === String(st.gid))?.split(':')[0];
  return `${user}:${group} ${(st.mode & 0o7777).toString(8).padStart(4, '0')}`;
};

/** Owner, mode, size and mtime of everything the install made: equal snapshots mean nothing was touched. */
const snapshot = (root: string): string[] => {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path);
      if (path.includes(`${join('opt', 'tollgate', 'node_modules')}/`)) continue; // 6000 files; the code step compares them itself
      out.push(`${path} ${st.uid}:${st.gid} ${st.mode.toString(8)} ${st.size} ${st.mtimeMs}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
};

describe('tollgate install system: the daemon as its own user, out of the agent user\'s reach (root only, real OS users)', function () {
  this.timeout(60_000);
  requireRoot();
  const accounts = useTestAccounts();
  let root = '';
  let layout: SystemLayout;
  const names = () => ['--user', accounts.current.daemonUser, '--approver-group', accounts.current.approverGroup];
  const install = (...args: string[]) => runCli(['install', 'system', '--prefix', root, ...names(), ...args], { cwd: tmpdir() });
  const uninstall = (...args: string[]) => runCli(['uninstall', 'system', '--prefix', root, ...names(), ...args], { cwd: tmpdir() });

  before(async function () {
    if (!isRoot()) return;
    root = mkdtempSync(join(tmpdir(), 'tg-sys-'));
    chmodSync(root, 0o755); // the daemon's and the agent's users must be able to walk to their folders
    mkdirSync(join(root, 'etc', 'systemd'), { recursive: true }); // so the unit is written
    layout = systemLayout({ prefix: root, user: accounts.current.daemonUser, approverGroup: accounts.current.approverGroup });
  });
  after(() => { if (root !== '') rmSync(root, { recursive: true, force: true }); });

  describe('install', () => {
    it('--dry-run lists every change and makes none (no file, no user)', async () => {
      const result = await install('--dry-run', '--approver', accounts.current.approver);
      expect(result.exitCode, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/would\s+group tgtest-tg-/).and.match(/would\s+user tgtest-tg-/).and.match(/would\s+file .*tollgate\.yaml/);
      expect(result.stdout).to.include('nothing was written');
      expect(readdirSync(join(root, 'etc'))).to.deep.equal(['systemd']);
      expect(lookupUser(accounts.current.daemonUser)).to.equal(null);
    });

    it('refuses an agent user that is also an approver, and changes nothing', async () => {
      const result = await install('--approver', accounts.current.approver, '--agent', accounts.current.approver);
      expect(result.exitCode).to.equal(1);
      expect(result.stderr).to.include(`--agent ${accounts.current.approver} is an approver`);
      expect(lookupUser(accounts.current.daemonUser)).to.equal(null);
    });

    it('creates the system user, the groups, and each folder and file with its owner and mode', async () => {
      const result = await install('--approver', accounts.current.approver, '--agent', accounts.current.agent);
      expect(result.exitCode, result.stderr + result.stdout).to.equal(0);
      const user = lookupUser(accounts.current.daemonUser)!;
      expect(user, 'daemon user').to.not.equal(null);
      expect(user.uid).to.be.below(1000); // --system
      expect(user.shell).to.match(/nologin|false/);
      expect(user.home).to.equal(layout.stateDir);
      expect(lookupGroup(accounts.current.approverGroup)!.members).to.include(accounts.current.approver);
      expect(groupsOfUser(accounts.current.agent)).to.not.include(accounts.current.approverGroup);
      const tg = accounts.current.daemonUser;
      expect(ownerOf(layout.etcDir)).to.equal(`root:${tg} 0750`);
      expect(ownerOf(layout.configFile)).to.equal(`root:${tg} 0640`);
      expect(ownerOf(layout.stateDir)).to.equal(`${tg}:${tg} 0700`);
      expect(ownerOf(layout.runDir)).to.equal(`${tg}:${tg} 0755`);
      expect(ownerOf(layout.humanDir)).to.equal(`${tg}:${accounts.current.approverGroup} 0750`);
      expect(ownerOf(layout.codeDir)).to.equal('root:root 0755');
      expect(ownerOf(join(layout.codeDir, 'bin', 'tollgate.mjs'))).to.equal('root:root 0755');
      expect(ownerOf(join(layout.codeDir, 'ops', 'cli', 'main.ts'))).to.equal('root:root 0644');
      expect(ownerOf(layout.unitFile)).to.equal('root:root 0644');
      const config = readFileSync(layout.configFile, 'utf8');
      expect(config).to.include(`dir: ${layout.stateDir}`).and.include(`socket: ${layout.socket}`).and.include(`url: sqlite:${layout.stateDir}/ledger.db`);
    });

    it('writes a hardened systemd unit that runs the installed code as the daemon user', () => {
      const unit = readFileSync(layout.unitFile, 'utf8');
      expect(unit).to.include(`User=${accounts.current.daemonUser}\n`);
      expect(unit).to.include(`ExecStart=${process.execPath} ${layout.codeDir}/bin/tollgate.mjs -c ${layout.configFile} serve\n`);
      for (const line of ['NoNewPrivileges=yes', 'ProtectSystem=strict', 'UMask=0077', `ReadWritePaths=${layout.stateDir} ${layout.runDir}`]) expect(unit).to.include(`${line}\n`);
      expect(readFileSync(layout.tmpfilesFile, 'utf8')).to.include(`d ${layout.humanDir} 0750 ${accounts.current.daemonUser} ${accounts.current.approverGroup} -`);
    });

    it('a second run reports "unchanged" and touches nothing', async () => {
      const before = snapshot(root);
      const result = await install('--approver', accounts.current.approver);
      expect(result.exitCode, result.stderr).to.equal(0);
      expect(result.stdout, result.stdout).to.include('unchanged: nothing to do');
      expect(result.stdout).to.not.match(/^\s+changed/m);
      expect(snapshot(root)).to.deep.equal(before);
    });

    it('an edited configuration keeps the admin\'s settings; only the location keys are set back', async () => {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(layout.configFile, `${readFileSync(layout.configFile, 'utf8').replace(`socket: ${layout.socket}`, 'socket: /tmp/elsewhere.sock')}approvals:\n  timeout: 120 # mine\n`);
      const result = await install();
      expect(result.exitCode, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/changed\s+file .*tollgate\.yaml/);
      const config = readFileSync(layout.configFile, 'utf8');
      expect(config).to.include(`socket: ${layout.socket}`).and.include('timeout: 120 # mine');
      expect(ownerOf(layout.configFile)).to.equal(`root:${accounts.current.daemonUser} 0640`);
    });
  });

  describe('with the daemon running as its own user', () => {
    let daemon: ChildProcess | null = null;
    let output = '';
    const agent = (...command: string[]) => asUser(accounts.current.agent, command);

    before(async function () {
      if (!isRoot()) return;
      daemon = spawnAsUser(accounts.current.daemonUser, [node, join(layout.codeDir, 'bin', 'tollgate.mjs'), '-c', layout.configFile, 'serve']);
      await new Promise<void>((ready, failed) => {
        const onData = (chunk: Buffer) => { output += chunk.toString(); if (output.includes('listening on unix socket')) ready(); };
        daemon!.stdout!.on('data', onData);
        daemon!.stderr!.on('data', onData);
        daemon!.once('close', (code) => failed(new Error(`the daemon exited with ${code}:\n${output}`)));
      });
    });
    after(async () => {
      if (daemon === null || daemon.exitCode !== null) return;
      const closed = new Promise((done) => daemon!.once('close', done));
      daemon.kill('SIGTERM');
      await closed;
    });

    it('the daemon runs as the system user, and its runtime socket belongs to it', () => {
      const uid = lookupUser(accounts.current.daemonUser)!.uid;
      expect(lstatSync(layout.socket).uid).to.equal(uid);
      expect(readFileSync(`/proc/${daemon!.pid}/status`, 'utf8')).to.match(new RegExp(`^Uid:\\s+${uid}\\s+${uid}\\s`, 'm'));
    });

    it('the agent\'s user asks the runtime socket: GET /v1/health answers', () => {
      const result = agent('curl', '-sS', '--max-time', '5', '--unix-socket', layout.socket, 'http://tollgate/v1/health');
      expect(result.status, result.stderr).to.equal(0);
      expect(JSON.parse(result.stdout)).to.have.property('ok', true);
    });

    it('the agent\'s user cannot write the configuration, nor replace it', () => {
      const before = readFileSync(layout.configFile, 'utf8');
      expect(agent('sh', '-c', `echo 'approvals: {yolo: true}' >> ${layout.configFile}`).status).to.not.equal(0);
      expect(agent('sh', '-c', `cp /etc/hostname ${layout.etcDir}/new && mv -f ${layout.etcDir}/new ${layout.configFile}`).status).to.not.equal(0);
      expect(agent('cat', layout.configFile).status).to.not.equal(0);
      expect(readFileSync(layout.configFile, 'utf8')).to.equal(before);
    });

    it('the agent\'s user can neither read nor write the data and keys', () => {
      expect(readdirSync(join(layout.stateDir, 'keys')).length, 'the daemon made its keys').to.be.above(0);
      for (const command of [
        ['ls', layout.stateDir], ['cat', join(layout.stateDir, 'ledger.db')], ['ls', join(layout.stateDir, 'keys')],
        ['cat', join(layout.stateDir, 'keys', 'checkpoint.ed25519')], ['touch', join(layout.stateDir, 'x')], ['rm', '-f', join(layout.stateDir, 'ledger.db')],
      ]) expect(agent(...command).status, command.join(' ')).to.not.equal(0);
      expect(existsSync(join(layout.stateDir, 'ledger.db'))).to.equal(true);
    });

    it('the agent\'s user cannot remove or replace the socket, nor add a file beside it', () => {
      const inode = lstatSync(layout.socket).ino;
      for (const command of [
        ['rm', '-f', layout.socket], ['mv', layout.socket, `${layout.socket}.old`], ['ln', '-sf', '/tmp/fake.sock', layout.socket],
        ['touch', join(layout.runDir, 'fake.sock')], ['chmod', '000', layout.socket],
      ]) expect(agent(...command).status, command.join(' ')).to.not.equal(0);
      expect(lstatSync(layout.socket).ino).to.equal(inode);
      expect(readdirSync(layout.runDir).sort()).to.deep.equal(['human', 'tollgate.sock']);
    });

    it('the agent\'s user cannot kill the daemon (EPERM)', () => {
      for (const signal of ['-TERM', '-KILL']) {
        const result = agent('kill', signal, String(daemon!.pid));
        expect(result.status).to.not.equal(0);
        expect(result.stderr).to.match(/not permitted/i);
      }
      expect(() => process.kill(daemon!.pid!, 0)).to.not.throw();
    });

    it('the agent\'s user cannot enter the human socket\'s folder; the approver can', function () {
      expect(agent('ls', layout.humanDir).status).to.not.equal(0);
      expect(agent('curl', '-sS', '--max-time', '5', '--unix-socket', layout.humanSocket, 'http://tollgate/v1/health').status).to.not.equal(0);
      const listing = asUser(accounts.current.approver, ['ls', '-a', layout.humanDir]);
      expect(listing.status, listing.stderr).to.equal(0);
      if (!existsSync(layout.humanSocket)) {
        console.warn(`\n  (the daemon serves no human socket yet at ${layout.humanSocket}: the approver's request over it is not tested)\n`);
        this.skip();
      }
      const health = asUser(accounts.current.approver, ['curl', '-sS', '--max-time', '5', '--unix-socket', layout.humanSocket, 'http://tollgate/v1/health']);
      expect(health.status, health.stderr).to.equal(0);
    });

    it('install run again while the daemon runs changes nothing (the daemon keeps the modes the install set)', async () => {
      const result = await install('--approver', accounts.current.approver);
      expect(result.exitCode, result.stderr).to.equal(0);
      expect(result.stdout, result.stdout).to.include('unchanged: nothing to do');
    });

    const doctorAs = (user: string, ...extra: string[]) => {
      const result = asUser(user, [node, join(layout.codeDir, 'bin', 'tollgate.mjs'), '-c', layout.configFile, 'doctor', '--json',
        '--socket', layout.socket, '--data-dir', layout.stateDir, '--human-socket', layout.humanSocket, '--hermes-home', join(root, 'no-hermes'), ...extra]);
      const report = JSON.parse(result.stdout) as { checks: { id: string; status: string; detail: string }[] };
      return Object.fromEntries(report.checks.filter((c) => c.id.startsWith('principal.')).map((c) => [c.id, c]));
    };

    it('doctor run as the agent\'s user finds every separate-principal property', () => {
      const checks = doctorAs(accounts.current.agent);
      for (const id of ['principal.daemon_user', 'principal.config', 'principal.data', 'principal.socket_dir', 'principal.human_dir'])
        expect(checks[id]?.status, `${id}: ${checks[id]?.detail}`).to.equal('ok');
      expect(checks['principal.ptrace']?.detail).to.match(existsSync('/proc/sys/kernel/yama/ptrace_scope') ? /./ : /not available/);
    });

    it('doctor reports a configuration the agent\'s user could replace', () => {
      chmodSync(layout.etcDir, 0o757);
      try {
        expect(doctorAs(accounts.current.agent)['principal.config']?.status).to.equal('fail');
      } finally { chmodSync(layout.etcDir, 0o750); }
    });

    it('doctor run as the daemon\'s own user warns that this is the single-user setup', () => {
      const checks = doctorAs(accounts.current.daemonUser);
      expect(checks['principal.single_user']?.status).to.equal('warn');
      expect(checks['principal.single_user']?.detail).to.include('single-user');
    });
  });

  describe('uninstall', () => {
    it('removes the unit, the code and the socket folder, keeps configuration, data and accounts; a second run is unchanged', async () => {
      const first = await uninstall();
      expect(first.exitCode, first.stderr).to.equal(0);
      for (const gone of [layout.unitFile, layout.tmpfilesFile, layout.codeDir, layout.binLink, layout.runDir]) expect(existsSync(gone), gone).to.equal(false);
      for (const kept of [layout.configFile, join(layout.stateDir, 'ledger.db')]) expect(existsSync(kept), kept).to.equal(true);
      expect(lookupUser(accounts.current.daemonUser)).to.not.equal(null);
      const second = await uninstall();
      expect(second.stdout).to.include('unchanged: nothing to do');
    });

    it('leaves a code folder alone that this install did not make (no marker in it)', async () => {
      const { writeFileSync } = await import('node:fs');
      mkdirSync(layout.codeDir, { recursive: true });
      writeFileSync(join(layout.codeDir, 'someone-elses.txt'), 'keep\n');
      const result = await uninstall();
      expect(result.stdout).to.match(/left alone: no \.tollgate-system-install/);
      expect(existsSync(join(layout.codeDir, 'someone-elses.txt'))).to.equal(true);
      rmSync(layout.codeDir, { recursive: true, force: true });
    });

    it('--purge also removes the configuration, the data, the user and the groups', async () => {
      const result = await uninstall('--purge');
      expect(result.exitCode, result.stderr).to.equal(0);
      for (const gone of [layout.etcDir, layout.stateDir]) expect(existsSync(gone), gone).to.equal(false);
      expect(lookupUser(accounts.current.daemonUser)).to.equal(null);
      expect(lookupGroup(accounts.current.approverGroup)).to.equal(null);
      expect((await uninstall('--purge')).stdout).to.include('unchanged: nothing to do');
    });
  });
});
