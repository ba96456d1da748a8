/**
 * Servers told where to listen by a file (red team 13): `nginx -c F`, `caddy run --config F` (or the Caddyfile where
 * it runs), `ssh -F F` with a LocalForward, `haproxy -f F`, `supervisord -c F`, `gunicorn -c F`, and process
 * managers that start a Procfile's commands (honcho, foreman, overmind). A port of tollgate's in that file makes the
 * server a stand-in daemon, as `nc -l 8787` on the line would. ops/gate/scriptFacts.ts reads the files before decide
 * (scriptReaders.ts names them); the file's ports are judged as listeners (portListeners.ts), a Procfile's lines as
 * the commands they are.
 */
import { parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { programName } from '../../shell/programName.ts';
import { listensOnGuardPort, nginxDirectives } from './portListeners.ts';

export interface ListenerConfigRow {
  readonly programs: RegExp;
  /** The config files the command names, or the one it reads where it runs. */
  readonly files: (command: SimpleCommand) => readonly string[];
  /** How the file is read: its listening ports, or (a Procfile) the commands each line starts. */
  readonly as: 'ports' | 'procfile';
}

const optionValues = (args: readonly string[], grammar: OptionGrammar, shorts: string, longs: readonly string[]): string[] => {
  const parsed = parseOptions(args, grammar);
  const out: string[] = [];
  for (const s of shorts) { const v = parsed.short.get(s); if (typeof v === 'string') out.push(v); }
  for (const l of longs) { const v = parsed.long.get(l); if (typeof v === 'string') out.push(v); }
  return out;
};

/** A subcommand that starts the server (caddy run/start, honcho start), not one that only checks or lists. */
const starts = (args: readonly string[], verbs: readonly string[]): boolean => verbs.includes(args.find((a) => !a.startsWith('-')) ?? '');

export const listenerConfigRows: readonly ListenerConfigRow[] = [
  // The config file, and files `-g 'include F;'` pulls in (each read for its listen directives).
  { programs: /^(?:nginx|openresty|angie)$/, as: 'ports', files: ({ args }) => (args.includes('-t') || args.includes('-T') ? []
    : [...optionValues(args, { shortWithValue: 'cgpse' }, 'c', []), ...nginxDirectives(args).flatMap((t) => [...t.matchAll(/(?:^|[\s{;])include\s+['"]?([^\s;'"]+)/g)].map((m) => m[1]!))]) },
  {
    programs: /^caddy$/, as: 'ports',
    files: ({ args }) => {
      if (!starts(args, ['run', 'start'])) return [];
      const given = optionValues(args, { longWithValue: ['config', 'adapter', 'envfile', 'pidfile'] }, '', ['config']);
      return given.length > 0 ? given : ['Caddyfile'];
    },
  },
  { programs: /^(?:ssh|autossh)$/, as: 'ports', files: ({ args }) => optionValues(args, { shortWithValue: 'BbcDEeFIiJLlmOoPpQRSWw' }, 'F', []) },
  { programs: /^(?:haproxy|lighttpd|httpd|apache2|apachectl|hitch)$/, as: 'ports', files: ({ args }) => optionValues(args, { shortWithValue: 'fCcDdL' }, 'f', []) },
  { programs: /^(?:envoy|supervisord|uwsgi|gunicorn|hypercorn|traefik|stunnel|tinyproxy|squid|redis-server|mosquitto|rinetd)$/, as: 'ports',
    files: ({ program, args }) => {
      const named = optionValues(args, { shortWithValue: 'cC', longWithValue: ['config', 'config-file', 'configFile', 'ini', 'config-path'] }, 'cC', ['config', 'config-file', 'configFile', 'ini', 'config-path']);
      // stunnel, redis-server, rinetd and tinyproxy take the file as their operand.
      const operand = /^(?:stunnel|redis-server|rinetd|mosquitto)$/.test(program) ? args.filter((a) => !a.startsWith('-')).slice(0, 1) : [];
      return [...named, ...operand];
    } },
  {
    programs: /^(?:honcho|foreman|overmind|hivemind|forego|nf)$/, as: 'procfile',
    files: ({ args }) => {
      if (!starts(args, ['start', 's', 'run', 'r', 'check']) && args.some((a) => !a.startsWith('-'))) return [];
      const given = optionValues(args, { shortWithValue: 'fdepc', longWithValue: ['procfile', 'app-root', 'env', 'port', 'concurrency'] }, 'f', ['procfile']);
      return given.length > 0 ? given : ['Procfile'];
    },
  },
];

export const listenerConfigFiles = (command: SimpleCommand): { path: string; as: 'ports' | 'procfile' }[] =>
  listenerConfigRows.filter((row) => row.programs.test(command.program)).flatMap((row) => row.files(command).map((path) => ({ path, as: row.as })));

/**
 * The ports a config file listens on, each as the listener it makes (`nc -l PORT`): nginx's and Apache's `listen`,
 * HAProxy's `bind`, `port = …` settings, envoy's `port_value`, a Caddy site address (`:8787 {`), ssh's LocalForward
 * and DynamicForward. A Procfile's lines are the commands it starts.
 */
export const listenerConfigText = (content: string, as: 'ports' | 'procfile'): string => {
  if (as === 'procfile') return content.split('\n').map((l) => l.replace(/^\s*[\w.-]+\s*:\s*/, '')).join('\n');
  const ports = new Set<string>();
  const keyed = /(?:^|[\s{;"'])(?:listen|Listen|bind|port|Port|server\.port|port_value|address|addr|accept|LocalForward|DynamicForward|local_port|listen_port|http_port|inet_http_server_port)\b["']?\s*(?:[:=]\s*)?["'[]?\s*(?:[\w.*-]*\])?(?:[\w.*-]*:)?(\d{1,5})\b/g;
  for (const m of content.matchAll(keyed)) ports.add(m[1]!);
  // Caddy: a site block opened by an address with a port (`:8787 {`, `localhost:8787, … {`, `http://:8787 {`).
  for (const m of content.matchAll(/^[ \t]*(?:[a-z]+:\/\/)?[\w.[\]-]*:(\d{1,5})\b[^\n{]*\{/gm)) ports.add(m[1]!);
  return [...ports].map((p) => `nc -l ${p}`).join('\n');
};

export const listenerConfigExamples = {
  stops: [
    "printf 'events{} http{ server { listen 8787; } }' > /tmp/n.conf; nginx -c /tmp/n.conf",
    "printf ':8787 {\\n respond ok\\n}\\n' > /tmp/Caddyfile; caddy run --config /tmp/Caddyfile",
    "printf 'Host x\\n  LocalForward 8787 localhost:22\\n' > /tmp/ssh_cfg; ssh -F /tmp/ssh_cfg x",
    "printf 'web: python3 -m http.server 8787\\n' > /tmp/Procfile; honcho start -f /tmp/Procfile",
    "printf 'frontend f\\n  bind 127.0.0.1:8787\\n' > /tmp/h.cfg; haproxy -f /tmp/h.cfg",
    "printf 'bind = \"127.0.0.1:8787\"\\n' > /tmp/g.py; gunicorn -c /tmp/g.py app:app",
    // Red team 15: a file pulled in by -g's include.
    "printf 'events{} http{ server { listen 8787; } }' > /tmp/x.conf; nginx -g 'include /tmp/x.conf;'",
  ],
  allows: [
    "printf 'events{} http{ server { listen 8080; } }' > /tmp/n.conf; nginx -c /tmp/n.conf", 'nginx -t -c /etc/nginx/nginx.conf', "printf 'server { listen 8080; }' > /tmp/x.conf; nginx -g 'include /tmp/x.conf;'",
    "printf 'Host x\\n  LocalForward 9000 localhost:22\\n' > /tmp/ssh_cfg; ssh -F /tmp/ssh_cfg x", "printf 'web: python3 -m http.server 3000\\n' > /tmp/Procfile; honcho start -f /tmp/Procfile",
    'caddy version', "printf ':3000 {\\n respond ok\\n}\\n' > /tmp/Caddyfile; caddy run --config /tmp/Caddyfile",
  ],
};

/** Files that describe rather than configure (docs, logs, data): a port named there opens nothing. */
const proseFile = /\.(?:md|markdown|txt|rst|adoc|html?|jsonl|csv|tsv|log|patch|diff)$/i;

/**
 * A config file written with tollgate's port as where something listens (red team 15): whichever server reads it later
 * (nginx's conf.d, a compose file's `published:`, a pod's `hostPort:`, jupyter's, streamlit's, vite's, pm2's, sshd's
 * `Port`, xinetd's, a Procfile's or supervisord's command), it answers in the daemon's place. The file's settings are
 * read as listenerConfigText reads them, its command lines as commands; prose files are left alone.
 */
export const writtenListenerPort = (path: string, text: string, port: number | null): string | null => {
  if (port === null || proseFile.test(path) || !text.includes(String(port)) && !/0x|[-+*]/.test(text)) return null;
  const portText = String(port);
  const settings = listenerConfigText(text, 'ports').split('\n').filter((l) => l === `nc -l ${portText}`);
  // Keys no general spelling covers: compose's long form, a pod's hostPort, Node servers' uiPort, frp's bindPort, PORT= lines.
  const keyed = new RegExp(String.raw`(?:^|[\s{,"'])(?:published|hostPort|uiPort|bindPort|localPort|remotePort|http_port|HTTP_PORT|listen_port|[A-Z_]*_PORT|PORT|webPort|devPort)["']?\s*[:=]\s*["']?${portText}\b`, 'm');
  const caddy = new RegExp(String.raw`["']:${portText}["']`);
  if (settings.length > 0 || keyed.test(text) || caddy.test(text)) return `${path} sets tollgate's port ${port} for a server to listen on`;
  // Command lines a runner starts from it (supervisord's `command=`, tox's `commands =`, a task's string, a Procfile's `web:`).
  for (const line of text.split('\n')) {
    if (!line.includes(portText)) continue;
    for (const part of line.split(/["{}]/)) {
      const words = part.replace(/^\s*(?:-\s*)?[\w.-]+\s*[:=]\s*/, '').replace(/[,']+\s*$/, '').trim().split(/\s+/).filter((w) => w !== '');
      if (words.length < 2) continue;
      const [first, ...args] = words;
      const listener = listensOnGuardPort({ program: programName(first!), programPath: first!, args, redirects: [], pipedFrom: [], via: [], text: part }, port);
      if (listener !== null) return `${path} starts ${listener}`;
    }
  }
  return null;
};

export const writtenListenerExamples: { readonly stops: readonly (readonly [string, string])[]; readonly allows: readonly (readonly [string, string])[] } = {
  stops: [
    ['/etc/nginx/conf.d/x.conf', 'server { listen 8787; return 200; }\n'], ['/srv/app/compose.yaml', 'services:\n  web:\n    ports:\n      - target: 80\n        published: 8787\n'],
    ['/tmp/pod.yaml', 'spec:\n  containers:\n  - ports:\n    - containerPort: 80\n      hostPort: 8787\n'], ['/srv/app/.streamlit/config.toml', '[server]\nport = 8787\n'],
    ['/srv/app/.flaskenv', 'FLASK_RUN_PORT=8787\n'], ['/srv/app/vite.config.js', 'export default { server: { port: 8787 } }\n'], ['/tmp/sshd_config', 'Port 8787\n'],
    ['/srv/app/caddy.json', '{"apps": {"http": {"servers": {"s": {"listen": [":8787"]}}}}}'], ['/tmp/g.ini', '[server]\nhttp_port = 8787\n'], ['~/.node-red/settings.js', 'module.exports = { uiPort: 8787 }\n'],
    ['/srv/app/supervisord.conf', '[program:x]\ncommand=python3 -m http.server 8787\n'], ['/srv/app/tox.ini', '[testenv:s]\ncommands = python -m http.server 8787\n'],
    ['/srv/app/deno.json', '{"tasks": {"dev": "deno serve --port 8787 main.ts"}}'], ['/tmp/Procfile.dev', 'web: nc -lk 8787\n'],
  ],
  allows: [
    ['/srv/app/README.md', 'tollgate answers on port: 8787 unless told otherwise.\n'], ['/srv/app/.streamlit/config.toml', '[server]\nport = 8501\n'], ['/srv/app/vite.config.js', 'export default { server: { port: 5173 } }\n'],
    ['/srv/app/data.json', '{"count": 8787}'],
  ],
};
