/**
 * The separate-principal setup end to end, three OS users: the daemon runs as its own system user (install system
 * into a temp root), a real Hermes 0.19 runs as the agent's user with the tollgate plugin on the runtime socket, and
 * the approver answers with `tollgate approve` on the human socket. Between the question and the answer, a process
 * of the agent's user tries to answer it itself, on both sockets, and cannot. Root only; needs the pinned Hermes.
 */
import { expect } from 'chai';
import { spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupUser } from '../../../ops/install/accounts.ts';
import { systemLayout, type SystemLayout } from '../../../ops/install/systemLayout.ts';
import { startFakeModel, type FakeModel } from '../../e2e/hermes/support/fakeModelServer.ts';
import { createHermesHome } from '../../e2e/hermes/support/hermesHome.ts';
import { useHermes } from '../../e2e/hermes/support/hermesVenv.ts';
import { runHermes, type HermesRun } from '../../e2e/hermes/support/runHermes.ts';
import { runCli } from '../../support/runCli.ts';
import { asUser, isRoot, requireRoot, spawnAsUser, useTestAccounts, skipUnlessRunnableBy } from './support/osUsers.ts';

const node = '/usr/bin/node';

describe('three users in a real Hermes 0.19: daemon as its own user, Hermes as the agent\'s user, the approver on the human socket (root only)', function () {
  this.timeout(240_000);
  requireRoot();
  const hermes = useHermes();
  // Registered first, so it runs before useTestAccounts' after hook removes users: a user with a process cannot be deleted.
  after(async () => {
    await model?.close();
    if (daemon !== null && daemon.exitCode === null) {
      const closed = new Promise((done) => daemon!.once('close', done));
      daemon.kill('SIGTERM');
      await closed;
    }
    if (root !== '') {
      await runCli(['uninstall', 'system', '--prefix', root, '--purge', '--user', accounts.current.daemonUser, '--approver-group', accounts.current.approverGroup], { cwd: tmpdir() });
      rmSync(root, { recursive: true, force: true });
    }
  });

  const accounts = useTestAccounts();
  let root = '';
  let layout: SystemLayout;
  let daemon: ChildProcess | null = null;
  let model: FakeModel | null = null;
  let run: HermesRun;
  let victim = '';
  let hermesHome = '';
  const seen: { victimBeforeAnswer?: boolean; questionId?: string; agentCli?: string[]; agentCurl?: number | null; approverCli?: string; openAfterAgent?: number } = {};
  const tollgateAs = (user: string, ...args: string[]) => asUser(user, [node, join(layout.codeDir, 'bin', 'tollgate.mjs'), ...args]);

  before(async function () {
    if (!isRoot()) return;
    this.timeout(240_000);
    skipUnlessRunnableBy(this, accounts.current.agent, hermes.current.hermes);
    root = mkdtempSync(join(tmpdir(), 'tg-3u-'));
    chmodSync(root, 0o755);
    const names = ['--user', accounts.current.daemonUser, '--approver-group', accounts.current.approverGroup];
    const installed = await runCli(['install', 'system', '--prefix', root, '--no-systemd', ...names, '--approver', accounts.current.approver], { cwd: tmpdir() });
    if (installed.exitCode !== 0) throw new Error(`install system failed:\n${installed.stdout}${installed.stderr}`);
    layout = systemLayout({ prefix: root, user: accounts.current.daemonUser, approverGroup: accounts.current.approverGroup });

    daemon = spawnAsUser(accounts.current.daemonUser, [node, join(layout.codeDir, 'bin', 'tollgate.mjs'), '-c', layout.configFile, 'serve']);
    let output = '';
    await new Promise<void>((ready, failed) => {
      const onData = (chunk: Buffer) => { output += chunk.toString(); if (output.includes('human channel on unix socket')) ready(); };
      daemon!.stdout!.on('data', onData);
      daemon!.stderr!.on('data', onData);
      daemon!.once('close', (code) => failed(new Error(`the daemon exited with ${code}:\n${output}`)));
    });

    // The agent's side: its own folders; the installed plugin stays root's (the agent's user cannot edit it).
    const agentRoot = join(root, 'agent');
    const work = join(agentRoot, 'work');
    victim = join(work, 'victim');
    mkdirSync(victim, { recursive: true });
    writeFileSync(join(victim, 'keep.txt'), 'this folder must survive until the approver says so\n');
    mkdirSync(join(agentRoot, 'user-home'), { recursive: true });
    model = await startFakeModel();
    const home = createHermesHome({ root: agentRoot, modelBaseUrl: model.baseUrl, model: model.model, tollgatePlugin: true });
    hermesHome = home.path;
    const agent = lookupUser(accounts.current.agent)!;
    spawnSync('chown', ['-R', `${agent.uid}:${agent.gid}`, agentRoot]);
    spawnSync('chown', ['-R', '0:0', join(home.path, 'plugins', 'tollgate')]);
    chownSync(join(home.path, 'plugins'), 0, 0);
    // Hermes started as the agent's user; setpriv execs, so runHermes' process-group kill still reaches it.
    const wrapper = join(root, 'hermes-as-agent');
    writeFileSync(wrapper, `#!/bin/sh\nexec setpriv --reuid ${accounts.current.agent} --regid ${accounts.current.agent} --init-groups -- ${hermes.current.hermes} "$@"\n`, { mode: 0o755 });

    const command = `rm -r ${victim}`;
    model.load([
      { id: 'call_ask', tool: 'terminal', args: { command } },
      {
        id: 'call_retry', tool: 'terminal', args: { command },
        before: () => {
          seen.victimBeforeAnswer = existsSync(victim);
          const listed = tollgateAs(accounts.current.approver, 'approvals', '--json', '--socket', layout.humanSocket);
          if (listed.status !== 0) throw new Error(`tollgate approvals as the approver: ${listed.stderr}`);
          const approvals = (JSON.parse(listed.stdout) as { approvals: { approvalId: string }[] }).approvals;
          seen.questionId = approvals[0]?.approvalId;
          if (seen.questionId === undefined) throw new Error(`no open question: ${listed.stdout}`);
          // A process of the agent's user answers its own question: the runtime socket refuses, the human one is closed.
          seen.agentCli = [
            tollgateAs(accounts.current.agent, 'approve', seen.questionId, 'always', '--socket', layout.socket),
            tollgateAs(accounts.current.agent, 'approve', seen.questionId, 'always', '--socket', layout.humanSocket),
          ].map((r) => `${r.status} ${r.stdout}${r.stderr}`);
          seen.agentCurl = asUser(accounts.current.agent, ['curl', '-sS', '--max-time', '5', '--unix-socket', layout.humanSocket, '-X', 'POST',
            `http://tollgate/v1/approvals/${seen.questionId}`, '-d', '{"answer":"always","answered_by":"human"}']).status;
          const still = tollgateAs(accounts.current.approver, 'approvals', '--json', '--socket', layout.humanSocket);
          seen.openAfterAgent = (JSON.parse(still.stdout) as { approvals: unknown[] }).approvals.length;
          const approved = tollgateAs(accounts.current.approver, 'approve', seen.questionId, 'once', '--socket', layout.humanSocket);
          seen.approverCli = `${approved.status} ${approved.stdout}${approved.stderr}`;
        },
      },
      { text: 'Done.' },
    ]);
    run = await runHermes({
      install: { ...hermes.current, hermes: wrapper }, home, model, userText: 'Remove the victim folder.', cwd: work,
      env: { TOLLGATE_SOCKET: layout.socket, TOLLGATE_HERMES_PROMPT: 'never' },
    });
  });

  it('Hermes runs as the agent\'s user and its plugin reaches the daemon (another uid) on the runtime socket: the call is asked, not run', () => {
    expect(run.exitCode, run.describe()).to.equal(0);
    expect(model!.failures.map(String), run.describe()).to.deep.equal([]);
    expect(seen.victimBeforeAnswer, `rm -r ran before any answer\n${run.describe()}`).to.equal(true);
    expect(seen.questionId, run.describe()).to.be.a('string');
    // What Hermes wrote belongs to the agent's user; the socket it talked to, to the daemon's.
    expect(lstatSync(join(hermesHome, 'logs', 'agent.log')).uid).to.equal(lookupUser(accounts.current.agent)!.uid);
    expect(lstatSync(layout.socket).uid).to.equal(lookupUser(accounts.current.daemonUser)!.uid);
  });

  it('a process of the agent\'s user cannot answer: refused on the runtime socket, no entry to the human socket', () => {
    const [runtimeSocket, humanSocket] = seen.agentCli!;
    expect(runtimeSocket, 'tollgate approve on the runtime socket').to.not.match(/^0 /);
    expect(runtimeSocket).to.match(/refused/);
    expect(humanSocket, 'tollgate approve on the human socket').to.not.match(/^0 /);
    expect(humanSocket).to.match(/EACCES|permission denied/i);
    expect(seen.agentCurl, 'curl on the human socket').to.not.equal(0);
    expect(seen.openAfterAgent, 'the question is still open after the agent\'s attempts').to.equal(1);
  });

  it('the approver answers on the human socket, and the agent\'s retry runs once', () => {
    expect(seen.approverCli, run.describe()).to.match(/^0 /);
    expect(existsSync(victim), `the approved retry did not run\n${run.describe()}`).to.equal(false);
  });

  it('the ledger records the answer as given on the human socket', async () => {
    const audit = await runCli(['-c', layout.configFile, 'audit', '--json', '-n', '200'], { cwd: tmpdir() });
    expect(audit.exitCode, audit.stderr).to.equal(0);
    expect(audit.stdout).to.include(seen.questionId!).and.include('human-socket');
  });
});
