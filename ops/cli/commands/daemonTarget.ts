/** Where CLI commands reach the running daemon: `--socket`, else `server.socket` from the configuration. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { configFrom } from '../globalOptions.ts';
import { UsageError } from '../usageError.ts';

export const socketOf = (command: Command, flag?: string): string => resolve(flag ?? configFrom(command).server.socket);

/** Where a human's answers go: `--socket`, else the human channel (`server.human_socket`) when set, else `server.socket`. */
export const humanSocketOf = (command: Command, flag?: string): string => {
  if (flag !== undefined) return resolve(flag);
  const { server } = configFrom(command);
  return resolve(server.human_socket ?? server.socket);
};

/** Turns a refused connection into advice instead of a stack trace. */
export const unreachable = (socket: string, error: unknown): UsageError => {
  const code = (error as NodeJS.ErrnoException).code;
  return new UsageError(code === 'ENOENT' || code === 'ECONNREFUSED'
    ? `no daemon answers on ${socket} — start it with \`tollgate serve\` (or \`npm start\`)`
    : `cannot reach the daemon on ${socket}: ${(error as Error).message}`, 1);
};
