/** Raw bytes to the daemon's socket, for requests no well-behaved client sends (partial bodies, garbage). */
import { connect, type Socket } from 'node:net';

export interface RawExchange {
  readonly socket: Socket;
  /** Everything received until the daemon closed the connection or `ms` passed. */
  received(ms?: number): Promise<string>;
}

export const rawConnect = (socketPath: string): Promise<RawExchange> => new Promise((resolve, reject) => {
  const socket = connect(socketPath);
  const chunks: Buffer[] = [];
  let ended = false;
  const endWaiters: (() => void)[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('close', () => { ended = true; endWaiters.splice(0).forEach((w) => w()); });
  socket.on('error', () => undefined);
  socket.once('connect', () => resolve({
    socket,
    received: (ms = 3000) => new Promise((done) => {
      const finish = (): void => done(Buffer.concat(chunks).toString('utf8'));
      if (ended) { finish(); return; }
      const timer = setTimeout(finish, ms);
      endWaiters.push(() => { clearTimeout(timer); finish(); });
    }),
  }));
  socket.once('error', reject);
});

/** The status code and JSON body of the first HTTP response in raw text. */
export const parseRawResponse = (text: string): { status: number; json: unknown } => {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const body = text.slice(text.indexOf('\r\n\r\n') + 4);
  let json: unknown = null;
  try { json = JSON.parse(body); } catch { json = null; }
  return { status, json };
};
