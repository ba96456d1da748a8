/**
 * Targets code names as separate arguments rather than one URL string (red team 3, F11, F12):
 * `socket.create_connection(('127.0.0.2', 8787))`, `HTTPConnection('127.0.0.1', 8700+87)`, `net.connect(8787,
 * 'localhost')`, `{host: '127.1', port: 8787}`, and signals to every process (`os.kill(-1, 9)`,
 * `process.kill(-1)`, `os.killpg(0, …)`). A port is read when it is a constant, constant arithmetic, or a name the
 * code assigns such a value; a port the code computes otherwise, next to a loopback host, may be tollgate's.
 */
import { constantValue } from './constantArithmetic.ts';
import { isLoopbackHost, loopbackPortUnknown } from './loopbackHosts.ts';

/** `name = <constant arithmetic>` assignments (Python, JavaScript `const/let/var`, Ruby, Perl `my $x`). */
const assignedConstants = (code: string): Map<string, number | null> => {
  const values = new Map<string, number | null>();
  for (const m of code.matchAll(/(?:^|[\s;,(])(?:(?:const|let|var|my)\s+)?\$?([A-Za-z_]\w*)\s*=(?!=)\s*([^\n;]+)/g)) {
    const value = constantValue(m[2]!.replace(/\s*#.*$/, ''));
    // A name assigned twice, once to something else, is unknown.
    values.set(m[1]!, values.has(m[1]!) && values.get(m[1]!) !== value ? null : value);
  }
  return values;
};

/** The value of a port expression in code: a constant, constant arithmetic, or a name assigned one; null if unknown. */
const portValue = (expression: string, constants: Map<string, number | null>): number | null => {
  const text = expression.trim().replace(/^(?:int|Number|parseInt)\((.*)\)$/, '$1');
  const direct = constantValue(text);
  if (direct !== null) return direct;
  const name = /^\$?([A-Za-z_]\w*)$/.exec(text)?.[1];
  return name === undefined ? null : constants.get(name) ?? null;
};

/** The argument text after position `at` up to the next `,` or closing bracket at its own depth. */
const nextArgument = (code: string, at: number): string => {
  let depth = 0;
  for (let i = at; i < code.length; i++) {
    const ch = code[i]!;
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) { if (depth === 0) return code.slice(at, i); depth--; }
    else if ((ch === ',' || ch === '\n') && depth === 0) return code.slice(at, i);
  }
  return code.slice(at);
};

/** The arguments of a call from position `at` on (at most a few), each as nextArgument reads it. */
const laterArguments = (code: string, at: number, most = 6): string[] => {
  const out: string[] = [];
  for (let i = at; out.length < most; ) {
    const argument = nextArgument(code, i);
    out.push(argument);
    i += argument.length;
    if (code[i] !== ',') break;
    i++;
  }
  return out;
};

const connecting = /\b(?:socket|https?|connect\w*|create_connection|HTTPS?Connection|urlopen|request|requests|httpx|aiohttp|fetch|net\.|http\.get|TCPSocket|IO::Socket|Net::HTTP|fsockopen|stream_socket_client|open_connection|open_unix_connection|UnixConnector|HTTPTransport|uds|websocket\w*)\b/i;

/** Calls and classes that open a listening socket or a server (Python, Node, Perl, Ruby, PHP, Go, Deno). */
const listening = /\b(?:bind|listen|createServer|serve_forever|serve|HTTPServer|ThreadingHTTPServer|TCPServer|ThreadingTCPServer|UnixStreamServer|start_server|create_server|make_server|run_simple|run_app|LocalPort|Listen|ListenAndServe|TCPServer\.new|WEBrick|stream_socket_server|socket_bind|Deno\.listen|Bun\.serve|run|uvicorn\.run|web\.TCPSite|http\.server|socketserver)\b/;

/**
 * Code that opens a server on tollgate's port (`s.bind(('127.0.0.1', 8787))`, `createServer(…).listen(8787)`,
 * `LocalPort=>8787`, `HTTPServer(('', 0x2253), …)`): a stand-in daemon for the hooks that come once it is gone.
 * The port as a number, constant arithmetic, or a name assigned one; a port read from elsewhere is not seen.
 */
/**
 * Calls that make a number of constants (red team 15): `int('2253', 16)`, `parseInt('2253', 16)`, `int.from_bytes(b'\x22\x53',
 * 'big')`, `sum([8000, 787])`, `ord('\u2253')`, `'%d%d' % (87, 87)`, and an environment lookup's default
 * (`os.environ.get('P', 8787)`, `process.env.P || 8787`): each as the decimal it makes, so a port spelled so is seen.
 */
export const foldNumbers = (code: string): string => {
  if (!/\b(?:int|parseInt|sum|ord|from_bytes|environ|getenv|env)\b|%d/.test(code)) return code;
  return code
    .replace(/\b(?:int|parseInt|Number\.parseInt)\(\s*['"]([0-9a-zA-Z]+)['"]\s*,\s*(\d{1,2})\s*\)/g, (whole, digits: string, base: string) => {
      const value = parseInt(digits, Number(base));
      return Number.isSafeInteger(value) ? String(value) : whole;
    })
    .replace(/\bint\.from_bytes\(\s*b['"]((?:\\x[0-9a-fA-F]{2})+)['"]\s*,\s*(?:byteorder\s*=\s*)?['"](big|little)['"]\s*\)/g, (_whole, hex: string, order: string) => {
      const bytes = [...hex.matchAll(/\\x([0-9a-fA-F]{2})/g)].map((m) => parseInt(m[1]!, 16));
      return String((order === 'big' ? bytes : bytes.reverse()).reduce((n, b) => n * 256 + b, 0));
    })
    .replace(/\bsum\(\s*[[(]\s*((?:[-+]?\s*(?:0[xX][0-9a-fA-F]+|\d+)\s*,\s*)*[-+]?\s*(?:0[xX][0-9a-fA-F]+|\d+))\s*,?\s*[\])]\s*\)/g, (whole, list: string) => {
      const values = list.split(',').map((v) => constantValue(v.trim()));
      return values.every((v) => v !== null) ? String(values.reduce((a, b) => a! + b!, 0)) : whole;
    })
    .replace(/\bord\(\s*['"](?:\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|([^'"\\]))['"]\s*\)/g, (_whole, u?: string, x?: string, c?: string) => String(u !== undefined ? parseInt(u, 16) : x !== undefined ? parseInt(x, 16) : c!.codePointAt(0)!))
    .replace(/(['"])((?:%d)+)\1\s*%\s*\(\s*((?:\d+\s*,\s*)*\d+)\s*,?\s*\)/g, (whole, q: string, marks: string, list: string) => {
      const values = list.split(',').map((v) => v.trim());
      return values.length === marks.length / 2 ? `${q}${values.join('')}${q}` : whole;
    })
    .replace(/(?:\b__import__\(\s*['"]os['"]\s*\)\.|\bos\.)?\b(?:environ\.get|getenv)\(\s*['"][^'"]*['"]\s*,\s*['"]?(\d{1,5})['"]?\s*\)/g, '$1')
    .replace(/\bprocess\.env(?:\.\w+|\[\s*['"][^'"]*['"]\s*\])\s*(?:\|\||\?\?)\s*['"]?(\d{1,5})['"]?/g, '$1');
};

export const codeListensOnPort = (raw: string, port: number): boolean => {
  if (!listening.test(raw)) return false;
  const code = foldNumbers(raw);
  for (const m of code.matchAll(/(?<![\w.'"])((?:0[xXoObB])?[0-9a-fA-F_]+(?:\s*[-+*]\s*(?:0[xXoObB])?[0-9a-fA-F_]+)*)(?![\w.'"])/g)) {
    if (/^\d|^0[xXoObB]/.test(m[1]!) && constantValue(m[1]!) === port) return true;
  }
  // `int('8787')`, `Number("87" + "87")` once the literals are glued (foldLiterals): a port from text.
  for (const m of code.matchAll(/\b(?:int|Number|parseInt|Integer)\s*\(\s*['"]\s*(\d{1,5})\s*['"]/g)) if (Number(m[1]) === port) return true;
  if (/\b(?:int|Number|parseInt)\s*\(\s*(['"])\d*\1\s*\+/.test(code)) {
    const glued = code.replace(/(['"])(\d*)\1\s*\+\s*(['"])(\d*)\3/g, "'$2$4'");
    if (glued !== code) return codeListensOnPort(glued, port);
  }
  const constants = assignedConstants(code);
  for (const m of code.matchAll(/\b(?:bind|listen|LocalPort|serve|run|port)\b[^\n]{0,60}?\b([A-Za-z_]\w*)\b/g)) if (constants.get(m[1]!) === port) return true;
  return false;
};

/** Whether code opens a connection of some kind (a socket, an HTTP client, a stream client). */
export const connectsSomewhere = (code: string): boolean => connecting.test(code.replace(/(['"])(?:\\.|(?!\1)[^\\\n])*\1/g, '""'));

/** Whether code connects to a loopback host on tollgate's port (or on a port it computes), host and port apart. */
/** Node's `http.request({port: 8787, …})`, `http.get({port})`: an options object with no host asks localhost. */
const requestOptions = /\b(?:request|get)\s*\(\s*\{([^{}]*)\}/g;
const reachesHostless = (code: string, port: number): boolean => {
  if (!code.includes('port') || !/\b(?:request|get)\s*\(\s*\{/.test(code)) return false;
  for (const m of code.matchAll(requestOptions)) {
    const body = m[1]!;
    if (/\b(?:host|hostname|socketPath)['"]?\s*:/.test(body)) continue;
    const value = /\bport['"]?\s*:\s*([^,}\n]+)/.exec(body);
    if (value !== null && portValue(value[1]!, assignedConstants(code)) === port) return true;
  }
  return false;
};

/**
 * `create_connection((socket.inet_ntoa(h), 8787))`, `connect((host, 8787))`: an address pair whose host the code
 * computes and whose port is tollgate's; the host may well be loopback (red team 12). A literal host is judged as written.
 */
const computedHostOnPort = (code: string, port: number): boolean => {
  if (!connecting.test(code)) return false;
  const constants = assignedConstants(code);
  for (const m of code.matchAll(/\(\s*\(\s*((?:[A-Za-z_][\w.]*)(?:\((?:[^()\n]|\([^()\n]*\))*\))?)\s*,\s*([^,()\n]+?)\s*\)/g)) {
    const before = code.slice(Math.max(0, m.index! - 40), m.index!);
    if (/\b(?:bind|listen|serve\w*|sendto)\s*$/.test(before)) continue;
    if (portValue(m[2]!, constants) === port) return true;
  }
  return false;
};

export const codeReachesLoopbackPort = (raw: string, port: number): boolean => {
  const code = foldNumbers(raw);
  if (reachesHostless(code, port)) return true;
  if (computedHostOnPort(code, port)) return true;
  const hosts = [...code.matchAll(/(['"])([^'"\n]{1,80})\1/g)].filter((m) => isLoopbackHost(m[2]!));
  if (hosts.length === 0 || !connecting.test(code)) return false;
  const constants = assignedConstants(code);
  for (const m of hosts) {
    const end = m.index! + m[0].length;
    const after = /^\s*,\s*/.exec(code.slice(end));
    // `bind(('127.0.0.1', port))` serves; it does not reach tollgate.
    const binds = /\b(?:bind|listen|serve\w*)\s*\(\s*[([]?\s*$/.test(code.slice(Math.max(0, m.index! - 40), m.index!));
    // `Net::HTTP.get('127.0.0.1', '/v1/approvals', 8787)`: the port after a path, later in the same call.
    if (after !== null && !binds && laterArguments(code, end + after[0].length).some((a) => portValue(a, constants) === port)) return true;
    if (after !== null && !binds) {
      let argument = nextArgument(code, end + after[0].length);
      // `connect(host='localhost', port=5432)`, `{host: 'localhost', port: 3000}`: a keyword's value, when the keyword is a port.
      const keyword = /^\s*['"]?(\w+)['"]?\s*(?:=(?!=)|:|=>)\s*([\s\S]*)$/.exec(argument);
      if (keyword !== null && !/port/i.test(keyword[1]!)) continue;
      if (keyword !== null) argument = keyword[2]!;
      const value = portValue(argument, constants);
      if (value === port || (value === null && /\S/.test(argument) && !/^\s*(?:['"]|None|null|undefined|timeout\b)/.test(argument))) return true;
    }
  }
  // `net.connect(8787, '127.0.0.1')`, `{host: 'localhost', port: 8787}`, `PeerPort => 8700+87`: the port elsewhere in the call.
  for (const m of code.matchAll(/(?:\bport\w*['"]?\s*(?:[:=]|=>)\s*|\(\s*)([^,()\n]+(?:\([^()\n]*\))?[^,()\n]*)(?=\s*[,)}])/gi)) {
    if (portValue(m[1]!, constants) === port) return true;
  }
  return false;
};

/** A URL literal in code on a loopback host whose port is filled in (`f'http://127.0.0.1:{p}'`, `'http://localhost:' + p`). */
export const literalPortUnknown = (literals: readonly string[], code: string, port: number): boolean => {
  if (!literals.some((l) => l.includes('://'))) return false;
  const constants = assignedConstants(code);
  return literals.some((l) => {
    const filled = l.replace(/\{([A-Za-z_]\w*)\}/g, (whole, name: string) => { const v = constants.get(name); return v == null ? whole : String(v); });
    return /:\/\//.test(filled) && loopbackPortUnknown(filled, port);
  });
};

/** A signal to every process of the user (`kill(-1, …)`), to the caller's process group (`killpg(0)`), or to a pid computed as tollgate's. */
export const signalsEveryone = (code: string, pid: number | null): boolean => {
  if (/\b(?:kill|killpg)\s*\(\s*(?:-\s*1|0|os\.getpgrp\(\)|os\.getpgid\(\s*0\s*\))\s*[,)]/.test(code) || /\bkill\s*\(?\s*['":]?\w+['"]?\s*,\s*-\s*1\b/.test(code)) return true;
  if (pid === null) return false;
  for (const m of code.matchAll(/\bkill(?:pg)?\s*\(\s*([^,()]+)/g)) if (constantValue(m[1]!) === pid) return true;
  return false;
};

/**
 * Calls that link, move, remove or re-mode a whole folder, in Python, Node, Perl and Ruby (red team 5, M): a
 * literal naming a folder above something protected, handed to one, reaches all of it (a link made to the clone
 * or a Hermes home is a way in for the next line's write).
 */
export const changesWholeTrees = /\b(?:rmtree|removedirs|renames?|renameSync|chmod(?:Sync)?|chown(?:Sync)?|lchown|symlink(?:Sync)?|copytree|cpSync|rmSync|rm_rf|rm_r|ln_sf?|make_symlink|symlink_to|os\.replace|shutil\.move|FileUtils\.(?:mv|cp_r|ln_s))\b/;

/**
 * Folders code unpacks an archive into: `shutil.unpack_archive(a, DIR)` (or `extract_dir=`), `tarfile…extractall(DIR)`
 * (or `path=`), `ZipFile(a).extractall()`; with no folder given, the working folder ('.'). A folder held in a
 * variable is not known here, and not returned.
 */
export const codeExtractionFolders = (code: string): string[] => {
  if (!/\b(?:unpack_archive|extractall)\b/.test(code)) return [];
  const out: string[] = [];
  for (const m of code.matchAll(/\b(unpack_archive|extractall)\s*\(((?:[^()]|\([^()]*\))*)\)/g)) {
    const inner = m[2]!;
    const keyword = new RegExp(`\\b${m[1] === 'unpack_archive' ? 'extract_dir' : 'path'}\\s*=\\s*(['"])([^'"]*)\\1`).exec(inner);
    if (keyword !== null) { out.push(keyword[2]! === '' ? '.' : keyword[2]!); continue; }
    const parts = inner.split(',').map((p) => p.trim()).filter((p) => p !== '' && !/^\w+\s*=/.test(p));
    const position = m[1] === 'unpack_archive' ? 1 : 0;
    const given = parts[position];
    if (given === undefined) { out.push('.'); continue; }
    const literal = /^(['"])(.*)\1$/.exec(given);
    if (literal !== null) out.push(literal[2]! === '' ? '.' : literal[2]!);
  }
  return out;
};
