/**
 * Programs that would listen on tollgate's HTTP port: a stand-in daemon there answers the hooks and HTTP clients
 * that come to it once the real one is gone (`nc -l 8787`, `socat TCP-LISTEN:8787 -`, `php -S 0:8787`). Only a
 * listener is matched: a client (`nc 127.0.0.1 8787`) is the socket-client rows' concern.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

interface ListenerRow {
  readonly programs: ReadonlySet<string>;
  /** Whether this command listens (a flag, a subcommand); the port is then looked for in its words. */
  readonly listens: (args: readonly string[]) => boolean;
  readonly why: string;
}

const hasFlag = (args: readonly string[], letter: string, long?: string): boolean =>
  args.some((a) => (/^-[a-zA-Z]+$/.test(a) && a.includes(letter)) || (long !== undefined && (a === `--${long}` || a.startsWith(`--${long}=`))));

export const listenerRows: readonly ListenerRow[] = [
  { programs: new Set(['nc', 'ncat', 'netcat', 'nc.openbsd', 'nc.traditional']), listens: (a) => hasFlag(a, 'l', 'listen'), why: 'netcat with -l listens' },
  { programs: new Set(['socat']), listens: (a) => a.some((w) => /^(?:tcp[46]?|ssl|openssl|udp[46]?)-listen:/i.test(w)), why: 'socat TCP-LISTEN:PORT' },
  { programs: new Set(['php']), listens: (a) => a.includes('-S'), why: 'php -S HOST:PORT serves' },
  { programs: new Set(['http-server', 'serve', 'live-server', 'httpd', 'caddy', 'miniserve', 'simplehttpserver', 'webfsd', 'darkhttpd']), listens: () => true, why: 'a static file server' },
  { programs: new Set(['ruby']), listens: (a) => a.some((w) => /httpd|WEBrick/.test(w)), why: 'ruby -run -e httpd' },
  { programs: new Set(['python', 'python3']), listens: (a) => a.some((w) => /^(?:http\.server|SimpleHTTPServer|uvicorn|flask|aiohttp\.web)$/.test(w)), why: 'python -m http.server PORT' },
  { programs: new Set(['uvicorn', 'gunicorn', 'flask', 'hypercorn', 'waitress-serve']), listens: () => true, why: 'a Python web server' },
];

/** Words that give the port: a bare number, `-p N`, `--port=N`, `:N`, `HOST:N`, `TCP-LISTEN:N,fork`. */
const namesPort = (args: readonly string[], port: number): string | undefined =>
  args.find((w) => [...w.matchAll(/(?:^|[:=,])(\d{1,5})(?=$|[,/])|^-p(\d{1,5})$/g)].some((m) => Number(m[1] ?? m[2]) === port));

const packageRunners: ReadonlySet<string> = new Set(['npx', 'pnpx', 'bunx']);

/** The listener on tollgate's port this command would start, or null. */
export const listensOnGuardPort = (command: SimpleCommand, port: number | null): string | null => {
  if (port === null) return null;
  // `npx http-server -p 8787`: a package runner starts the program named by its first operand.
  const launched = packageRunners.has(command.program) ? command.args.findIndex((a) => !a.startsWith('-')) : -1;
  const program = launched >= 0 ? command.args[launched]! : command.program;
  const args = launched >= 0 ? command.args.slice(launched + 1) : command.args;
  const row = listenerRows.find((r) => r.programs.has(program));
  if (row === undefined || !row.listens(args)) return null;
  const word = namesPort(args, port);
  return word === undefined ? null : `${program} listening on tollgate's port ${port} (${row.why})`;
};

export const portListenerExamples = {
  stops: ['nc -l 8787', 'nc -lk 127.0.0.1 8787', 'ncat -l 8787', 'netcat -l -p 8787', 'busybox nc -l -p 8787', 'socat TCP-LISTEN:8787,fork -',
    'php -S 127.0.0.1:8787', 'npx http-server -p 8787', 'ruby -run -e httpd . -p 8787', 'python3 -m http.server 8787', 'uvicorn app:app --port 8787',
    'nc -l -p8787', 'caddy file-server --listen :8787'],
  allows: ['nc -l 9000', 'nc 127.0.0.1 9000', 'python3 -m http.server 9000', 'php -S localhost:8000', 'socat TCP-LISTEN:9000,fork TCP:db:5432', 'npx http-server -p 8080'],
};
