/**
 * bash's /dev/tcp/HOST/PORT and /dev/udp/HOST/PORT: any redirect opens a socket. The port may be written as
 * arithmetic the floor can fold (`$((8700+87))`, `$[8787]`), and a loopback host with a port filled in at run time
 * (`$((P))`, `$PORT`) may be tollgate's: refused (red team 8).
 */
import { constantValue, withArithmeticFolded } from './constantArithmetic.ts';
import { isLoopbackHost } from './loopbackHosts.ts';

const devSocket = /^\/dev\/(?:tcp|udp)\/([^/]+)\/(.+)$/;

/** `$[…]`, bash's old spelling of `$((…))`, folded the same way. */
const withOldArithmeticFolded = (word: string): string =>
  word.replace(/\$\[([^\][]*)\]/g, (whole, inner: string) => { const v = constantValue(inner, 'shell'); return v === null ? whole : String(v); });

/** Whether the /dev/tcp word reaches this machine's `port`, or a loopback port the floor cannot know. */
export const devSocketReachesPort = (word: string, port: number): boolean => {
  if (!word.startsWith('/dev/')) return false;
  const match = devSocket.exec(withOldArithmeticFolded(withArithmeticFolded(word)));
  if (match === null) return false;
  const [, host, portText] = match as unknown as [string, string, string];
  if (/[$`]/.test(host)) return /^0*\d+$/.test(portText) ? Number(portText) === port : true;
  if (!isLoopbackHost(host)) return false;
  return /^0*\d+$/.test(portText) ? Number(portText) === port : /[$`]/.test(portText);
};

export const devSocketExamples = {
  stops: ['/dev/tcp/127.0.0.1/8787', '/dev/tcp/localhost/$((8700+87))', '/dev/tcp/127.0.0.1/$((8786+1))', '/dev/tcp/127.0.0.1/$[8787]', '/dev/tcp/127.0.0.1/$(( 0x2253 ))',
    '/dev/tcp/127.0.0.1/$((8787*1))', '/dev/udp/127.0.0.1/$((8787))', '/dev/tcp/localhost/$((8000 + 787))', '/dev/tcp/127.0.0.1/$P', '/dev/tcp/127.1/$((P+1))', '/dev/tcp/$H/8787'],
  allows: ['/dev/tcp/example.com/80', '/dev/tcp/example.com/$((80))', '/dev/tcp/127.0.0.1/$((9000+1))', '/dev/tcp/example.com/$PORT', '/dev/tcp/127.0.0.1/5432', '/dev/null'],
};
