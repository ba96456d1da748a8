/** Helpers for the hook specs: recorded payloads, the real binary, and stand-in daemons that misbehave. */
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { runCli, type CliResult } from '../../../support/runCli.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');

/** A recorded payload, as text (what the runtime writes to the hook's stdin). */
export const fixture = (name: string): string => readFileSync(join(fixtures, name), 'utf8');

/** The same payload with some fields replaced (a fresh session, another command). */
export const fixtureWith = (name: string, change: (payload: Record<string, unknown>) => void): string => {
  const payload = JSON.parse(fixture(name)) as Record<string, unknown>;
  change(payload);
  return JSON.stringify(payload);
};

/** Runs `tollgate hook <args>` (the real binary, fast path) with the payload on stdin, and times it. */
export const runHook = async (args: readonly string[], input: string, cwd: string): Promise<CliResult & { ms: number }> => {
  const started = performance.now();
  const result = await runCli(['hook', ...args], { cwd, input, env: { TOLLGATE_SOCKET: '', TOLLGATE_CONFIG: '' } });
  return { ...result, ms: performance.now() - started };
};

/** A Unix socket server that accepts connections and answers as told: never, with garbage, or with a fixed reply. */
export const fakeDaemon = async (socketPath: string, answer: 'never' | string): Promise<{ close(): Promise<void> }> => {
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    if (answer === 'never') return;
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((done, fail) => { server.once('error', fail); server.listen(socketPath, done); });
  return {
    close: () => new Promise((done) => { for (const s of open) s.destroy(); server.close(() => done()); }),
  };
};

export const httpAnswer = (status: number, body: string): string =>
  `HTTP/1.1 ${status} X\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;

/** The id of the newest open question, as a human reads it (`tollgate approvals --json`), not from the agent's message. */
export const openQuestion = async (cwd: string): Promise<string> => {
  const listed = await runCli(['approvals', '--json'], { cwd });
  const approvals = (JSON.parse(listed.stdout) as { approvals: { approvalId: string }[] }).approvals;
  const id = approvals[approvals.length - 1]?.approvalId;
  if (id === undefined) throw new Error(`no open question: ${listed.stdout}${listed.stderr}`);
  return id;
};
