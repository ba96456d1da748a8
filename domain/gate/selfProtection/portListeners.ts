/**
 * Programs that would listen on tollgate's HTTP port: a stand-in daemon there answers the hooks and HTTP clients
 * that come to it once the real one is gone (`nc -l 8787`, `socat TCP-LISTEN:8787 -`, `php -S 0:8787`). Only a
 * listener is matched: a client (`nc 127.0.0.1 8787`) is the socket-client rows' concern.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { optionValuesAnywhere } from '../../shell/commandOptions.ts';
import { constantValue, withArithmeticFolded } from './constantArithmetic.ts';

interface ListenerRow {
  readonly programs: ReadonlySet<string>;
  /** Whether this command listens (a flag, a subcommand); the port is then looked for in its words. */
  readonly listens: (args: readonly string[]) => boolean;
  readonly why: string;
}

const hasFlag = (args: readonly string[], letter: string, long?: string): boolean =>
  args.some((a) => (/^-[a-zA-Z]+\d*$/.test(a) && a.replace(/\d+$/, '').includes(letter)) || (long !== undefined && (a === `--${long}` || a.startsWith(`--${long}=`))));

/** A port number as programs read it: decimal, or 0x/0o written (`0x2253`), or constant `$((…))` arithmetic. */
const portNumber = (text: string): number | null => {
  const folded = withArithmeticFolded(text);
  if (/^\d{1,5}$/.test(folded)) return Number(folded);
  return /^0[xXoO][0-9a-fA-F]+$/.test(folded) ? constantValue(folded, 'code') : null;
};

/** `[bind:]PORT:host:hostport` (ssh -L, docker -p `[ip:]HOST:CONTAINER`): the port opened here, which comes first unless a bind address does. */
const forwardSpecListens = (spec: string, port: number, fields: number): boolean => {
  const parts = withArithmeticFolded(spec).replace(/\/(?:tcp|udp|sctp)$/, '').split(':');
  const local = parts.length > fields ? parts[parts.length - fields] : parts[0];
  return local !== undefined && portNumber(local) === port;
};

export const listenerRows: readonly ListenerRow[] = [
  { programs: new Set(['nc', 'ncat', 'netcat', 'nc.openbsd', 'nc.traditional']), listens: (a) => hasFlag(a, 'l', 'listen'), why: 'netcat with -l listens' },
  // socat's listening addresses, abbreviations included (TCP-L, TCP4-LISTEN, SSL-L, UDP-RECVFROM).
  { programs: new Set(['socat']), listens: (a) => a.some((w) => /^(?:tcp[46]?|ssl|openssl|udp[46]?|sctp[46]?|dccp[46]?|udplite[46]?)-(?:l|listen|recvfrom|recv):/i.test(w)), why: 'socat TCP-LISTEN:PORT' },
  { programs: new Set(['php']), listens: (a) => a.includes('-S'), why: 'php -S HOST:PORT serves' },
  { programs: new Set(['http-server', 'serve', 'live-server', 'httpd', 'caddy', 'miniserve', 'simplehttpserver', 'webfsd', 'darkhttpd', 'twistd', 'json-server', 'daphne', 'hypercorn', 'tinyproxy', 'mitmproxy', 'mitmdump']), listens: () => true, why: 'a server' },
  { programs: new Set(['ruby']), listens: (a) => a.some((w) => /httpd|WEBrick/.test(w)), why: 'ruby -run -e httpd' },
  { programs: new Set(['python', 'pypy']), listens: (a) => a.some((w) => /^(?:http\.server|SimpleHTTPServer|CGIHTTPServer|uvicorn|flask|aiohttp\.web|twisted|smtpd|aiosmtpd|pyftpdlib|websockets|pydoc|xmlrpc\.server|wsgiref\.simple_server)$/.test(w)), why: 'python -m http.server PORT' },
  { programs: new Set(['uvicorn', 'gunicorn', 'flask', 'hypercorn', 'waitress-serve']), listens: () => true, why: 'a Python web server' },
  { programs: new Set(['openssl']), listens: (a) => a[0] === 's_server', why: 'openssl s_server -accept PORT' },
  { programs: new Set(['websocat']), listens: (a) => hasFlag(a, 's', 'server-mode') || a.some((w) => /^(?:ws|tcp|unix)-l(?:isten)?:/i.test(w)), why: 'websocat as a server' },
  { programs: new Set(['iperf', 'iperf3']), listens: (a) => hasFlag(a, 's', 'server'), why: 'iperf as a server' },
  { programs: new Set(['systemd-socket-activate']), listens: () => true, why: 'systemd-socket-activate -l PORT hands a listening socket to the program' },
  { programs: new Set(['sshd', 'dropbear', 'pydoc', 'pydoc3', 'next', 'hugo', 'jekyll', 'mkdocs', 'vite', 'webpack-dev-server', 'ng', 'astro', 'nuxt', 'remix', 'gatsby', 'parcel', 'rails', 'php-fpm', 'code-server', 'jupyter', 'jupyter-lab', 'jupyter-notebook', 'tensorboard', 'streamlit', 'gradio', 'mlflow', 'ttyd', 'gotty', 'wetty']), listens: () => true, why: 'a server given its port' },
  { programs: new Set(['chisel', 'frps', 'gost', 'redir', 'rinetd', 'tcpproxy', 'sslh', 'haproxy', 'nginx']), listens: () => true, why: 'a relay or proxy that listens' },
];

/** Words that give the port: a bare number, `-p N`, `--port=N`, `:N`, `HOST:N`, `TCP-LISTEN:N,fork`. */
const namesPort = (args: readonly string[], port: number): string | undefined =>
  args.find((w) => [...withArithmeticFolded(w).matchAll(/(?:^|[:=,])(\d{1,5}|0[xX][0-9a-fA-F]+)(?=$|[,/])|^-[a-zA-Z]*p(\d{1,5})$/g)].some((m) => portNumber(m[1] ?? m[2]!) === port));

/**
 * Programs that open a local port for a forward: `ssh -L [bind:]PORT:host:port`, `ssh -D PORT`, `docker run -p
 * [ip:]PORT:inner`, `kubectl port-forward pod PORT[:inner]`. The listener is on this machine either way.
 */
const forwardListens = ({ program, args }: SimpleCommand, port: number): string | null => {
  if (program === 'ssh' || program === 'autossh') {
    // `-L spec`, `-NfL spec` (a bundle ending in L), `-o LocalForward=…`, `-oDynamicForward 8787`.
    const bundled = (letter: string) => args.flatMap((a, i) => (new RegExp(`^-[a-zA-Z]*${letter}$`).test(a) && args[i + 1] !== undefined ? [args[i + 1]!] : new RegExp(`^-[a-zA-Z]*${letter}(.+)$`).exec(a)?.slice(1, 2) ?? []));
    const options = args.flatMap((a, i) => (a === '-o' && args[i + 1] !== undefined ? [args[i + 1]!] : a.startsWith('-o') && a.length > 2 ? [a.slice(2)] : []));
    const forward = (name: string) => options.flatMap((o) => new RegExp(`^${name}\\s*[=\\s]\\s*(.+)$`, 'i').exec(o)?.[1]?.trim().split(/\s+/)[0] ?? []);
    if ([...bundled('L'), ...forward('LocalForward')].some((spec) => forwardSpecListens(spec, port, 3))) return 'ssh -L forwards from it';
    if ([...bundled('D'), ...forward('DynamicForward')].some((spec) => forwardSpecListens(spec, port, 1))) return 'ssh -D serves a proxy on it';
    return null;
  }
  if (/^(?:docker|podman|nerdctl)$/.test(program) && args.some((a) => a === 'run' || a === 'create')) {
    if (optionValuesAnywhere(args, 'p', ['publish']).some((spec) => spec.includes(':') && forwardSpecListens(spec, port, 2))) return `${program} publishes it`;
    // `--network=host`: the container's servers listen on this machine's ports; one named here may be tollgate's.
    const hostNetwork = optionValuesAnywhere(args, null, ['network', 'net']).includes('host') || args.includes('--network=host') || args.includes('--net=host');
    return hostNetwork && namesPort(args, port) !== undefined ? `${program} shares this machine's network with a server on it` : null;
  }
  if ((program === 'kubectl' || program === 'oc') && args.includes('port-forward')) {
    return args.slice(args.indexOf('port-forward') + 1).some((w) => !w.startsWith('-') && /^[\d$:x]/.test(w) && forwardSpecListens(w, port, 2)) ? `${program} port-forward listens on it` : null;
  }
  return null;
};

/** nginx's `-g DIRECTIVES` values (`-g x` and `-gx`). */
export const nginxDirectives = (args: readonly string[]): string[] =>
  args.flatMap((a, i) => (a === '-g' && args[i + 1] !== undefined ? [args[i + 1]!] : /^-g./.test(a) ? [a.slice(2)] : []));

/** The ports of `listen [ADDR:]PORT` directives in nginx config text. */
const directivePorts = (text: string): string[] => [...text.matchAll(/(?:^|[\s{;])listen\s+(?:\S*:)?(\w+)/g)].map((m) => m[1]!);

/** An environment assignment naming the port a server listens on (`PORT=8787`, `HTTP_PORT=8787`). */
const portAssignment = /(?:^|\s)(?:[A-Z_]*_)?PORT=(\S+)/;

/** Clients whose `--port` is where they connect to: not a listener (their reach to tollgate is the socket-client rows'). */
const clientPrograms: ReadonlySet<string> = new Set(['curl', 'wget', 'ssh', 'scp', 'sftp', 'psql', 'mysql', 'mariadb', 'redis-cli', 'mongo', 'mongosh', 'telnet', 'http', 'https', 'xh', 'grpcurl', 'nmap', 'rsync', 'git', 'ftp', 'lftp', 'ab', 'wrk', 'hey']);
/** Long options servers of every kind take their listening port or address by. */
const listeningOptions = ['port', 'listen', 'bind', 'http-port', 'server-port', 'address', 'addr', 'host-port', 'web.listen-address', 'listen-address', 'server.port', 'www-port'];

const openSslPorts = (args: readonly string[]): string[] =>
  args.flatMap((a, i) => ((a === '-accept' || a === '-port') && args[i + 1] !== undefined ? [args[i + 1]!] : []));

const packageRunners: ReadonlySet<string> = new Set(['npx', 'pnpx', 'bunx']);
const rawListeners: ReadonlySet<string> = new Set(['nc', 'ncat', 'netcat', 'nc.openbsd', 'nc.traditional', 'socat', 'websocat', 'openssl']);

/** Servers that listen on a port of their own unless told otherwise (RStudio Server's is 8787), and the option that moves it. */
const defaultPorts: ReadonlyMap<string, { readonly port: number; readonly option: string }> = new Map([['rserver', { port: 8787, option: 'www-port' }]]);

/** Raw listeners, and the word that gives the port: one the line does not determine (`nc -l $p`, `TCP-LISTEN:$(cat f)`) may be tollgate's. */
const rawListenerPortUnknown = (family: string, args: readonly string[]): boolean => {
  const unknown = (w: string) => /[$`]/.test(withArithmeticFolded(w));
  if (family === 'socat' || family === 'websocat') return args.some((w) => /^[a-z0-9]+-l(?:isten)?:([^,]*)/i.test(w) && unknown(/^[a-z0-9]+-l(?:isten)?:([^,]*)/i.exec(w)![1]!));
  if (family === 'openssl') return openSslPorts(args).some(unknown);
  return args.some((w) => !w.startsWith('-') && unknown(w)) || args.some((w) => /^-[a-zA-Z]*p(.+)$/.test(w) && unknown(w));
};

/** gawk's special files: `/inet/tcp/LPORT/RHOST/RPORT` with a local port listens there (`/inet/tcp/8787/0/0`). */
const gawkInetPort = (args: readonly string[], port: number): boolean =>
  args.some((w) => [...w.matchAll(/\/inet[46]?\/(?:tcp|udp)\/([^/\s"']+)\//g)].some((m) => portNumber(m[1]!) === port));

/** The listener on tollgate's port this command would start, or null. */
export const listensOnGuardPort = (command: SimpleCommand, port: number | null): string | null => {
  if (port === null) return null;
  if (/^[gmn]?awk$/.test(command.program) && gawkInetPort(command.args, port)) return `${command.program} listening on tollgate's port ${port} (its /inet special file)`;
  const fallback = defaultPorts.get(command.program);
  if (fallback !== undefined && fallback.port === port && !command.args.some((a) => a.startsWith(`--${fallback.option}`))) return `${command.program} listening on its default port ${port}, tollgate's`;
  // `npx http-server -p 8787`: a package runner starts the program named by its first operand.
  const launched = packageRunners.has(command.program) ? command.args.findIndex((a) => !a.startsWith('-')) : -1;
  const program = launched >= 0 ? command.args[launched]! : command.program;
  const args = launched >= 0 ? command.args.slice(launched + 1) : command.args;
  // `nginx -g 'http { server { listen 8787; } }'`: directives given on the line are config like a file's.
  if (/^(?:nginx|openresty|angie)$/.test(program) && nginxDirectives(args).some((text) => directivePorts(text).some((p) => portNumber(p) === port)))
    return `${program} listening on tollgate's port ${port} (a listen directive given with -g)`;
  const forward = forwardListens({ ...command, program, args }, port);
  if (forward !== null) return `${program} on tollgate's port ${port} (${forward})`;
  // `PORT=8787 npm start`, `podman run -e PORT=8787 app`: the program serves on the port its environment names.
  const named = [...command.via, ...args].find((w) => { const value = portAssignment.exec(w)?.[1]; return value !== undefined && portNumber(value) === port; });
  if (named !== undefined) return `${program} told to serve on tollgate's port ${port} (${named})`;
  // `python3.11`, `pypy3`: one row reads every version of an interpreter.
  const family = program.replace(/^(python|pypy)[0-9.]*$/, '$1');
  const row = listenerRows.find((r) => r.programs.has(family));
  if (row !== undefined && row.listens(args)) {
    // openssl takes its options with one dash (`-accept 8787`, `-port 8787`).
    const named = program === 'openssl' ? openSslPorts(args).some((v) => forwardSpecListens(v, port, 1)) : namesPort(args, port) !== undefined;
    if (named) return `${program} listening on tollgate's port ${port} (${row.why})`;
    if (rawListeners.has(family) && rawListenerPortUnknown(family, args)) return `${program} listening on a port the line does not determine, perhaps tollgate's ${port} (${row.why})`;
  }
  // Any server given the port by its option (`vite --port 8787`, `jupyter lab --port=8787`, `--listen 127.0.0.1:8787`).
  if (clientPrograms.has(program)) return null;
  const given = optionValuesAnywhere(args, null, listeningOptions).find((v) => forwardSpecListens(v, port, 1));
  return given === undefined ? null : `${program} told to listen on tollgate's port ${port}`;
};

export const portListenerExamples = {
  stops: [
    // Red team 15: the number through bash's bases and constant commands, a raw listener's port unknown, gawk's /inet files,
    // a server whose default port is tollgate's, a container on the host's network.
    'nc -l $((16#2253))', 'nc -l $(expr 8700 + 87)', 'nc -l $(echo 8700+87 | bc)', 'nc -l $(seq 8787 8787)', 'nc -l $p', 'socat TCP-LISTEN:$P,fork -',
    "gawk 'BEGIN{s=\"/inet/tcp/8787/0/0\"; print \"x\" |& s}'", 'rserver', 'docker run --network=host python:3 python -m http.server 8787',
    'nc -l 8787', 'nc -lk 127.0.0.1 8787', 'ncat -l 8787', 'netcat -l -p 8787', 'busybox nc -l -p 8787', 'socat TCP-LISTEN:8787,fork -',
    'php -S 127.0.0.1:8787', 'npx http-server -p 8787', 'ruby -run -e httpd . -p 8787', 'python3 -m http.server 8787', 'uvicorn app:app --port 8787',
    'nc -l -p8787', 'caddy file-server --listen :8787',
    // Red team 10: abbreviations, other spellings of the number, forwards and servers given the port by option.
    "socat tcp-l:8787,fork,reuseaddr exec:'echo allow'", 'socat TCP4-L:8787 -', 'nc -l $((8000+787))', 'nc -l 0x2253', 'openssl s_server -accept 8787 -nocert',
    'openssl s_server -port 8787', 'websocat -s 8787', 'websocat ws-l:127.0.0.1:8787 -', 'ssh -N -L 8787:localhost:22 host', 'ssh -L127.0.0.1:8787:db:5432 host', 'ssh -D 8787 host',
    'docker run -p 8787:80 nginx', 'docker run --publish=127.0.0.1:8787:80 nginx', 'podman run -p 8787:80/tcp x', 'kubectl port-forward pod/x 8787:80', 'kubectl port-forward svc/x 8787',
    'iperf3 -s -p 8787', 'twistd web --port tcp:8787', 'vite --port 8787', 'jupyter lab --port=8787', 'npx json-server db.json --port 8787',
    'systemd-socket-activate -l 8787 cat', 'chisel server -p 8787', 'redir :8787 x:80', 'podman run --net=host -e PORT=8787 x', 'PORT=8787 npm start',
    // Red team 13: bundled flags, ssh's -o forwards, more servers.
    'nc -lp8787', 'ssh -NfL 8787:x:22 host', 'ssh -oLocalForward=8787:x:1 host', 'ssh -o "LocalForward=8787 localhost:22" host', 'ssh -oDynamicForward=8787 host',
    'python3 -m pydoc -p 8787', 'python2 -m SimpleHTTPServer 8787', 'next dev -p 8787', 'hugo server -p 8787', '/usr/sbin/sshd -p 8787', '/usr/sbin/sshd -o Port=8787', 'dropbear -p 8787',
    // Red team 15: directives given on nginx's line.
    "nginx -g 'daemon off; events {} http { server { listen 8787; } }'", "nginx -g 'http{server{listen 127.0.0.1:8787;}}'", "openresty -g'stream { server { listen 8787; } }'"],
  allows: ["nginx -g 'daemon off;'", "nginx -g 'http { server { listen 8080; } }'", 'nc -l $(expr 3000 + 1)', 'rserver --www-port=9000', 'docker run --network=host nginx', 'socat TCP-LISTEN:3000 EXEC:$CMD', 'nc -zv $HOST 443', 'nc -l 9000', 'nc 127.0.0.1 9000', 'python3 -m http.server 9000', 'php -S localhost:8000', 'socat TCP-LISTEN:9000,fork TCP:db:5432', 'npx http-server -p 8080',
    'ssh -R 8787:localhost:80 host', 'ssh -L 5432:localhost:8787 host', 'docker run -p 8080:8787 app', 'kubectl port-forward pod/x 9000:8787', 'vite --port 5173',
    'curl --port 8787 x', 'ssh -p 8787 remote.example.com', 'openssl s_client -connect example.com:443', 'iperf3 -c host -p 8787', 'PORT=3000 npm start', 'redir :9000 x:80', 'ssh -NfL 9000:x:22 host', 'next dev -p 3000', 'hugo server'],
};
