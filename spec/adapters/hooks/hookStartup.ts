/**
 * How long one `tollgate hook --hermes` takes as a runtime sees it: process start to exit, one plain terminal call
 * decided by a real daemon (fast path: no tsx). For `npm run bench` (key `shell_hook_p50_ms`) and by hand:
 *
 *   node --import tsx spec/adapters/hooks/hookStartup.ts [runs]      # prints JSON: p50/p99 and bare `node -e ""`
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requestOverSocket } from '../../../adapters/http/socketClient.ts';
import { startDaemon, tollgateBin } from '../../support/runCli.ts';
import { createTempDir } from '../../support/tempDir.ts';

const timed = (args: readonly string[], input: string): Promise<{ ms: number; code: number | null; stdout: string }> => new Promise((done, fail) => {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.on('error', fail);
  child.on('close', (code) => done({ ms: performance.now() - started, code, stdout }));
  child.stdin.end(input);
});

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

export interface HookStartup { readonly runs: number; readonly shell_hook_p50_ms: number; readonly shell_hook_p99_ms: number; readonly bare_node_p50_ms: number }

export const measureShellHook = async (runs = 20): Promise<HookStartup> => {
  const dir = await createTempDir('tollgate-hook-startup');
  const daemon = await startDaemon([], dir.path);
  try {
    const socket = join(dir.path, 'data', 'tollgate.sock');
    await requestOverSocket(socket, 'POST', '/v1/hooks/hermes/pre_llm_call', { session_id: 'bench', user_message: 'list the files' });
    const payload = JSON.stringify({ hook_event_name: 'pre_tool_call', tool_name: 'terminal', tool_input: { command: 'ls -la' }, session_id: 'bench', cwd: dir.path, extra: { task_id: '', tool_call_id: 'c', turn_id: 't' } });
    const hook: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const r = await timed([tollgateBin, 'hook', '--hermes', '--socket', socket], payload);
      if (r.code !== 0 || r.stdout.trim() !== '{}') throw new Error(`the hook answered ${r.code}: ${r.stdout}`);
      if (i >= 2) hook.push(r.ms); // the first runs warm the file cache
      const b = await timed(['-e', ''], '');
      if (i >= 2) bare.push(b.ms);
    }
    const round = (n: number) => Math.round(n * 10) / 10;
    return { runs, shell_hook_p50_ms: round(percentile(hook, 50)), shell_hook_p99_ms: round(percentile(hook, 99)), bare_node_p50_ms: round(percentile(bare, 50)) };
  } finally {
    await daemon.stop();
    await dir.remove();
  }
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${JSON.stringify(await measureShellHook(Number(process.argv[2] ?? 20)))}\n`);
}
