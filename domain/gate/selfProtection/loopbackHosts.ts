/**
 * Every spelling of "this machine" an HTTP client accepts: 127.0.0.0/8 written as the C resolver reads it
 * (`127.1`, `0x7f000001`, `2130706433`, `0177.0.0.1`), `localhost` with or without a trailing dot, `0.0.0.0`
 * (Linux connects it to loopback) and the IPv6 loopback and mapped forms, and public names whose DNS answer is
 * loopback. Used to see that a URL names tollgate's own HTTP port.
 */
import { withArithmeticFolded } from './constantArithmetic.ts';

/**
 * Public DNS names (and every name below them) that resolve to 127.0.0.1: development conveniences an HTTP
 * client reaches loopback through without any local configuration.
 */
export const publicLoopbackNames: readonly string[] = [
  'localtest.me', 'lvh.me', 'vcap.me', 'lacolhost.com', 'localhost.direct', 'fuf.me', 'local.gd', 'yoogle.com', 'localho.st', 'traefik.me',
];
/** Wildcard DNS services that answer with the address written in the name (`127.0.0.1.nip.io`, `x-127-0-0-1.sslip.io`, `7f000001.nip.io`). */
export const addressInNameServices: readonly string[] = ['nip.io', 'sslip.io', 'xip.io', 'traefik.me', 'localtls.com'];

const under = (host: string, name: string): boolean => host === name || host.endsWith(`.${name}`);

/** The address a wildcard DNS name embeds is loopback: dotted or dashed quads, 8 hex digits, or sslip's dashed IPv6. */
const embedsLoopback = (host: string): boolean => {
  const service = addressInNameServices.find((s) => host.endsWith(`.${s}`));
  if (service === undefined) return false;
  const prefix = host.slice(0, -service.length - 1);
  const lastLabel = prefix.split('.').pop() ?? '';
  const dotted = /(?:^|[.-])(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(prefix)?.[1];
  const dashed = /(?:^|-)(\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3})$/.exec(lastLabel)?.[1]?.replace(/-/g, '.');
  const hex = /(?:^|-)([0-9a-f]{8})$/.exec(lastLabel)?.[1];
  const v6 = lastLabel.includes('--') ? lastLabel.replace(/-/g, ':') : undefined;
  return [dotted, dashed, hex === undefined ? undefined : `0x${hex}`].some((a) => a !== undefined && isLoopbackHost(a)) || (v6 !== undefined && isLoopbackV6(v6));
};

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
  if (host === 'localhost' || host.endsWith('.localhost') || host === 'ip6-localhost' || host === 'ip6-loopback') return true;
  // /etc/hosts' own names for loopback on many systems: localhost.localdomain, localhost4, localhost6.localdomain6.
  if (/^localhost[46]?(?:\.localdomain[46]?)?$/.test(host)) return true;
  if (publicLoopbackNames.some((name) => under(host, name)) || embedsLoopback(host)) return true;
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

/** The host:port pairs a word names: URLs (`http://h:p/…`, `http+unix://…` aside), `h:p`, `[v6]:p`. A port may have leading zeros (curl reads `:08787` as 8787). */
export const hostPorts = (word: string): { host: string; port: number | null; url: boolean }[] => {
  const out: { host: string; port: number | null; url: boolean }[] = [];
  const pattern = /(?:[a-z][a-z0-9+.-]*:\/\/(?:[^@/\s]*@)?)?(\[[0-9a-fA-F:.%]+\]|[A-Za-z0-9._~-]+)(?::(\d+)(?![A-Za-z]))?/g;
  for (const match of word.matchAll(pattern)) {
    const [whole, host, port] = match;
    const url = whole!.includes('://');
    if (!url && port === undefined) continue;
    out.push({ host: host!, url, port: port === undefined ? (/^https?:\/\//i.test(whole!) ? (whole!.startsWith('https') ? 443 : 80) : null) : Number(port) });
  }
  return out;
};

/**
 * A host an HTTP client may reach this machine through: a loopback spelling, or, in a URL, a name without a dot
 * (the machine's own hostname and names from /etc/hosts are such names).
 */
const possiblyLoopback = (host: string, url: boolean): boolean =>
  isLoopbackHost(host) || (url && /^[a-z][a-z0-9-]*\.?$/i.test(host) && !/^(?:example|test|invalid)$/i.test(host));

/** Whether the word names this machine's `port` in any loopback spelling (constant `$((…))` arithmetic folded). */
export const namesLoopbackPort = (word: string, port: number): boolean =>
  hostPorts(withArithmeticFolded(word)).some((hp) => hp.port === port && possiblyLoopback(hp.host, hp.url));

/**
 * A URL on a loopback host whose port is filled in at run time (`localhost:$PORT`, `127.0.0.1:$((a+b))`,
 * `127.0.0.1:{port}` in code), or a URL on tollgate's port whose host is (`http://$H:8787`): either may be tollgate.
 */
export const loopbackPortUnknown = (word: string, port: number): boolean => {
  const folded = withArithmeticFolded(word);
  for (const match of folded.matchAll(/(?:^|[^A-Za-z0-9._~-])(\[[0-9a-fA-F:.%]+\]|[A-Za-z0-9._~-]+):(?=[$`{%]|["']?\s*\+|$)/g)) {
    if (isLoopbackHost(match[1]!)) return true;
  }
  // The host part must hold an expansion (`$`, a backquote or `{`); most words have none, and skip compiling.
  // A command substitution in the host (`$(hostname -I | cut -d' ' -f1)`, `` `uname -n` ``) may hold spaces: one unknown part.
  const hosts = folded.replace(/\$\([^()]*\)|`[^`]*`/g, '$_');
  return /[$`{]/.test(hosts) && new RegExp(`(?:^|//|@)[^/\\s:@]*[$\`{][^/\\s@]*:0*${port}(?![0-9])`).test(hosts);
};

/**
 * The URLs a curl URL globs to (`878[7-7]`, `{8787,1}`, `[001-100]`, `[a-z:2]`): only the host and port part is
 * expanded, the path is kept as written. Null when that part expands to more than `limit` (a scan: any port).
 */
export const curlUrlVariants = (word: string, limit = 512): string[] | null => {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(word);
  const start = scheme === null ? 0 : scheme[0].length;
  let end = word.length;
  for (let i = start, depth = 0; i < word.length; i++) {
    const ch = word[i]!;
    if (ch === '\\') i++;
    else if (ch === '[' || ch === '{') depth++;
    else if ((ch === ']' || ch === '}') && depth > 0) depth--;
    else if (depth === 0 && '/?#'.includes(ch)) { end = i; break; }
  }
  const authority = word.slice(start, end);
  if (!/[[{]/.test(authority)) return [word];
  let variants = [''];
  for (let i = 0; i < authority.length; i++) {
    const ch = authority[i]!;
    let values: string[] | null = null;
    const close = ch === '{' ? authority.indexOf('}', i) : ch === '[' ? authority.indexOf(']', i) : -1;
    if (close > i) values = ch === '{' ? authority.slice(i + 1, close).split(',') : globRange(authority.slice(i + 1, close));
    if (values === null) values = [ch === '\\' ? authority[++i] ?? '' : ch];
    else i = close;
    if (variants.length * values.length > limit) return null;
    variants = variants.flatMap((v) => values!.map((x) => v + x));
  }
  return variants.map((a) => word.slice(0, start) + a + word.slice(end));
};

/** A curl `[a-b]` or `[a-b:step]` range's values; null when the brackets hold something else (an IPv6 address). */
const globRange = (inside: string): string[] | null => {
  const numeric = /^(\d+)-(\d+)(?::(\d+))?$/.exec(inside);
  const alpha = /^([a-zA-Z])-([a-zA-Z])(?::(\d+))?$/.exec(inside);
  const m = numeric ?? alpha;
  if (m === null) return null;
  const step = Math.max(1, Number(m[3] ?? 1));
  const [from, to] = numeric !== null ? [Number(m[1]), Number(m[2])] : [m[1]!.charCodeAt(0), m[2]!.charCodeAt(0)];
  if (to < from || (to - from) / step > 100000) return to < from ? null : new Array<string>(100001).fill('');
  const width = numeric !== null && m[1]!.startsWith('0') ? m[1]!.length : 0;
  const out: string[] = [];
  for (let v = from; v <= to; v += step) out.push(numeric !== null ? String(v).padStart(width, '0') : String.fromCharCode(v));
  return out;
};

/** Whether a curl URL (globs expanded) names this machine's `port`, or a loopback host with an unknown port. */
export const curlReachesLoopbackPort = (word: string, port: number): boolean => {
  const variants = curlUrlVariants(word);
  if (variants === null) return true;
  return variants.some((v) => namesLoopbackPort(v, port) || loopbackPortUnknown(v, port));
};

/** HTTPie, xh and curlie (curl with HTTPie's words), which read a URL that starts with `:` as one on localhost (`:8787/x`, `:/x` for port 80). */
export const localShorthandClients: ReadonlySet<string> = new Set(['http', 'https', 'xh', 'xhs', 'httpie', 'curlie']);

/** The URL such a client's `:PORT/path` stands for (`http://localhost:PORT/path`), else the word unchanged. */
export const expandLocalShorthand = (word: string): string => {
  const m = /^:([0-9]*|\$[^/]*|`[^/]*)(\/.*)?$/.exec(word);
  return m === null ? word : `http://localhost:${m[1] === '' ? '80' : m[1]}${m[2] ?? '/'}`;
};
