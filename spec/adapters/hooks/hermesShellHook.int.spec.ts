/**
 * `tollgate hook --hermes` against a real daemon, fed with Hermes shell-hook payloads recorded with hermes-agent
 * 0.19's own `agent.shell_hooks._serialize_payload` (fixtures/hermes-*.json). Hermes 0.19 blocks a pre_tool_call when
 * stdout is `{"action": "block", "message": "..."}` and only logs the exit code; newer versions also block on exit 2.
 * The end-to-end run inside a real Hermes is in spec/e2e/hermes.
 */
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';
import { requestOverSocket } from '../../support/httpClient.ts';
import { signedRuntime } from '../http/support/registeredRuntime.ts';
import { fakeDaemon, fixture, fixtureWith, httpAnswer, openQuestion, runHook } from './support/hookSupport.ts';

const blockOf = (stdout: string) => JSON.parse(stdout) as { action?: string; message?: string };

describe('tollgate hook --hermes (Hermes shell hooks) against a real daemon', function () {
  this.timeout(60_000);
  let dir: TempDir;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let socket: string;
  const hook = (input: string, ...extra: string[]) => runHook(['--hermes', '--socket', socket, ...extra], input, dir.path);

  before(async () => {
    dir = await createTempDir('tollgate-hermes-hook');
    // The human channel: `tollgate approve` answers there (the runtime socket refuses out-of-band answers).
    await writeFile(join(dir.path, 'tollgate.yaml'), 'server:\n  human_socket: ./human/human.sock\n');
    daemon = await startDaemon([], dir.path);
    socket = join(dir.path, 'data', 'tollgate.sock');
    // hooks.pre_llm_call: what the user typed starts the session.
    const started = await hook(fixture('hermes-pre_llm_call.json'));
    expect(started.exitCode, started.stderr).to.equal(0);
    expect(JSON.parse(started.stdout)).to.deep.equal({});
  });

  after(async () => {
    await daemon?.stop();
    await dir?.remove();
  });

  it('blocks a hardline terminal command: {"action":"block"} with the reason, exit 2', async () => {
    const result = await hook(fixture('hermes-pre_tool_call-hardline.json'));
    expect(result.exitCode).to.equal(2);
    const out = blockOf(result.stdout);
    expect(out.action).to.equal('block');
    expect(out.message).to.match(/rm -rf \/.*hardline list/s);
    expect(result.stderr.trim()).to.equal(out.message);
  });

  it('lets a plain command run: {} and exit 0', async () => {
    const result = await hook(fixture('hermes-pre_tool_call-plain.json'));
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(JSON.parse(result.stdout)).to.deep.equal({});
  });

  it('lets a plain write_file run', async () => {
    const result = await hook(fixture('hermes-pre_tool_call-write_file.json'));
    expect(result.exitCode, result.stderr).to.equal(0);
  });

  it('records the call under Hermes\' own tool_call_id', async () => {
    const audit = await runCli(['audit', '--json', '-n', '200'], { cwd: dir.path });
    const decided = audit.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; data: { callId: string; verdict: string } })
      .filter((e) => e.type === 'ToolCallDecided').map((e) => [e.data.callId, e.data.verdict]);
    expect(decided).to.deep.include.members([['call_hardline', 'block'], ['call_plain', 'allow'], ['call_write', 'allow']]);
  });

  it('answers a dangerous command with a block saying a human was asked (no id, no command); after `tollgate approve` on the human socket the retry runs once', async () => {
    const first = await hook(fixture('hermes-pre_tool_call-dangerous.json'));
    expect(first.exitCode).to.equal(2);
    expect(blockOf(first.stdout).action).to.equal('block');
    expect(blockOf(first.stdout).message).to.include('A human has been asked').and.not.include('tollgate approve');
    const id = await openQuestion(dir.path);
    expect(first.stdout).not.to.include(id);
    const approved = await runCli(['approve', id, 'once'], { cwd: dir.path });
    expect(approved.exitCode, approved.stderr).to.equal(0);
    const retried = await hook(fixtureWith('hermes-pre_tool_call-dangerous.json', (p) => { (p['extra'] as Record<string, unknown>)['tool_call_id'] = 'call_retry'; }));
    expect(retried.exitCode, retried.stdout).to.equal(0);
    const again = await hook(fixtureWith('hermes-pre_tool_call-dangerous.json', (p) => { (p['extra'] as Record<string, unknown>)['tool_call_id'] = 'call_again'; }));
    expect(again.exitCode).to.equal(2);
  });

  it('with the plugin guarding too (--both), the hook\'s copy of the words in the plugin\'s session is refused and recorded, and blocks nothing', async () => {
    const registered = await requestOverSocket(socket, 'POST', '/v1/runtime/register', { runtime: 'hermes', pid: process.pid });
    const { registration_id: id, key } = registered.json as { registration_id: string; key: string };
    const plugin = signedRuntime(socket, id, Buffer.from(key, 'base64'));
    expect((await plugin.request('POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'plugin-owned', user_message: 'tidy up', platform: 'cli' })).status).to.equal(200);
    const copy = await hook(fixtureWith('hermes-pre_llm_call.json', (p) => { p['session_id'] = 'plugin-owned'; }));
    expect(copy.exitCode, copy.stderr).to.equal(0);
    expect(copy.stderr).to.include('channel:not-session-owner');
  });

  it('forwards post_tool_call and answers {}', async () => {
    const result = await hook(fixture('hermes-post_tool_call.json'));
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(JSON.parse(result.stdout)).to.deep.equal({});
  });

  it('forwards a pre_llm_call with a megabytes-long conversation history (only what the daemon reads is sent)', async () => {
    const result = await hook(fixtureWith('hermes-pre_llm_call.json', (p) => {
      p['session_id'] = 'long-history';
      (p['extra'] as Record<string, unknown>)['conversation_history'] = Array.from({ length: 3000 }, (_, i) => ({ role: 'user', content: `${i} ${'x'.repeat(1000)}` }));
    }));
    expect(result.exitCode, result.stderr).to.equal(0);
    const plain = await hook(fixtureWith('hermes-pre_tool_call-plain.json', (p) => { p['session_id'] = 'long-history'; }));
    expect(plain.exitCode, plain.stdout).to.equal(0);
  });

  it('forwards a pre_llm_call whose message carries megabytes of attached context (sent without it, as the plugin does)', async () => {
    const result = await hook(fixtureWith('hermes-pre_llm_call.json', (p) => {
      p['session_id'] = 'big-attachment';
      (p['extra'] as Record<string, unknown>)['user_message'] = `summarise the attached log\n\n--- Attached Context ---\n\n${'log line\n'.repeat(300_000)}`;
    }));
    expect(result.exitCode, result.stderr).to.equal(0);
    const plain = await hook(fixtureWith('hermes-pre_tool_call-plain.json', (p) => { p['session_id'] = 'big-attachment'; }));
    expect(plain.exitCode, plain.stdout).to.equal(0);
  });

  it('treats a payload without hook_event_name but with a tool as a pre_tool_call', async () => {
    const result = await hook(fixtureWith('hermes-pre_tool_call-hardline.json', (p) => { delete p['hook_event_name']; }));
    expect(result.exitCode).to.equal(2);
    expect(blockOf(result.stdout).action).to.equal('block');
  });

  it('blocks a tool call in a session whose user message tollgate never saw, and says which hook to add', async () => {
    const result = await hook(fixtureWith('hermes-pre_tool_call-plain.json', (p) => { p['session_id'] = 'never-started'; }));
    expect(result.exitCode).to.equal(2);
    expect(blockOf(result.stdout).message).to.match(/pre_llm_call/);
  });

  it('blocks an empty session id (older Hermes sends one for execute_code\'s inner calls)', async () => {
    const result = await hook(fixtureWith('hermes-pre_tool_call-plain.json', (p) => { p['session_id'] = ''; }));
    expect(result.exitCode).to.equal(2);
    expect(blockOf(result.stdout).action).to.equal('block');
  });

  describe('fails closed', () => {
    it('daemon down: block, exit 2', async () => {
      const result = await runHook(['--hermes', '--socket', join(dir.path, 'nobody.sock')], fixture('hermes-pre_tool_call-plain.json'), dir.path);
      expect(result.exitCode).to.equal(2);
      expect(blockOf(result.stdout)).to.deep.include({ action: 'block' });
      expect(blockOf(result.stdout).message).to.match(/cannot be reached.*tollgate serve/s);
    });

    for (const [label, stdin] of [['not JSON', 'hook_event_name=pre_tool_call'], ['empty', ''], ['null', 'null']] as const) {
      it(`bad stdin (${label}): block, exit 2`, async () => {
        const result = await hook(stdin);
        expect(result.exitCode).to.equal(2);
        expect(blockOf(result.stdout).action).to.equal('block');
      });
    }

    it('a daemon that never answers: block after --timeout-ms, exit 2', async () => {
      const slow = join(dir.path, 'slow.sock');
      const fake = await fakeDaemon(slow, 'never');
      try {
        const result = await runHook(['--hermes', '--socket', slow, '--timeout-ms', '300'], fixture('hermes-pre_tool_call-plain.json'), dir.path);
        expect(result.exitCode).to.equal(2);
        expect(blockOf(result.stdout).message).to.match(/no decision within 300 ms/);
      } finally {
        await fake.close();
      }
    });

    for (const [label, answer] of [
      ['garbage', 'garbage'],
      ['HTTP with a non-JSON body', httpAnswer(200, '<html>ok</html>')],
      ['an unknown action', httpAnswer(200, '{"action":"modify","args":{}}')],
      ['a block without a message', httpAnswer(200, '{"action":"block"}')],
    ] as const) {
      it(`a daemon answering ${label}: block, exit 2`, async () => {
        const path = join(dir.path, 'garbage.sock');
        const fake = await fakeDaemon(path, answer);
        try {
          const result = await runHook(['--hermes', '--socket', path], fixture('hermes-pre_tool_call-plain.json'), dir.path);
          expect(result.exitCode).to.equal(2);
          expect(blockOf(result.stdout).action).to.equal('block');
          expect(blockOf(result.stdout).message).to.be.a('string').and.not.equal('');
        } finally {
          await fake.close();
        }
      });
    }

    it('a misconfigured hook: block, exit 2', async () => {
      const result = await runHook(['--hermes', '--timeout-ms', 'soon'], fixture('hermes-pre_tool_call-plain.json'), dir.path);
      expect(result.exitCode).to.equal(2);
      expect(blockOf(result.stdout).action).to.equal('block');
    });
  });
});
