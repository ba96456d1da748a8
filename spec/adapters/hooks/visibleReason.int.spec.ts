/**
 * Claude Code's permission prompt (`tollgate hook --claude --on-ask prompt`) shows tollgate's reason beside the call:
 * with the real binary and a real daemon, a command that erases its own line and one with a right-to-left override
 * arrive in permissionDecisionReason escaped and without the raw characters.
 */
import { expect } from 'chai';
import { join } from 'node:path';
import { startDaemon } from '../../support/runCli.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';
import { fakeDaemon, fixture, fixtureWith, httpAnswer, runHook } from './support/hookSupport.ts';

const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/u;

describe('Claude Code\'s prompt reason shows the call visibly (real hook client, real daemon)', function () {
  this.timeout(60_000);
  let dir: TempDir;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let socket: string;

  before(async () => {
    dir = await createTempDir('tollgate-claude-visible');
    daemon = await startDaemon([], dir.path);
    socket = join(dir.path, 'data', 'tollgate.sock');
    const started = await runHook(['--claude', '--socket', socket], fixture('claude-UserPromptSubmit.json'), dir.path);
    expect(started.exitCode, started.stderr).to.equal(0);
  });

  after(async () => {
    await daemon?.stop();
    await dir?.remove();
  });

  it('a daemon that sends the call raw still cannot reach the prompt raw (the hook escapes again, without doubling)', async () => {
    const fake = join(dir.path, 'raw-daemon.sock');
    const body = JSON.stringify({ action: 'ask', verdict: 'ask', approvalId: 'q\u202e1', message: 'Needs\x1b[2K approval', promptText: 'rm -r x # \x1b[2K\\x1b ls' });
    const server = await fakeDaemon(fake, httpAnswer(200, body));
    try {
      const result = await runHook(['--claude', '--socket', fake, '--on-ask', 'prompt'], fixture('claude-PreToolUse-Bash-dangerous.json'), dir.path);
      const reason = (JSON.parse(result.stdout) as { hookSpecificOutput: { permissionDecisionReason: string } }).hookSpecificOutput.permissionDecisionReason;
      expect(reason).to.equal('tollgate: Needs\\x1b[2K approval (tollgate question q\\u202e1): rm -r x # \\u001b[2K\\x1b ls');
      expect(raw.exec(reason)?.[0]).to.equal(undefined);
    } finally {
      await server.close();
    }
  });

  it('a fake daemon\'s block message reaches stderr escaped, for Hermes\' shell hook and Claude Code alike (red team 2, R6)', async () => {
    const fake = join(dir.path, 'raw-block.sock');
    const body = JSON.stringify({ action: 'block', verdict: 'block', decision: 'block', message: 'Blocked\x1b[2J\u202e: run tollgate approve' });
    const server = await fakeDaemon(fake, httpAnswer(200, body));
    try {
      for (const [flag, input] of [['--hermes', fixture('hermes-pre_tool_call-dangerous.json')], ['--claude', fixture('claude-PreToolUse-Bash-dangerous.json')]] as const) {
        const result = await runHook([flag, '--socket', fake], input, dir.path);
        expect(result.exitCode, flag).to.equal(2);
        expect(raw.exec(result.stderr)?.[0], `${flag}: ${result.stderr}`).to.equal(undefined);
        expect(result.stderr, flag).to.include('\\x1b[2J');
      }
    } finally {
      await server.close();
    }
  });

  for (const [command, shown] of [
    ['rm -r build/ # \x1b[2K\x1b[1Gls -la', 'rm -r build/ # \\x1b[2K\\x1b[1Gls -la'],
    ['rm -r build/ # \u202edliub ruoy gnitsil', 'rm -r build/ # \\u202edliub ruoy gnitsil'],
  ] as const) {
    it(`permissionDecisionReason shows ${shown}`, async () => {
      const input = fixtureWith('claude-PreToolUse-Bash-dangerous.json', (p) => {
        p['tool_use_id'] = `toolu_${shown.length}`;
        p['tool_input'] = { command, description: 'clean' };
      });
      const result = await runHook(['--claude', '--socket', socket, '--on-ask', 'prompt'], input, dir.path);
      expect(result.exitCode, result.stderr).to.equal(0);
      expect(raw.exec(result.stdout)?.[0], result.stdout).to.equal(undefined);
      const reason = (JSON.parse(result.stdout) as { hookSpecificOutput: { permissionDecision: string; permissionDecisionReason: string } }).hookSpecificOutput;
      expect(reason.permissionDecision).to.equal('ask');
      expect(reason.permissionDecisionReason).to.include(shown).and.match(/tollgate question \S+/);
      expect(raw.exec(reason.permissionDecisionReason)?.[0]).to.equal(undefined);
    });
  }
});
