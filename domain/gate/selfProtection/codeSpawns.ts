/**
 * Processes started from inline code without a shell (red team 8): PHP's proc_open/passthru/pcntl_exec, Python's
 * os.spawnlp/os.execlp, Perl's `exec {'prog'} 'prog', …`, Ruby's IO.popen. Their argument literals are a command
 * line, judged as the shell text it amounts to. And the socket a `unix://` address names
 * (`stream_socket_client('unix://data/tollgate.sock')`). Pure: reads the code's text only.
 */
import { programName } from '../../shell/programName.ts';

/** Calls that start a program from its name and arguments (besides the ones inlineCode's shellCalls knows). */
export const spawnCalls = /\b(?:proc_open|passthru|shell_exec|pcntl_exec|popen|Open3|spawn[lv]p?e?|posix_spawnp?|exec[lv]p?e?|execFile\w*|fork|Command::new|ProcessBuilder|getRuntime)\b/;

const literal = String.raw`(?:'[^'\n]*'|"[^"\n]*")`;
/** Two or more string literals separated by commas, brackets or not: a call's argument list. */
const literalRun = new RegExp(`${literal}(?:\\s*,\\s*${literal})+`, 'g');

/**
 * The literal runs of the code as command lines (`os.spawnlp(os.P_WAIT, 'tollgate', 'tollgate', 'approve')`,
 * `exec {'tollgate'} 'tollgate', 'approve'`). The exec family repeats the program as argv[0]: one is dropped.
 */
export const callArgumentLists = (code: string): string[] => {
  if (!code.includes(',')) return [];
  return [...code.matchAll(literalRun)].map((m) => {
    const words = [...m[0].matchAll(/'([^'\n]*)'|"([^"\n]*)"/g)].map((l) => l[1] ?? l[2] ?? '');
    if (words.length > 1 && programName(words[0]!) === programName(words[1]!)) words.shift();
    return words.join(' ');
  });
};

/** The path of a Unix socket address literal (`unix://data/tollgate.sock`, `unix:///run/x.sock`, `udg://…`), or null. */
export const unixSocketLiteral = (text: string): string | null => {
  const m = /^(?:unix|udg|unix-connect|unix-client):(?:\/\/)?(\S+)$/i.exec(text);
  return m === null ? null : m[1]!;
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
    "ruby -e \"IO.popen(['tollgate', 'approve', 'a1'])\"",
    "php -r '$s=stream_socket_client(\"unix://data/tollgate.sock\"); fwrite($s, \"POST /v1/approvals/a1 HTTP/1.0\\r\\n\\r\\n\");'",
  ],
  allows: [
    "python3 -c \"import os; os.execlp('ls', 'ls', '-l')\"", "perl -e \"exec {'ls'} 'ls', '-l'\"", "php -r \"proc_open(['ls','-l'], [], \\$p);\"",
    "php -r \"passthru('ls -l');\"", "php -r '$s=stream_socket_client(\"unix:///tmp/app.sock\");'", "python3 -c \"print('a', 'b')\"",
  ],
};
