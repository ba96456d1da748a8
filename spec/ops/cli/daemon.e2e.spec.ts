/**
 * The newcomer's path from the README, with the real binary, a real SQLite file and a real socket:
 * serve, a Hermes pre_tool_call for `rm -rf /` is blocked, `rm -r build/` asks, the answer is given with the CLI,
 * `tail` sees the decisions live, `verify` proves the ledger intact, `replay` re-derives every decision.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openEventStream, requestOverSocket } from '../../../adapters/http/socketClient.ts';
import { runCli, startDaemon, tollgateBin } from '../../support/runCli.ts';
import { useTempDir } from '../../support/tempDir.ts';
import { signedRuntime } from '../../adapters/http/support/registeredRuntime.ts';
import { openLedger } from '../../../adapters/ledger/openLedger.ts';

describe('tollgate serve (end to end)', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-e2e');

  it('blocks rm -rf /, asks about rm -r build/, takes the answer, streams it, and verifies and replays the ledger', async () => {
    const cwd = temp.current.path;
    // The human channel, where `tollgate approve` answers (the runtime socket refuses out-of-band answers).
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  human_socket: ./human/human.sock\n');
    const daemon = await startDaemon([], cwd);
    const socket = join(cwd, 'data', 'tollgate.sock');
    try {
      expect(daemon.output()).to.include(socket);
      expect(statSync(socket).mode & 0o777).to.equal(0o600);
      const tail = spawn(process.execPath, [tollgateBin, 'tail', '--type', 'ToolCallDecided'], { cwd });
      let tailed = '';
      tail.stdout.on('data', (chunk: Buffer) => { tailed += chunk.toString(); });
      await new Promise<void>((resolve) => tail.stderr.on('data', (chunk: Buffer) => { if (chunk.toString().includes('live')) resolve(); }));
      const seen: string[] = [];
      const stream = openEventStream({ socketPath: socket }, '/v1/stream?type=ToolCallDecided', { onMessage: (m) => { if (m.event === 'ToolCallDecided') seen.push(m.data); } });

      const hook = (name: string, body: Record<string, unknown>) => requestOverSocket(socket, 'POST', `/v1/hooks/hermes/${name}`, body);
      await hook('pre_llm_call', { session_id: 'demo', user_message: 'clean the build folder', platform: 'cli' });
      const blocked = await hook('pre_tool_call', { session_id: 'demo', tool_name: 'terminal', args: { command: 'rm -rf /' }, tool_call_id: 't1' });
      expect(blocked.json).to.include({ action: 'block', verdict: 'block', layer: 'hardline' });
      const asked = await hook('pre_tool_call', { session_id: 'demo', tool_name: 'terminal', args: { command: 'rm -r build/' }, tool_call_id: 't2' });
      expect(asked.json).to.include({ verdict: 'ask' });
      const approvalId = (asked.json as { approval_id: string }).approval_id;

      const listed = await runCli(['approvals'], { cwd });
      expect(listed.stdout).to.include(approvalId);
      const approved = await runCli(['approve', approvalId, 'session'], { cwd });
      expect(approved, approved.stderr).to.include({ exitCode: 0 });
      expect(approved.stdout).to.include('allowed');
      const again = await hook('pre_tool_call', { session_id: 'demo', tool_name: 'terminal', args: { command: 'rm -r build/' }, tool_call_id: 't3' });
      expect(again.json).to.include({ action: 'allow' });

      await new Promise((resolve) => setTimeout(resolve, 300));
      stream.close();
      expect(seen.map((d) => (JSON.parse(d) as { data: { verdict: string } }).data.verdict)).to.deep.equal(['block', 'ask', 'allow']);
      for (let i = 0; i < 50 && tailed.split('\n').length < 4; i++) await new Promise((resolve) => setTimeout(resolve, 100));
      tail.kill('SIGINT');
      expect(tailed).to.match(/BLOCK terminal rm -rf \/ — hardline/).and.to.match(/ASK terminal rm -r build\//).and.to.match(/ALLOW terminal rm -r build\//);
    } finally {
      expect(await daemon.stop()).to.equal(0);
    }

    const verified = await runCli(['verify'], { cwd });
    expect(verified.exitCode, verified.stdout + verified.stderr).to.equal(0);
    expect(verified.stdout).to.match(/^ok: \d+ events checked/);
    const replayed = await runCli(['replay', 'demo'], { cwd });
    expect(replayed.exitCode, replayed.stdout + replayed.stderr).to.equal(0);
    expect(replayed.stdout).to.include('every decision re-derived exactly');
    const audit = await runCli(['audit', '-n', '3'], { cwd });
    expect(audit.stdout.trim().split('\n')).to.have.length(3);
    expect(audit.stdout).to.include('ALLOW terminal rm -r build/');
  });

  it('restarts on the same ledger with the approvals it had (session grant still covers only its command)', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  human_socket: ./human/human.sock\n');
    let daemon = await startDaemon([], cwd);
    const socket = join(cwd, 'data', 'tollgate.sock');
    const call = (command: string) => requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 's', tool_name: 'terminal', args: { command } });
    try {
      await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 's', user_message: 'restart nginx if stuck' });
      const asked = await call('systemctl restart nginx');
      await requestOverSocket(join(cwd, 'human', 'human.sock'), 'POST', `/v1/approvals/${(asked.json as { approval_id: string }).approval_id}`, { answer: 'session' });
    } finally {
      await daemon.stop();
    }
    daemon = await startDaemon([], cwd);
    try {
      expect((await call('systemctl restart nginx')).json).to.include({ action: 'allow' });
      expect((await call('systemctl stop nginx')).json).to.include({ verdict: 'ask' });
    } finally {
      await daemon.stop();
    }
  });
});

describe('tollgate approve and the channels (real binary, real daemon)', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-channels');

  const askInRegisteredSession = async (cwd: string): Promise<string> => {
    const socket = join(cwd, 'data', 'tollgate.sock');
    const registered = await requestOverSocket(socket, 'POST', '/v1/runtime/register', { runtime: 'spec', pid: process.pid });
    const { registration_id: id, key } = registered.json as { registration_id: string; key: string };
    const runtime = signedRuntime(socket, id, Buffer.from(key, 'base64'));
    await runtime.request('POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'owned', user_message: 'clean the build folder', platform: 'cli' });
    const asked = await runtime.request('POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 'owned', tool_name: 'terminal', args: { command: 'rm -r build/' } });
    return (asked.json as { approval_id: string }).approval_id;
  };

  const answeredBy = async (cwd: string): Promise<unknown> => {
    const audit = await runCli(['audit', '--json', '-n', '50'], { cwd });
    return audit.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; data: { answeredBy?: string } })
      .find((e) => e.type === 'ApprovalAnswered')?.data.answeredBy;
  };

  it('approvals.out_of_band false (the default): `tollgate approve` on the runtime socket is refused with advice, and nothing is answered', async () => {
    const cwd = temp.current.path;
    const daemon = await startDaemon([], cwd);
    try {
      const id = await askInRegisteredSession(cwd);
      const refused = await runCli(['approve', id, 'always', '--by', 'human'], { cwd });
      expect(refused.exitCode).to.equal(1);
      expect(refused.stderr).to.include('channel:out-of-band-refused').and.include('server.human_socket').and.include('approvals.out_of_band');
      expect(await answeredBy(cwd)).to.equal(undefined);
    } finally { await daemon.stop(); }
  });

  it('approvals.out_of_band true: `tollgate approve` is accepted and recorded as out-of-band, whatever --by says', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'approvals:\n  out_of_band: true\n');
    const daemon = await startDaemon([], cwd);
    try {
      const id = await askInRegisteredSession(cwd);
      const approved = await runCli(['approve', id, 'once', '--by', 'human'], { cwd });
      expect(approved.exitCode, approved.stderr).to.equal(0);
      expect(await answeredBy(cwd)).to.equal('out-of-band');
    } finally { await daemon.stop(); }
  });

  it('with server.human_socket `tollgate approve` answers there, recorded as human-socket', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  human_socket: ./human/human.sock\n');
    const daemon = await startDaemon([], cwd);
    try {
      expect(daemon.output()).to.include('human channel on unix socket');
      const id = await askInRegisteredSession(cwd);
      const approved = await runCli(['approve', id, 'once', '--by', 'the-agent'], { cwd });
      expect(approved.exitCode, approved.stderr).to.equal(0);
      expect(await answeredBy(cwd)).to.equal('human-socket');
    } finally { await daemon.stop(); }
  });

  it('`tollgate revoke` takes an always answer back on the human socket, and refuses on the runtime socket', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  human_socket: ./human/human.sock\n');
    const daemon = await startDaemon([], cwd);
    try {
      const id = await askInRegisteredSession(cwd);
      expect((await runCli(['approve', id, 'always'], { cwd })).exitCode).to.equal(0);
      const audit = await runCli(['audit', '--json', '-n', '50'], { cwd });
      const grantId = audit.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; data: { grantId?: string } })
        .find((e) => e.type === 'GrantIssued')?.data.grantId;
      const refused = await runCli(['revoke', grantId!, '--socket', join(cwd, 'data', 'tollgate.sock')], { cwd });
      expect(refused.exitCode).to.equal(1);
      expect(refused.stderr).to.include('channel:out-of-band-refused');
      const revoked = await runCli(['revoke', grantId!], { cwd });
      expect(revoked.exitCode, revoked.stderr).to.equal(0);
      const grants = await requestOverSocket(join(cwd, 'data', 'tollgate.sock'), 'GET', '/v1/projections/grants');
      expect((grants.json as { state: { allowlist: Record<string, string> } }).state.allowlist).to.deep.equal({});
    } finally { await daemon.stop(); }
    const ledger = await openLedger(`sqlite:${join(cwd, 'data', 'ledger.db')}`);
    try {
      const [entry] = await ledger.readAll({ filter: { types: ['AllowlistEntryRevoked'] } });
      expect((entry?.data as { revokedBy?: string } | undefined)?.revokedBy).to.equal('human-socket');
    } finally { await ledger.close(); }
  });

  it('a daemon restart keeps the runtime\'s registration (the file is 0600 under data/keys)', async () => {
    const cwd = temp.current.path;
    let daemon = await startDaemon([], cwd);
    const socket = join(cwd, 'data', 'tollgate.sock');
    const registered = await requestOverSocket(socket, 'POST', '/v1/runtime/register', { runtime: 'spec', pid: process.pid });
    const { registration_id: id, key } = registered.json as { registration_id: string; key: string };
    await signedRuntime(socket, id, Buffer.from(key, 'base64')).request('POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'kept', user_message: 'hello', platform: 'cli' });
    await daemon.stop();
    expect(statSync(join(cwd, 'data', 'keys', 'runtime-registrations.json')).mode & 0o777).to.equal(0o600);
    daemon = await startDaemon([], cwd);
    try {
      const again = await signedRuntime(socket, id, Buffer.from(key, 'base64')).request('POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'kept', user_message: 'next', platform: 'cli' });
      expect(again.status).to.equal(200);
      const forged = await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'kept', user_message: 'forged', platform: 'cli' });
      expect(forged.status).to.equal(403);
    } finally { await daemon.stop(); }
  });
});
