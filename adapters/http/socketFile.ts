/**
 * The Unix socket's file: a stale socket left by a crashed daemon is removed, a live one (another daemon answers)
 * or a file that is not a socket is never touched. The socket is created with mode 0600: its file mode is the
 * access control, so only the daemon's user can ask for decisions.
 */
import { chmodSync, lstatSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';
import { connect } from 'node:net';
import type { Server } from 'node:http';

const answers = (path: string): Promise<boolean> => new Promise((resolve) => {
  const socket = connect(path);
  const done = (live: boolean): void => { socket.destroy(); resolve(live); };
  socket.once('connect', () => done(true));
  socket.once('error', () => done(false));
  socket.setTimeout(1000, () => done(false));
});

export const removeStaleSocket = async (path: string): Promise<void> => {
  let stat;
  try { stat = lstatSync(path); } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stat.isSocket()) throw new Error(`Refusing to replace ${path}: it exists and is not a socket.`);
  if (await answers(path)) throw new Error(`Another process is already listening on ${path}; stop it first (or choose another server.socket).`);
  unlinkSync(path);
};

/** Listens on the path with a umask that makes the socket 0600 from its first moment, then sets the mode again. */
/** sun_path holds 108 bytes including the terminating NUL. */
const maxSocketPathBytes = 107;

export const listenOnSocket = async (server: Server, path: string): Promise<void> => {
  if (Buffer.byteLength(path) > maxSocketPathBytes)
    throw new Error(`The socket path ${path} is ${Buffer.byteLength(path)} bytes long; Unix sockets allow at most ${maxSocketPathBytes}. Choose a shorter server.socket.`);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  await removeStaleSocket(path);
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    server.once('error', onError);
    let previous: number | null = null;
    try { previous = process.umask(0o177); } catch { previous = null; } // process.umask() throws in worker threads
    try {
      server.listen(path, () => { server.off('error', onError); resolve(); });
    } finally {
      if (previous !== null) process.umask(previous);
    }
  });
  chmodSync(path, 0o600);
};
