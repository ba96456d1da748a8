import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { requestOverSocket } from '../../../adapters/http/socketClient.ts';
import { runCli, startDaemon } from '../../support/runCli.ts';
import { useTempDir } from '../../support/tempDir.ts';

describe('tollgate CLI', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-cli');

  describe('classify', () => {
    it('shows the simple commands behind wrappers and the hardline verdict', async () => {
      const { exitCode, stdout } = await runCli(['classify', 'sudo sh -c "cd /tmp && rm -rf /"'], { cwd: temp.current.path });
      expect(exitCode).to.equal(0);
      expect(stdout).to.match(/rm "-rf" "\/"/).and.to.match(/verdict: BLOCK \(hardline/);
    });

    it('prints JSON with the matched rules', async () => {
      const { stdout } = await runCli(['classify', 'rm -r build/', '--json'], { cwd: temp.current.path });
      const parsed = JSON.parse(stdout) as { verdict: string; dangerous: { ruleId: string }[]; commands: { program: string }[] };
      expect(parsed.verdict).to.equal('ask');
      expect(parsed.commands.map((c) => c.program)).to.deep.equal(['rm']);
      expect(parsed.dangerous).to.have.length.greaterThan(0);
    });
  });

  describe('eval', () => {
    it('exits 1 and prints the failed expectation when a verdict differs', async () => {
      const file = join(temp.current.path, 'wrong.jsonl');
      writeFileSync(file, `${JSON.stringify({ id: 'wrong', steps: [{ user: 'x' }, { tool: 'terminal', args: { command: 'rm -rf /' }, expect: 'allow' }] })}\n`);
      const { exitCode, stdout } = await runCli(['eval', file], { cwd: temp.current.path });
      expect(exitCode).to.equal(1);
      expect(stdout).to.include('FAIL wrong step 2: expected allow, got block').and.to.match(/0 passed, 1 failed\n$/);
    });

    it('exits 2 naming file and line for a malformed file, and runs nothing', async () => {
      const file = join(temp.current.path, 'bad.jsonl');
      writeFileSync(file, `// ok\n${JSON.stringify({ id: 'a', steps: [{ user: 'x' }] })}\n{"id": "b", "steps": [{"tool": "t", "expect": "sometimes"}]}\n`);
      const { exitCode, stdout, stderr } = await runCli(['eval', file], { cwd: temp.current.path });
      expect(exitCode).to.equal(2);
      expect(stderr).to.include(`${file}:3:`);
      expect(stdout).to.equal('');
    });

    it('prints one JSON object per step with verdict, reasons and latency', async () => {
      const file = join(temp.current.path, 'ok.jsonl');
      writeFileSync(file, `${JSON.stringify({ id: 'ok', steps: [{ user: 'x' }, { tool: 'terminal', args: { command: 'ls' }, expect: 'allow' }] })}\n`);
      const { exitCode, stdout } = await runCli(['eval', file, '--json'], { cwd: temp.current.path });
      expect(exitCode).to.equal(0);
      const steps = stdout.trim().split('\n').slice(0, -1).map((l) => JSON.parse(l) as { verdict: string | null; latencyUs: number });
      expect(steps[1]).to.include({ verdict: 'allow' });
      expect(steps[1]!.latencyUs).to.be.a('number');
    });
  });

  describe('verify', () => {
    it('names the first bad position when one byte of a stored event changed, and exits 1', async () => {
      const cwd = temp.current.path;
      const daemon = await startDaemon([], cwd);
      const socket = join(cwd, 'data', 'tollgate.sock');
      await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'v', user_message: 'hello' });
      for (const command of ['ls', 'pwd', 'whoami']) await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 'v', tool_name: 'terminal', args: { command } });
      await daemon.stop();
      expect((await runCli(['verify'], { cwd })).exitCode).to.equal(0);

      // Someone holding the file edits one byte of one event's data (dropping the append-only triggers first).
      const db = new Database(join(cwd, 'data', 'ledger.db'));
      for (const { name } of db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger'").all() as { name: string }[]) db.exec(`DROP TRIGGER "${name}"`);
      const target = db.prepare("SELECT min(position) AS p FROM events WHERE data LIKE '%whoami%'").get() as { p: number };
      db.prepare("UPDATE events SET data = replace(data, 'whoami', 'whoamI') WHERE position = ?").run(target.p);
      db.close();

      const { exitCode, stdout } = await runCli(['verify'], { cwd });
      expect(exitCode).to.equal(1);
      expect(stdout).to.include(`FAILED at position ${target.p}`);
    });
  });
});

describe('tollgate serve refusals', function () {
  this.timeout(60_000);
  const temp = useTempDir('tollgate-serve');

  it('refuses to start on a socket another daemon answers, with a message instead of a stack trace', async () => {
    const cwd = temp.current.path;
    const first = await startDaemon([], cwd);
    try {
      const second = await runCli(['serve'], { cwd });
      expect(second.exitCode).to.equal(1);
      expect(second.stderr).to.match(/^tollgate: Another process is already listening on .*tollgate\.sock/);
      expect(second.stderr).not.to.include('    at ');
    } finally {
      await first.stop();
    }
  });

  it('refuses an HTTP listener on a non-loopback address', async () => {
    const cwd = temp.current.path;
    writeFileSync(join(cwd, 'tollgate.yaml'), 'server:\n  http:\n    enabled: true\n    host: 0.0.0.0\n    port: 0\n');
    const { exitCode, stderr } = await runCli(['serve'], { cwd });
    expect(exitCode).to.equal(1);
    expect(stderr).to.match(/loopback/i);
  });
});
