/**
 * Every spelling of "this machine" an HTTP client accepts: 127.0.0.0/8 written as the C resolver reads it
 * (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`), `localhost` with or without a trailing dot, `0.0.0.0`
 * (Linux connects it to loopback) and the IPv6 loopback and mapped forms. Used to see that a URL names
 * tollgate's own HTTP port.
 */

/** One part of an inet_aton address: decimal, 0x hex or 0-prefixed octal; NaN when it is none of these. */
const part = (text: string): number => {
  if (/^0x[0-9a-f]*$/i.test(text)) return text.length === 2 ? 0 : parseInt(text.slice(2), 16);
  if (/^0[0-7]+$/.test(text)) return parseInt(text, 8);
  if (/^(?:0|[1-9][0-9]*)$/.test(text)) return Number(text);
  return NaN;
};

/** The IPv4 address inet_aton reads from 1 to 4 parts (`127.1` is 127.0.0.1), or null. */
export const inetAton = (host: string): number | null => {
  const parts = host.split('.').map(part);
  if (parts.length === 0 || parts.length > 4 || parts.some((p) => Number.isNaN(p))) return null;
  const last = parts[parts.length - 1]!;
  const head = parts.slice(0, -1);
  if (head.some((p) => p > 255) || last >= 2 ** (8 * (4 - head.length))) return null;
  return head.reduce((value, p, i) => value + p * 2 ** (8 * (3 - i)), 0) + last;
};

export const isLoopbackHost = (raw: string): boolean => {
  let host = raw.toLowerCase().replace(/%25.*$|%.*$/, '');
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost6' || host === 'ip6-localhost' || host === 'ip6-loopback') return true;
  if (host.includes(':')) return isLoopbackV6(host);
  const address = inetAton(host);
  return address !== null && (address >>> 24 === 127 || address === 0);
};

const isLoopbackV6 = (host: string): boolean => {
  const mapped = /^(?:0{0,4}:){0,5}(?::|ffff:)(\d+\.\d+\.\d+\.\d+)$/.exec(host) ?? /^::ffff:0*(\d+\.\d+\.\d+\.\d+)$/.exec(host);
  if (mapped !== null) return isLoopbackHost(mapped[1]!);
  const groups = expandV6(host);
  if (groups === null) return false;
  if (groups.slice(0, 7).every((g) => g === 0) && (groups[7] === 1 || groups[7] === 0)) return true;
  // ::ffff:7f00:1 — an IPv4-mapped loopback written in hex.
  return groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff && groups[6]! >> 8 === 127;
};

const expandV6 = (host: string): number[] | null => {
  const halves = host.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === '' ? [] : s.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  if ([...head, ...tail].some((g) => Number.isNaN(g))) return null;
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  if (fill < 0 || (halves.length === 1 && head.length !== 8)) return null;
  return [...head, ...new Array<number>(fill).fill(0), ...tail];
};

/** The host:port pairs a word names: URLs (`http://h:p/…`, `http+unix://…` aside), `h:p`, `[v6]:p`. */
export const hostPorts = (word: string): { host: string; port: number | null }[] => {
  const out: { host: string; port: number | null }[] = [];
  const pattern = /(?:[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]*@)?)?(\[[0-9a-fA-F:.%]+\]|[A-Za-z0-9._~-]+)(?::(\d{1,5}))?/g;
  for (const match of word.matchAll(pattern)) {
    const [whole, host, port] = match;
    if (!whole!.includes('://') && port === undefined) continue;
    out.push({ host: host!, port: port === undefined ? (/^https?:\/\//i.test(whole!) ? (whole!.startsWith('https') ? 443 : 80) : null) : Number(port) });
  }
  return out;
};

/** Whether the word names this machine's `port` in any loopback spelling. */
export const namesLoopbackPort = (word: string, port: number): boolean =>
  hostPorts(word).some((hp) => hp.port === port && isLoopbackHost(hp.host));
