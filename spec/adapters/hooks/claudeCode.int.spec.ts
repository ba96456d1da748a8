/**
 * `tollgate hook --claude` against a real daemon, fed with Claude Code hook payloads (fixtures/claude-*.json) and
 * judged by Claude Code's documented contract: exit 2 blocks with the reason on stderr; on exit 0 the JSON on stdout
 * may carry hookSpecificOutput.permissionDecision (allow | deny | ask).
 */
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';
import { fakeDaemon, fixture, fixtureWith, httpAnswer, openQuestion, runHook } from './support/hookSupport.ts';

interface ClaudeOutput { hookSpecificOutput?: { hookEventName: string; permissionDecision?: string; permissionDecisionReason?: string } }
const decisionOf = (stdout: string) => (JSON.parse(stdout) as ClaudeOutput).hookSpecificOutput;

describe('tollgate hook --claude (Claude Code hooks) against a real daemon', function () {
  this.timeout(60_000);
  let dir: TempDir;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let socket: string;
  const hook = (input: string, ...extra: string[]) => runHook(['--claude', '--socket', socket, ...extra], input, dir.path);

  before(async () => {
    dir = await createTempDir('tollgate-claude');
    // The human channel: `tollgate approve` answers there (the runtime socket refuses out-of-band answers).
    await writeFile(join(dir.path, 'tollgate.yaml'), 'server:\n  human_socket: ./human/human.sock\n');
    daemon = await startDaemon([], dir.path);
    socket = join(dir.path, 'data', 'tollgate.sock');
    // The session starts with the user's prompt (UserPromptSubmit), as in a real Claude Code session.
    const started = await hook(fixture('claude-UserPromptSubmit.json'));
    expect(started.exitCode, started.stderr).to.equal(0);
    expect(JSON.parse(started.stdout)).to.deep.equal({});
  });

  after(async () => {
    await daemon?.stop();
    await dir?.remove();
  });

  it('denies a hardline Bash command: exit 2, the reason on stderr, a deny decision on stdout', async () => {
    const result = await hook(fixture('claude-PreToolUse-Bash-hardline.json'));
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.match(/rm -rf \/.*hardline list/s);
    expect(decisionOf(result.stdout)).to.deep.include({ hookEventName: 'PreToolUse', permissionDecision: 'deny' });
    expect(decisionOf(result.stdout)!.permissionDecisionReason).to.equal(result.stderr.trim());
  });

  it('lets a plain Bash command go on (exit 0) and leaves the permission decision to Claude Code by default', async () => {
    const result = await hook(fixture('claude-PreToolUse-Bash-plain.json'));
    expect(result.exitCode, result.stderr).to.equal(0);
    expect(JSON.parse(result.stdout)).to.deep.equal({});
    expect(result.stderr).to.equal('');
  });

  it('answers permissionDecision allow with --on-allow allow', async () => {
    const result = await hook(fixture('claude-PreToolUse-Bash-plain.json'), '--on-allow', 'allow');
    expect(result.exitCode).to.equal(0);
    expect(decisionOf(result.stdout)).to.deep.include({ hookEventName: 'PreToolUse', permissionDecision: 'allow' });
  });

  for (const [name, tool, args] of [
    ['claude-PreToolUse-Edit.json', 'patch', { mode: 'replace', path: '/home/user/project/notes.md', old_string: '- [ ] update notes', new_string: '- [x] update notes', replace_all: false }],
    ['claude-PreToolUse-Write.json', 'write_file', { path: '/home/user/project/CHANGELOG.md', content: '# Changelog\n\n- notes updated\n' }],
    ['claude-PreToolUse-WebFetch.json', 'web_extract', { urls: ['https://docs.example.com/guide'], prompt: 'Summarise the setup steps' }],
    ['claude-PreToolUse-mcp.json', 'mcp__github__create_issue', { owner: 'acme', repo: 'widgets', title: 'Docs page is out of date', body: 'The setup steps changed.' }],
  ] as const) {
    it(`${name}: decided by the gate as ${tool} and recorded with the mapped arguments`, async () => {
      const payload = JSON.parse(fixture(name)) as { tool_use_id: string };
      const result = await hook(fixture(name));
      expect(result.exitCode, result.stderr).to.equal(0);
      const audit = await runCli(['audit', '--json', '-n', '200'], { cwd: dir.path });
      const decided = audit.stdout.trim().split('\n').map((l) => JSON.parse(l) as { type: string; data: { callId: string; tool: string; args: unknown; verdict: string } })
        .find((e) => e.type === 'ToolCallDecided' && e.data.callId === payload.tool_use_id);
      expect(decided, audit.stderr).to.not.equal(undefined);
      expect(decided!.data).to.deep.include({ tool, verdict: 'allow' });
      expect(decided!.data.args).to.deep.equal(args);
    });
  }

  it('asks a human through tollgate: deny saying a human was asked (no id, no command), then the retried call runs once after `tollgate approve` on the human socket', async () => {
    const first = await hook(fixture('claude-PreToolUse-Bash-dangerous.json'));
    expect(first.exitCode).to.equal(2);
    expect(first.stderr).to.include('A human has been asked').and.not.include('tollgate approve');
    const id = await openQuestion(dir.path);
    expect(first.stderr + first.stdout).not.to.include(id);
    const refused = await runCli(['approve', id, 'once', '--socket', socket], { cwd: dir.path });
    expect(refused.exitCode).to.equal(1);
    expect(refused.stderr).to.include('channel:out-of-band-refused');
    const approved = await runCli(['approve', id, 'once'], { cwd: dir.path });
    expect(approved.exitCode, approved.stderr).to.equal(0);
    const retried = await hook(fixtureWith('claude-PreToolUse-Bash-dangerous.json', (p) => { p['tool_use_id'] = 'toolu_retry_1'; }));
    expect(retried.exitCode, retried.stderr).to.equal(0);
    const again = await hook(fixtureWith('claude-PreToolUse-Bash-dangerous.json', (p) => { p['tool_use_id'] = 'toolu_retry_2'; }));
    expect(again.exitCode).to.equal(2);
  });

  it('hands the question to Claude Code\'s own prompt with --on-ask prompt (permissionDecision ask, exit 0)', async () => {
    const result = await hook(fixtureWith('claude-PreToolUse-Bash-dangerous.json', (p) => { p['tool_use_id'] = 'toolu_prompt'; }), '--on-ask', 'prompt');
    expect(result.exitCode).to.equal(0);
    expect(decisionOf(result.stdout)).to.deep.include({ permissionDecision: 'ask' });
    expect(decisionOf(result.stdout)!.permissionDecisionReason).to.match(/rm -r build/);
  });

  it('denies a tool call in a session whose prompt tollgate never saw, and says which hook to add', async () => {
    const result = await hook(fixtureWith('claude-PreToolUse-Bash-plain.json', (p) => { p['session_id'] = 'no-prompt-seen'; }));
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.match(/UserPromptSubmit/);
  });

  it('denies an event without a session id (the daemon refuses it, the hook blocks)', async () => {
    const result = await hook(fixtureWith('claude-PreToolUse-Bash-plain.json', (p) => { delete p['session_id']; }));
    expect(result.exitCode).to.equal(2);
    expect(decisionOf(result.stdout)).to.deep.include({ permissionDecision: 'deny' });
  });

  it('passes events it has nothing to decide (PostToolUse)', async () => {
    const result = await hook(fixtureWith('claude-PreToolUse-Bash-plain.json', (p) => { p['hook_event_name'] = 'PostToolUse'; }));
    expect(result.exitCode).to.equal(0);
  });

  describe('fails closed', () => {
    it('daemon down: deny, exit 2', async () => {
      const result = await runHook(['--claude', '--socket', join(dir.path, 'nobody.sock')], fixture('claude-PreToolUse-Bash-plain.json'), dir.path);
      expect(result.exitCode).to.equal(2);
      expect(decisionOf(result.stdout)).to.deep.include({ permissionDecision: 'deny' });
      expect(result.stderr).to.match(/cannot be reached/);
    });

    it('daemon down on UserPromptSubmit: the prompt is blocked (exit 2) with the reason', async () => {
      const result = await runHook(['--claude', '--socket', join(dir.path, 'nobody.sock')], fixture('claude-UserPromptSubmit.json'), dir.path);
      expect(result.exitCode).to.equal(2);
      expect(result.stderr).to.match(/tollgate serve/);
    });

    for (const [label, stdin] of [['not JSON', '{"tool_name": "Bash", '], ['empty', ''], ['a JSON array', '[]']] as const) {
      it(`bad stdin (${label}): deny, exit 2`, async () => {
        const result = await hook(stdin);
        expect(result.exitCode).to.equal(2);
        expect(decisionOf(result.stdout)).to.deep.include({ permissionDecision: 'deny' });
      });
    }

    it('a daemon that never answers: deny after --timeout-ms, exit 2', async () => {
      const slow = join(dir.path, 'slow.sock');
      const fake = await fakeDaemon(slow, 'never');
      try {
        const result = await runHook(['--claude', '--socket', slow, '--timeout-ms', '300'], fixture('claude-PreToolUse-Bash-plain.json'), dir.path);
        expect(result.exitCode).to.equal(2);
        expect(result.stderr).to.match(/no decision within 300 ms/);
        expect(result.ms).to.be.below(5000);
      } finally {
        await fake.close();
      }
    });

    for (const [label, answer] of [
      ['not HTTP', 'garbage\r\n\r\n'],
      ['HTTP with a non-JSON body', httpAnswer(200, 'allow')],
      ['JSON without a decision', httpAnswer(200, '{"ok":true}')],
      ['an allow with an error status', httpAnswer(500, '{"action":"allow"}')],
    ] as const) {
      it(`a daemon answering ${label}: deny, exit 2`, async () => {
        const path = join(dir.path, 'garbage.sock');
        const fake = await fakeDaemon(path, answer);
        try {
          const result = await runHook(['--claude', '--socket', path], fixture('claude-PreToolUse-Bash-plain.json'), dir.path);
          expect(result.exitCode).to.equal(2);
          expect(decisionOf(result.stdout)).to.deep.include({ permissionDecision: 'deny' });
        } finally {
          await fake.close();
        }
      });
    }

    it('a misconfigured hook (no runtime flag, unknown option): block, exit 2', async () => {
      for (const args of [['--socket', socket], ['--claude', '--socket', socket, '--allow-everything']]) {
        const result = await runHook(args, fixture('claude-PreToolUse-Bash-plain.json'), dir.path);
        expect(result.exitCode, args.join(' ')).to.equal(2);
        expect(result.stderr).to.match(/misconfigured/);
      }
    });

    it('reached through the full CLI (global options first), it still answers and still blocks', async () => {
      const result = await runCli(['-c', join(dir.path, 'missing.yaml'), 'hook', '--claude'], { cwd: dir.path, input: fixture('claude-PreToolUse-Bash-plain.json') });
      expect(result.exitCode).to.equal(2);
      expect(decisionOf(result.stdout)).to.deep.include({ permissionDecision: 'deny' });
      const ok = await runCli(['-c', join(dir.path, 'missing.yaml'), 'hook', '--claude', '--socket', socket], { cwd: dir.path, input: fixture('claude-PreToolUse-Bash-hardline.json') });
      expect(ok.exitCode).to.equal(2);
      expect(ok.stderr).to.match(/hardline/);
    });
  });
});
