/**
 * What tollgate adds to a Hermes tool call, measured against a real daemon (SQLite ledger, durable appends):
 * through the Python plugin's callback (plugin → socket → gate → append → answer), and through the shell hook
 * (`tollgate hook --hermes`, one process per call, as Hermes runs it).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { withDaemon } from './benchDaemon.ts';
import { requestOverSocket } from '../../adapters/http/socketClient.ts';
import { percentile } from './stats.ts';

export const hermesPluginOverhead = (iterations = 1500): Promise<{ p50_ms: number; p99_ms: number }> => withDaemon(async (socket) => {
  const run = spawnSync('python3', [resolve('spec/bench/pluginOverhead.py'), resolve('adapters/hermes/plugin'), String(iterations)], {
    env: { ...process.env, TOLLGATE_SOCKET: socket }, encoding: 'utf8', timeout: 120_000,
  });
  if (run.status !== 0) throw new Error(`plugin bench failed: ${run.stderr || run.stdout}`);
  return JSON.parse(run.stdout) as { p50_ms: number; p99_ms: number };
});

/** The hook's wall time per call, beside a bare `node -e ''` start in the same run (the floor any Node hook pays). */
export const shellHookLatency = (runs = 30): Promise<{ p50_ms: number; node_start_p50_ms: number }> => withDaemon(async (socket) => {
  await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'bench', user_message: 'run the usual checks' });
  const payload = JSON.stringify({ hook_event_name: 'pre_tool_call', tool_name: 'terminal', tool_input: { command: 'ls -la' }, session_id: 'bench', cwd: process.cwd(), extra: {} });
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const run = spawnSync(process.execPath, ['bin/tollgate.mjs', 'hook', '--hermes'], { input: payload, env: { ...process.env, TOLLGATE_SOCKET: socket }, encoding: 'utf8' });
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (run.status !== 0) throw new Error(`tollgate hook --hermes exited ${run.status}: ${run.stderr}`);
  }
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    spawnSync(process.execPath, ['-e', '']);
    bare.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return { p50_ms: percentile(samples, 50), node_start_p50_ms: percentile(bare, 50) };
});
