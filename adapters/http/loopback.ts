/** The HTTP listener binds to loopback only: 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and `localhost`. */
import { BlockList, isIP } from 'node:net';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export const isLoopbackHost = (host: string): boolean => {
  const bare = host.trim().replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  const address = mapped?.[1] ?? bare;
  const family = isIP(address);
  if (family === 4) return loopback.check(address, 'ipv4');
  if (family === 6) return loopback.check(address, 'ipv6');
  return false;
};

export class NotLoopbackError extends Error {
  readonly type = 'not-loopback' as const;
  constructor(readonly host: string) {
    super(`Refusing to listen on ${host}: the HTTP listener binds to loopback only (127.0.0.0/8, ::1 or localhost), `
      + 'because anything that can reach it can ask the gate to decide. Use the Unix socket for local clients.');
    this.name = 'NotLoopbackError';
  }
}
