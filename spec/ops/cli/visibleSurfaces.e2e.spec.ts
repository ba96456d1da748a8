/**
 * Human surfaces cannot be spoofed (issue 6): with the real binary, a real daemon and its SQLite ledger, a command
 * that erases its own line (`\x1b[2K\x1b[1G`) and one with a right-to-left override (U+202E), in a session whose id
 * is reversed (U+202E), arrive visible on every surface: the Hermes reply's prompt text, `approvals` (text and
 * JSON), `approve`, `audit` (text and JSON), `tail` (text and JSON), the SSE stream as a client reads it, `replay`
 * and `classify`. Visible means the escape is there as text and the raw character is not.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { openEventStream, requestOverSocket } from '../../../adapters/http/socketClient.ts';
import { runCli, startDaemon, tollgateBin } from '../../support/runCli.ts';
import { createTempDir, type TempDir } from '../../support/tempDir.ts';

const spoof = 'rm -r build/ # \x1b[2K\x1b[1Gls -la';
const spoofShown = 'rm -r build/ # \\x1b[2K\\x1b[1Gls -la';
const reversed = 'rm -r build/ # \u202edliub ruoy gnitsil';
const reversedShown = 'rm -r build/ # \\u202edliub ruoy gnitsil';
// The ledger refuses control characters in stream names; a direction override gets through.
const session = 'demo\u202eexe.txt';
const sessionShown = 'demo\\u202eexe.txt';
/** Raw characters no human surface may carry: ESC, CSI, the override, and C0 controls other than the line feed. */
const raw = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200b-\u200f]/u;

const expectVisible = (text: string, ...shown: string[]): void => {
  expect(raw.exec(text)?.[0], `a raw control or invisible character in:\n${text}`).to.equal(undefined);
  for (const s of shown) expect(text).to.include(s);
};

/** Runs `tollgate tail` until it printed `lines` lines (or 30 s), then stops it with SIGINT as a person would. */
const tail = (cwd: string, args: readonly string[], lines: number): Promise<string> => new Promise((done) => {
  const child = spawn(process.execPath, [tollgateBin, 'tail', '--after', '0', ...args], { cwd });
  let out = '';
  const stop = (): void => { clearTimeout(timer); child.kill('SIGINT'); };
  const timer = setTimeout(stop, 30_000);
  child.stdout.on('data', (chunk: Buffer) => { out += chunk.toString(); if (out.split('\n').length > lines) stop(); });
  child.on('close', () => done(out));
});

describe('human surfaces show escape sequences in a command visibly, not interpreted (real binary and daemon)', function () {
  this.timeout(60_000);
  let dir: TempDir;
  let daemon: Awaited<ReturnType<typeof startDaemon>>;
  let socket: string;
  const asked: Record<string, { json: Record<string, unknown>; text: string }> = {};

  before(async () => {
    dir = await createTempDir('tollgate-visible');
    daemon = await startDaemon([], dir.path);
    socket = join(dir.path, 'data', 'tollgate.sock');
    const hook = (name: string, body: Record<string, unknown>) => requestOverSocket(socket, 'POST', `/v1/hooks/hermes/${name}`, body);
    await hook('pre_llm_call', { session_id: session, user_message: 'clean the build folder', platform: 'cli' });
    for (const [name, command] of [['spoof', spoof], ['reversed', reversed]] as const) {
      const reply = await hook('pre_tool_call', { session_id: session, tool_name: 'terminal', args: { command }, tool_call_id: name });
      expect(reply.json, reply.text).to.include({ verdict: 'ask', action: 'approve' });
      asked[name] = { json: reply.json as Record<string, unknown>, text: reply.text };
    }
  });

  after(async () => {
    await daemon?.stop();
    await dir?.remove();
  });

  it("the daemon's Hermes reply carries the call as prompt_text, escaped, and no raw character", () => {
    expect(asked['spoof']!.json['prompt_text']).to.equal(spoofShown);
    expect(asked['reversed']!.json['prompt_text']).to.equal(reversedShown);
    for (const { text } of Object.values(asked)) expectVisible(text);
  });

  it('`tollgate approvals` lists both commands and the session id escaped; --json keeps the exact values', async () => {
    const listed = await runCli(['approvals'], { cwd: dir.path });
    expect(listed.exitCode, listed.stderr).to.equal(0);
    expectVisible(listed.stdout, spoofShown, reversedShown, sessionShown);
    expect(listed.stdout.trim().split('\n')).to.have.length(2);
    const json = await runCli(['approvals', '--json'], { cwd: dir.path });
    expectVisible(json.stdout, '\\u001b[2K', '\\u202e');
    const summaries = (JSON.parse(json.stdout) as { approvals: { summary: string; sessionId: string }[] }).approvals.map((a) => a.summary);
    expect(summaries).to.have.members([spoof, reversed]);
  });

  it('`tollgate approve` prints the session it answered in escaped', async () => {
    const id = asked['spoof']!.json['approval_id'] as string;
    const answered = await runCli(['approve', id, 'deny'], { cwd: dir.path });
    expectVisible(answered.stdout + answered.stderr);
    if (answered.exitCode === 0) expect(answered.stdout).to.include(sessionShown);
  });

  it('`tollgate tail` shows the decisions escaped, and --json carries the exact values with escapes only', async () => {
    const text = await tail(dir.path, ['--type', 'ToolCallDecided'], 2);
    expectVisible(text, spoofShown, reversedShown, sessionShown);
    const json = await tail(dir.path, ['--type', 'ToolCallDecided', '--json'], 2);
    expectVisible(json, '\\u202e');
    const commands = json.trim().split('\n').map((line) => (JSON.parse(line) as { data: { shell: { source: string } } }).data.shell.source);
    expect(commands).to.deep.equal([spoof, reversed]);
  });

  it('the SSE stream, read by a real client, carries escapes and never the raw characters', async () => {
    const seen: { event: string; data: string }[] = [];
    const stream = openEventStream({ socketPath: socket }, '/v1/stream?after=0', { onMessage: (m) => { seen.push({ event: m.event, data: m.data }); } });
    for (let i = 0; i < 200 && !seen.some((m) => m.event === 'caught-up'); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    stream.close();
    const decided = seen.filter((m) => m.event === 'ToolCallDecided');
    expect(decided).to.have.length(2);
    for (const m of seen) expectVisible(m.data);
    expect(decided[1]!.data).to.include('\\u202e');
    expect(decided.map((m) => (JSON.parse(m.data) as { data: { shell: { source: string } } }).data.shell.source)).to.deep.equal([spoof, reversed]);
  });

  it('`tollgate audit` shows the decisions and questions escaped, and --json carries the exact values', async () => {
    const text = await runCli(['audit', '-n', '50'], { cwd: dir.path });
    expect(text.exitCode, text.stderr).to.equal(0);
    expectVisible(text.stdout, `ASK terminal ${spoofShown}`, `ASK terminal ${reversedShown}`, `ASKED`, sessionShown);
    const json = await runCli(['audit', '-n', '50', '--json'], { cwd: dir.path });
    expectVisible(json.stdout, '\\u202e', '\\u001b');
    const sources = json.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; data: { shell?: { source: string } } })
      .filter((row) => row.type === 'ToolCallDecided').map((row) => row.data.shell?.source);
    expect(sources).to.deep.equal([spoof, reversed]);
  });

  it('`tollgate replay` names the session escaped (text and JSON)', async () => {
    const text = await runCli(['replay', session], { cwd: dir.path });
    expectVisible(text.stdout + text.stderr, sessionShown);
    const json = await runCli(['replay', session, '--json'], { cwd: dir.path });
    expectVisible(json.stdout + json.stderr, '\\u202e');
  });

  it('`tollgate classify` shows the parsed command escaped (text and JSON)', async () => {
    const text = await runCli(['classify', 'rm -r "build/\x1b[2K\x1b[1G"'], { cwd: dir.path });
    expectVisible(text.stdout, '"build/\\u001b[2K\\u001b[1G"');
    const json = await runCli(['classify', 'rm -r "\u202edliub"', '--json'], { cwd: dir.path });
    expectVisible(json.stdout, '\\u202e');
  });
});
