/** A real daemon for benchmarks: a child process on a SQLite ledger in a temporary folder, stopped afterwards. */
import { spawn } from 'node:child_process';
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
