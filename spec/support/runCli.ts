/** Runs the real `tollgate` binary: exit code, stdout and stderr, each test in its own folder. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';

export const tollgateBin = resolve('bin/tollgate.mjs');

export interface CliResult { readonly exitCode: number | null; readonly stdout: string; readonly stderr: string }

export const runCli = (args: readonly string[], options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv } = { cwd: process.cwd() }): Promise<CliResult> =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, [tollgateBin, ...args], { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('error', fail);
    child.on('close', (exitCode) => done({ exitCode, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });

/** Starts `tollgate serve` and resolves once it prints that it listens. */
export const startDaemon = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ child: ChildProcessWithoutNullStreams; output: () => string; stop: () => Promise<number | null> }> =>
  new Promise((done, fail) => {
    const child = spawn(process.execPath, [tollgateBin, ...args, 'serve'], { cwd, env: { ...process.env, ...env } });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on unix socket')) done({
        child, output: () => output,
        stop: () => new Promise((stopped) => { child.once('close', (code) => stopped(code)); child.kill('SIGTERM'); }),
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('close', (code) => fail(new Error(`tollgate serve exited with ${code} before listening:\n${output}`)));
  });
