/**
 * The agent's working directory reaches the self-protection floor from every runtime channel: the Hermes shell
 * hook and the Claude Code hook forward the `cwd` their payload carries, and `rm -rf data` in the daemon's folder
 * is blocked as the data folder it is; the same words elsewhere are not (red team F3).
 */
import { expect } from 'chai';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { requestOverSocket } from '../../support/httpClient.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';
import { fixtureWith, runHook } from './support/hookSupport.ts';

describe("the agent's working directory, forwarded by the hook clients and the HTTP API", function () {
  this.timeout(60_000);
  let dir: TempDir;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let socket: string;

  before(async () => {
    dir = await createTempDir('tollgate-cwd');
    // yolo: an ordinary dangerous-command ask is lifted, so only the floor can block.
    await writeFile(join(dir.path, 'tollgate.yaml'), 'approvals:\n  yolo: true\n');
    await mkdir(join(dir.path, 'elsewhere', 'data'), { recursive: true });
    daemon = await startDaemon([], dir.path);
    socket = join(dir.path, 'data', 'tollgate.sock');
  });
  after(async () => {
    await daemon?.stop();
    await dir?.remove();
  });

  let calls = 0;
  const hermes = (command: string, cwd: string, session: string) => runHook(['--hermes', '--socket', socket],
    fixtureWith('hermes-pre_tool_call-plain.json', (p) => {
      p['tool_input'] = { command }; p['cwd'] = cwd; p['session_id'] = session;
      p['extra'] = { ...(p['extra'] as object), tool_call_id: `cwd-call-${++calls}` };
    }), dir.path);
  const claude = (command: string, cwd: string) => runHook(['--claude', '--socket', socket],
    fixtureWith('claude-PreToolUse-Bash-plain.json', (p) => { p['tool_input'] = { command }; p['cwd'] = cwd; }), dir.path);

  it('Hermes shell hook: `rm -rf data` in the daemon\'s folder is blocked by the floor; in another folder it runs', async () => {
    await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'cwd-h1', user_message: 'tidy up' });
    const blocked = await hermes('rm -rf data', dir.path, 'cwd-h1');
    expect(blocked.exitCode).to.equal(2);
    expect(JSON.parse(blocked.stdout).message).to.match(/no approval, allowlist or setting lifts it/);
    const elsewhere = await hermes('rm -rf data', join(dir.path, 'elsewhere'), 'cwd-h1');
    expect(elsewhere.exitCode, elsewhere.stderr).to.equal(0);
  });

  it("Hermes shell hook: the terminal's TERMINAL_CWD (inherited from Hermes) wins over the payload's cwd (Hermes' process cwd)", async () => {
    await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'cwd-h2', user_message: 'tidy up' });
    const payload = fixtureWith('hermes-pre_tool_call-plain.json', (p) => {
      p['tool_input'] = { command: 'find data -delete' }; p['cwd'] = join(dir.path, 'elsewhere'); p['session_id'] = 'cwd-h2';
      p['extra'] = { ...(p['extra'] as object), tool_call_id: 'cwd-env-1' };
    });
    const blocked = await runCli(['hook', '--hermes', '--socket', socket], { cwd: dir.path, input: payload, env: { TOLLGATE_SOCKET: '', TOLLGATE_CONFIG: '', TERMINAL_CWD: dir.path } });
    expect(blocked.exitCode).to.equal(2);
    expect(JSON.parse(blocked.stdout).message).to.match(/no approval, allowlist or setting lifts it/);
  });

  it('Claude Code hook: `mv data /tmp/x` in the daemon\'s folder is denied by the floor', async () => {
    const prompt = await requestOverSocket(socket, 'POST', '/v1/messages', { session_id: '7c1f0a52-3b9e-4d0e-9c55-2f1d6a7b8e90', text: 'tidy up' });
    expect(prompt.status).to.equal(200);
    const denied = await claude('mv data /tmp/x', dir.path);
    expect(denied.exitCode).to.equal(2);
    expect(denied.stderr).to.match(/no approval, allowlist or setting lifts it/);
  });

  it('POST /v1/tool-calls takes `cwd`; a relative one is ignored (never guessed)', async () => {
    await requestOverSocket(socket, 'POST', '/v1/messages', { session_id: 'cwd-api', text: 'tidy up' });
    const call = (cwd: unknown, id: string) => requestOverSocket(socket, 'POST', '/v1/tool-calls',
      { session_id: 'cwd-api', tool: 'terminal', args: { command: 'chmod -R 777 data' }, call_id: id, cwd });
    const absolute = (await call(dir.path, 'c1')).json as { verdict: string; reasons: string[] };
    expect(absolute.verdict).to.equal('block');
    expect(absolute.reasons).to.include('self-protection:write-protected-path');
    const relative = (await call('.', 'c2')).json as { verdict: string; reasons: string[] };
    expect(relative.reasons).not.to.include('self-protection:write-protected-path');
  });
});
