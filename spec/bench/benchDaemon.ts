/** A real daemon for benchmarks: a child process on a SQLite ledger in a temporary folder, stopped afterwards. */
import { spawn } from 'node:child_process';
import { requestOverSocket } from '../../adapters/http/socketClient.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const withDaemon = async <T>(work: (socket: string) => Promise<T>): Promise<T> => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  const socket = join(dir, 'tollgate.sock');
  writeFileSync(join(dir, 'tollgate.yaml'), `ledger:\n  url: sqlite:${join(dir, 'ledger.db')}\ndata:\n  dir: ${dir}\nserver:\n  socket: ${socket}\n`);
  const daemon = spawn(process.execPath, ['bin/tollgate.mjs', '-c', join(dir, 'tollgate.yaml'), 'serve'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((ready, fail) => {
      daemon.stdout.on('data', (chunk: Buffer) => { if (chunk.toString().includes('listening')) ready(); });
      daemon.once('exit', (code) => fail(new Error(`daemon exited with ${code}`)));
    });
    return await work(socket);
  } finally {
    daemon.kill('SIGTERM');
    await new Promise((done) => daemon.once('exit', done));
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * Calls a daemon serves before the warm figure is taken. The daemon already warms itself before it listens
 * (server.warm_up_calls, ops/runtime/warmUp.ts, docs/architecture.md "Warm-up"); the warm figure shows what is left
 * to gain after 3,000 real calls. The goal stays on the figure of a daemon just started.
 */
export const warmUpCalls = 3_000;

/** `calls` pre_tool_calls in a session of their own, answered and not measured. */
export const warmDaemon = async (socket: string, calls = warmUpCalls, lines: readonly string[] = ['ls -la', 'git status', 'rm -r build/']): Promise<void> => {
  await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'warm-up', user_message: 'warm up' });
  for (let i = 0; i < calls; i++) {
    const reply = await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_tool_call', { session_id: 'warm-up', tool_name: 'terminal', args: { command: lines[i % lines.length] }, tool_call_id: `w${i}` });
    if (reply.status !== 200) throw new Error(`warm-up pre_tool_call answered ${reply.status}: ${reply.text}`);
  }
};
