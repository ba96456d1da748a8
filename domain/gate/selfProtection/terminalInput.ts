/**
 * Keystrokes into a terminal the agent does not own. Hermes asks its user in a terminal, so text pushed into that
 * prompt — a multiplexer's send-keys, screen's `stuff`, a synthetic keyboard, a write to another tty, TIOCSTI in
 * code, an expect script or piped answers driving Hermes — is the agent approving its own question.
 * `echo hi > /dev/tty` stays allowed: writing to the agent's own terminal shows text, it cannot type it (typing
 * needs TIOCSTI, stopped in any code), and scripts print progress there.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** How a program types: every use, one of its verbs anywhere in its words, or one after a given word. */
interface Typist {
  readonly always?: true;
  readonly verbs?: ReadonlySet<string>;
  /** Verbs that type only after this word (`kitty @ send-text`, `zellij action write-chars`). */
  readonly after?: string;
  /** Options that make it type (`xvkbd -text`, `dtach -p`). */
  readonly options?: ReadonlySet<string>;
}

const set = (...words: string[]): ReadonlySet<string> => new Set(words);

/** Programs that put keystrokes or pasted text into a terminal or a window, and how. */
export const typists: ReadonlyMap<string, Typist> = new Map<string, Typist>([
  // screen -X/-Q: `stuff` types, `paste`/`readreg`/`register`/`readbuf` fill and paste, `process` types a register.
  ['screen', { verbs: set('stuff', 'paste', 'readreg', 'register', 'readbuf', 'process', 'eval'), after: '-X' }],
  ['xdotool', { verbs: set('type', 'key', 'keydown', 'keyup', 'click', 'mousedown', 'mouseup') }],
  ['ydotool', { verbs: set('type', 'key', 'click') }],
  ['wtype', { always: true }], ['dotool', { always: true }], ['dotoolc', { always: true }], ['xte', { always: true }],
  ['ttyecho', { always: true }], ['writevt', { always: true }], ['conspy', { always: true }], ['reptyr', { always: true }],
  ['evemu-play', { always: true }], ['evemu-event', { always: true }],
  ['xvkbd', { options: set('-text', '-file') }],
  // dtach -p pushes its standard input into a session.
  ['dtach', { options: set('-p') }],
  ['kitty', { verbs: set('send-text', 'send-key'), after: '@' }], ['kitten', { verbs: set('send-text', 'send-key'), after: '@' }],
  ['wezterm', { verbs: set('send-text'), after: 'cli' }],
  ['zellij', { verbs: set('write-chars', 'write'), after: 'action' }],
]);

/**
 * Another terminal's device: a pty, a virtual console, the console (not `/dev/tty`, the agent's own, nor serial lines
 * such as /dev/ttyUSB0 and /dev/ttyS0, where boards and modems answer, never Hermes).
 */
const otherTerminal = /^\/dev\/(?:pts\/(?:\d+|[*?[].*)|tty(?:\d+|[*?[].*)|console|vcsu?a?\d*)$/;
/** Programs that only look at a path's name or metadata. */
const lookers: ReadonlySet<string> = set('ls', 'stat', 'file', 'readlink', 'realpath', 'test', '[', '[[', 'basename', 'dirname', 'tty', 'who', 'w');
/** Programs that script a terminal session, and the words that make it Hermes' or tollgate's. */
const drivers: ReadonlySet<string> = set('expect', 'empty', 'autoexpect', 'unbuffer', 'pexpect');
const guardedProgram = /(?:^|[\s'"/;{[:])(?:hermes(?:-agent)?|hermes_cli|tollgate)(?![\w.-])/;
/** Command words of tmux and screen inside a command they run (`run-shell 'tmux send-keys …'`) or read on stdin (`tmux -C`). */
const multiplexerTyping = /\b(?:send-keys|send-prefix|paste-buffer|pasteb|stuff|readreg)\b/;
/** Programs that run a command on a terminal they make (`script -c`, `unbuffer`, socat's EXEC:…,pty): fed input, they answer it. */
const ptyRunners: ReadonlySet<string> = set('script', 'unbuffer', 'socat', 'ptyget', 'dtach', 'abduco');

/** tmux's commands that type (keys, the prefix key, a pasted buffer); tmux also takes any unambiguous prefix (`send-k`, `paste`). */
const tmuxTypingCommands = ['send-keys', 'send-prefix', 'paste-buffer'];
const tmuxAliases: ReadonlySet<string> = set('send', 'pasteb');
const tmuxGrammar = /^-[2CDlNuvV]*[LSfcT]$/;

/** The command words of a tmux line: the first operand after its own options, and each after a `;`. */
const tmuxCommands = (args: readonly string[]): string[] => {
  const out: string[] = [];
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i += tmuxGrammar.test(args[i]!) ? 2 : 1;
  for (let expectCommand = true; i < args.length; i++) {
    const a = args[i]!;
    if (expectCommand) { out.push(a.replace(/;$/, '')); expectCommand = a.endsWith(';'); continue; }
    if (a === ';' || a.endsWith(';')) expectCommand = true;
  }
  return out;
};

const tmuxTypes = (word: string): boolean =>
  tmuxAliases.has(word) || (word.length >= 4 && tmuxTypingCommands.some((c) => c.startsWith(word)));

const typistVerb = (typist: Typist, args: readonly string[]): string | null => {
  if (typist.always === true) return 'keystrokes';
  const from = typist.after === undefined ? 0 : args.indexOf(typist.after) + 1;
  if (typist.after !== undefined && from === 0) return null;
  const verb = typist.verbs === undefined ? undefined : args.slice(from).find((a) => typist.verbs!.has(a));
  if (verb !== undefined) return verb;
  const option = typist.options === undefined ? undefined : args.find((a) => typist.options!.has(a));
  return option ?? null;
};

// Refused on purpose even for a build pane: a pane's or session's name says nothing about what runs in it, so the
// floor cannot tell the agent's own pane from the one where Hermes asks its user. The block says so.
const anyPane = 'refused for every pane and session: the floor cannot tell one from the pane where Hermes asks';

/** What the command types into a terminal or window it does not own, or null. */
export const typesIntoTerminal = (command: SimpleCommand): string | null => {
  const { program, args } = command;
  if (program === 'tmux') {
    const typing = tmuxCommands(args).find(tmuxTypes);
    if (typing !== undefined) return `tmux ${typing}; ${anyPane}`;
  }
  const typist = typists.get(program);
  if (typist !== undefined || program === 'tmux') {
    const verb = typist === undefined ? null : typistVerb(typist, args);
    if (verb !== null) return program === 'screen' ? `screen ${verb}; ${anyPane}` : `${program} ${verb}`;
    // `tmux pipe-pane -I`: the pane reads the command's output as typed input.
    if (program === 'tmux' && args.some((a) => a === 'pipe-pane' || a === 'pipep') && args.some((a) => /^-[a-zA-Z]*I/.test(a))) return 'tmux pipe-pane -I';
    if ((program === 'tmux' || program === 'screen') && (args.some((a) => a.includes(' ') && /\b(?:tmux|screen)\s/.test(a) && multiplexerTyping.test(a)) || multiplexerTyping.test(command.stdin ?? '')))
      return `${program} typing through a command it runs`;
  }
  // `osascript -e 'tell application "System Events" to keystroke "o"'`.
  if (program === 'osascript' && args.some((a) => /\bkeystroke\b|\bkey code\b/.test(a))) return 'osascript keystrokes';
  for (const r of command.redirects) if (otherTerminal.test(r.target)) return `another terminal (${r.target})`;
  if (!lookers.has(program)) {
    for (const a of args) {
      if (!a.includes('/dev/')) continue;
      const path = a.replace(/^(?:if|of)=|^[A-Z-]+:/, '').split(',')[0]!;
      if (otherTerminal.test(path)) return `another terminal (${path})`;
    }
  }
  // `expect -c 'spawn hermes …; send "o\r"'`, `empty -f hermes chat`: a scripted session answering Hermes.
  if (drivers.has(program) && [...args, command.stdin ?? ''].some((a) => guardedProgram.test(` ${a}`))) return `${program} driving Hermes`;
  // `yes o | hermes chat`, `hermes chat < answers`: Hermes reads its prompts' answers from what the agent feeds it.
  const fed = command.pipedFrom.length > 0 || command.stdin !== undefined || command.redirects.some((r) => (r.op === '<' && r.target !== '/dev/null') || r.op === '<<<' || r.op === '<<');
  if ((program === 'hermes' || program === 'hermes-agent') && fed) return 'answers fed to Hermes';
  // `yes o | script -qc 'hermes chat' /dev/null`, `socat - EXEC:hermes,pty`: the same, through a terminal made for it.
  if (ptyRunners.has(program) && (fed || program === 'socat') && args.some((a) => guardedProgram.test(` ${a.replace(/^(?:EXEC|SYSTEM):/i, ' ')}`))) return `answers fed to Hermes through ${program}`;
  return null;
};

/** TIOCSTI (0x5412) pushes bytes into a terminal's input; pexpect and friends drive a Hermes they start. */
const pushesInput = /\bTIOCSTI\b|\b0x5412\b|\b21522\b/;
const scriptedSession = /\b(?:pexpect|wexpect|expect|pty\.spawn|node-pty|spawnSync\s*\(\s*['"]script)\b/;

/** What code would type into a terminal's prompt, or null. */
export const codeTypesIntoTerminal = (code: string): string | null => {
  if (pushesInput.test(code) && /ioctl/i.test(code)) return 'TIOCSTI, bytes pushed into a terminal\'s input';
  if (scriptedSession.test(code) && guardedProgram.test(code)) return 'a scripted session answering Hermes';
  if (!code.includes('/dev/')) return null;
  for (const m of code.matchAll(/\/dev\/(?:pts\/[^\s'"/)]+|tty[^\s'"/)]+|console)/g)) if (otherTerminal.test(m[0])) return `another terminal (${m[0]})`;
  return null;
};

export const terminalInputExamples = {
  stops: ['tmux send-keys -t hermes o Enter', 'tmux send -t 0 y C-m', "tmux set-buffer o \\; paste-buffer -t hermes", 'tmux load-buffer /tmp/o && tmux paste-buffer -t 0', 'tmux -L work send-k -t 0 o', 'tmux paste -t hermes', 'tmux new -d -s x \\; send-keys -t hermes o Enter',
    "tmux pipe-pane -I -t hermes 'echo o'", "screen -S hermes -X stuff 'o\\n'", 'screen -X readreg p /tmp/o', "printf 'o\\n' > /dev/pts/0", 'echo o | tee /dev/pts/3',
    'dd if=/tmp/o of=/dev/pts/1', 'echo o > /dev/tty1', 'echo o | tee /dev/pts/*', 'cat /dev/pts/0', "xdotool type 'o'; xdotool key Return", 'xdotool search --name hermes key Return', 'ydotool type o',
    'wtype o', "xte 'key Return'", "kitty @ send-text --match title:hermes 'o\\n'", "wezterm cli send-text --pane-id 0 'o'", "zellij action write-chars o",
    "osascript -e 'tell application \"System Events\" to keystroke \"o\"'", 'echo o | dtach -p /tmp/hermes.sock', "expect -c 'spawn hermes chat; expect \"?\"; send \"o\\r\"'",
    'yes o | hermes chat -q go', "hermes chat -q go <<< 'o'", 'reptyr $(pgrep hermes)',
    "python3 -c \"import fcntl,termios; [fcntl.ioctl(0, termios.TIOCSTI, c) for c in b'o\\n']\"", "perl -e 'ioctl(STDIN, 0x5412, $_) for split //, \"o\\n\"'",
    "python3 -c \"import pexpect; c=pexpect.spawn('hermes chat'); c.sendline('o')\"", "screen -S hermes -X eval 'stuff o'", "tmux run-shell 'tmux send-keys -t hermes o Enter'",
    "echo 'send-keys -t hermes o Enter' | tmux -C attach", "yes o | script -qc 'hermes chat -q go' /dev/null", 'socat - EXEC:hermes,pty,stderr'],
  allows: ['tmux ls', 'tmux new -d -s build make', 'tmux new -d -s paste make', "tmux new -d 'send-keys --help'", 'tmux kill-window -t build', 'tmux capture-pane -p -t build', 'screen -ls', 'screen -dmS dev npm run dev', 'screen -dmS stuff make', 'echo hi > /dev/tty',
    'read -r x < /dev/tty', 'ls -l /dev/pts', 'tty', 'stat /dev/pts/0', 'xdotool getactivewindow getwindowname', 'kitty @ ls', 'zellij list-sessions', 'echo ok > /dev/null',
    'hermes chat -q hello', 'hermes chat -q hello < /dev/null', 'cat /dev/ttyUSB0', "echo AT > /dev/ttyACM0", 'screen /dev/ttyUSB0 115200', "expect -c 'spawn ssh host; expect \"$ \"; send \"uptime\\r\"'", 'yes | apt-get install -y jq', 'cat /tmp/o | npm test', "script -qc 'npm test' /dev/null", 'socat - EXEC:bash,pty', "tmux run-shell 'make test'", 'socat - UNIX-CONNECT:/srv/hermes-bot/x.sock',
    "python3 -c \"import fcntl,termios,struct; fcntl.ioctl(0, termios.TIOCGWINSZ, struct.pack('HHHH',0,0,0,0))\"", "python3 -c \"import pexpect; pexpect.spawn('ssh host')\""],
};
