/**
 * Processes started from inline code without a shell (red team 8): PHP's proc_open/passthru/pcntl_exec, Python's
 * os.spawnlp/os.execlp, Perl's `exec {'prog'} 'prog', …`, Ruby's IO.popen. Their argument literals are a command
 * line, judged as the shell text it amounts to. And the socket a `unix://` address names
 * (`stream_socket_client('unix://data/tollgate.sock')`). Pure: reads the code's text only.
 */
import { programName } from '../../shell/programName.ts';

/** Calls that start a program from its name and arguments (besides the ones inlineCode's shellCalls knows). */
export const spawnCalls = /\b(?:proc_open|passthru|shell_exec|pcntl_exec|popen|Open3|spawn[lv]p?e?|posix_spawnp?|exec[lv]p?e?|execFile\w*|fork|Command::new|ProcessBuilder|getRuntime|Deno\.Command|Deno\.run|Bun\.spawn\w*|execa\w*|os\.execute|io\.popen)\b|%x[({[]|['"](?:-\||\|-)['"]/;

const literal = String.raw`(?:'[^'\n]*'|"[^"\n]*")`;
/** Two or more string literals separated by commas, brackets or not: a call's argument list. */
const literalRun = new RegExp(`${literal}(?:\\s*,\\s*${literal})+`, 'g');

/**
 * The literal runs of the code as command lines (`os.spawnlp(os.P_WAIT, 'tollgate', 'tollgate', 'approve')`,
 * `exec {'tollgate'} 'tollgate', 'approve'`). The exec family repeats the program as argv[0]: one is dropped.
 */
export const callArgumentLists = (code: string): string[] => {
  if (!code.includes(',')) return [];
  const words = (text: string): string[] => [...text.matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((l) => l[1] ?? l[2] ?? '');
  const runs = [...code.matchAll(literalRun)].map((m) => {
    const list = words(m[0]);
    if (list.length > 1 && programName(list[0]!) === programName(list[1]!)) list.shift();
    return list.join(' ');
  });
  // `new Deno.Command('tollgate', { args: ['approve', 'a1'] })`: the program, then its arguments in an options object.
  const withOptions = [...code.matchAll(optionsArgs)].map((m) => [...words(m[1]!), ...words(m[2]!)].join(' '));
  return [...runs, ...withOptions];
};
const optionsArgs = new RegExp(`(${literal})\\s*,\\s*\\{[^}]*?\\bargs\\s*:\\s*\\[([^\\]]*)\\]`, 'g');
/** Ruby's `%x(…)` and Perl's `qx(…)`: the text inside is a command line, not a literal the other readers see. */
export const commandLiterals = (code: string): string[] =>
  !/%x|qx/.test(code) ? [] : [...code.matchAll(/(?:%x|\bqx)\s*(?:\(([^)\n]*)\)|\{([^}\n]*)\}|\[([^\]\n]*)\])/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');

/** The path of a Unix socket address literal (`unix://data/tollgate.sock`, `unix:///run/x.sock`, `udg://…`), or null. */
export const unixSocketLiteral = (text: string): string | null => {
  const m = /^(?:unix|udg|unix-connect|unix-client):(?:\/\/)?(\S+)$/i.exec(text);
  return m === null ? null : m[1]!;
};

/**
 * `"unix://" . $dir . "/tollgate.sock"`: an address glued from a bare scheme and a name. The folder is unknown, so a
 * literal ending in one of the guard's socket names counts as that socket.
 */
export const gluedSocketName = (literals: readonly string[], sockets: readonly string[]): string | null => {
  if (!literals.some((l) => /^(?:unix|udg):(?:\/\/)?$/i.test(l))) return null;
  const names = new Set(sockets.map((s) => s.split('/').pop() ?? s));
  return literals.find((l) => names.has(l.split('/').pop() ?? l)) ?? null;
};

export const codeSpawnExamples = {
  stops: [
    "python3 -c \"import os; os.spawnlp(os.P_WAIT, 'tollgate', 'tollgate', 'approve', 'a1')\"",
    "python3 -c \"import os; os.execlp('tollgate', 'tollgate', 'approve', 'a1', 'always')\"",
    "perl -e \"exec {'tollgate'} 'tollgate', 'approve', 'a1'\"",
    "php -r \"proc_open(['tollgate','approve','a1'], [], \\$p);\"",
    "php -r \"passthru('tollgate approve a1');\"",
    "php -r \"pcntl_exec('/usr/bin/tollgate', ['approve','a1']);\"",
    "php -r \"echo shell_exec('hermes config set approvals.yolo true');\"",
    "ruby -e \"IO.popen(['tollgate', 'approve', 'a1'])\"", "ruby -e \"%x(tollgate approve a1)\"", "node -e \"new Deno.Command('tollgate', { args: ['approve', 'a1'] })\"",
    "perl -e \"open(my \\$f, '-|', 'tollgate', 'approve', 'a1')\"", "lua -e \"os.execute('tollgate approve a1')\"",
    "php -r '$s=stream_socket_client(\"unix://data/tollgate.sock\"); fwrite($s, \"POST /v1/approvals/a1 HTTP/1.0\\r\\n\\r\\n\");'",
    "php -r '$d=\"data\"; $s=stream_socket_client(\"unix://\" . $d . \"/tollgate.sock\");'",
  ],
  allows: [
    "python3 -c \"import os; os.execlp('ls', 'ls', '-l')\"", "python3 -c \"import os; os.execlp('tollgate', 'tollgate', 'audit')\"", "perl -e \"exec {'ls'} 'ls', '-l'\"", "php -r \"proc_open(['ls','-l'], [], \\$p);\"",
    "php -r \"passthru('ls -l');\"", "php -r '$s=stream_socket_client(\"unix:///tmp/app.sock\");'", "python3 -c \"print('a', 'b')\"",
  ],
};
