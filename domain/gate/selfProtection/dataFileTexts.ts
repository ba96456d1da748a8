/**
 * Data and config files a program acts on, read as the shell text the floor already judges (red team 6): the SQL
 * and dot-commands sqlite3 reads, a tmux or screen config, the files a diff patches, and a list of URLs a download
 * client fetches. A command a file runs becomes its text; a file it writes becomes a `> FILE` line; a file it
 * only reads becomes `cat FILE` (so a secret read still counts). Pure text in, text out.
 */

/** A dot-command's words as sqlite3 splits them: blanks, with '…' and "…" quoting. */
const dotWords = (rest: string): string[] =>
  [...rest.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g)].map((m) => m[1] ?? m[2]?.replace(/\\(.)/g, '$1') ?? m[3]!);

/** A file name or a `|COMMAND` pipe: a pipe's command is run, a file is written (or read). */
const fileOrPipe = (word: string | undefined, rest: string, use: 'write' | 'read'): string[] => {
  if (word === undefined || word === '') return [];
  if (word.startsWith('|')) return [rest.slice(rest.indexOf('|') + 1).replace(/^['"]|['"]\s*$/g, '')];
  return [use === 'write' ? `> ${word}` : `cat ${word}`];
};

/** SQL file arguments: `'file:/x/ledger.db?mode=ro'` names /x/ledger.db. */
const sqlFile = (name: string): string => name.replace(/^file:(?:\/\/(?=\/))?/, '').replace(/\?.*$/, '');

/**
 * sqlite3's input (a file piped, redirected, `.read` or `-init`): `.shell`/`.system` commands (psql's `\!` and
 * mysql's `system` when the same file is fed to them), `.output`/`.once`/`.import`/`.read` pipes (`|CMD` runs
 * CMD), the files it writes (`.output`, `.once`, `.backup`, `.save`, `.open`, `.log`, ATTACH, VACUUM INTO,
 * writefile()) and those it reads (`.import`, `.read`, `.open --readonly`, readfile()).
 */
export const sqliteShellText = (content: string): string => {
  const out: string[] = [];
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    const escape = /^(?:\.(?:shell|system)|\\!|system)\s+(.*)$/.exec(line);
    if (escape !== null) { out.push(escape[1]!); continue; }
    const dot = /^\.([a-z]+)\s*(.*)$/.exec(line);
    if (dot === null) continue;
    const [name, rest] = [dot[1]!, dot[2]!];
    const words = dotWords(rest).filter((w) => !w.startsWith('-'));
    const last = words[words.length - 1];
    switch (name) {
      case 'output': case 'once': case 'log': case 'trace': out.push(...fileOrPipe(words[0], rest, 'write')); break;
      case 'backup': case 'save': if (last !== undefined) out.push(`> ${last}`); break;
      case 'open': if (last !== undefined) out.push(rest.includes('--readonly') ? `cat ${last}` : `> ${last}`); break;
      case 'import': out.push(...fileOrPipe(words[0], rest, 'read')); break;
      case 'read': out.push(...fileOrPipe(words[0], rest, 'read')); break;
      default: break;
    }
  }
  // SQL anywhere in the text: the databases it attaches (and so may change), files it writes or reads.
  if (/attach|vacuum|writefile|readfile/i.test(content)) {
    for (const m of content.matchAll(/\battach\s+(?:database\s+)?(?:'([^']*)'|"([^"]*)"|([^\s;]+))/gi)) out.push(`> ${sqlFile(m[1] ?? m[2] ?? m[3]!)}`);
    for (const m of content.matchAll(/\bvacuum\b[^;]*?\binto\s+'([^']*)'/gi)) out.push(`> ${sqlFile(m[1]!)}`);
    for (const m of content.matchAll(/\bwritefile\s*\(\s*'([^']*)'/gi)) out.push(`> ${m[1]!}`);
    for (const m of content.matchAll(/\breadfile\s*\(\s*'([^']*)'/gi)) out.push(`cat ${m[1]!}`);
  }
  return out.join('\n');
};

/** The quoted strings of a config line, unquoted: a command's command (`run-shell "…"`, `if-shell "…" "…"`). */
const quotedStrings = (line: string): string[] =>
  [...line.matchAll(/'([^']*)'|"((?:\\.|[^"\\])*)"/g)].map((m) => m[1] ?? m[2]!.replace(/\\(.)/g, '$1'));

/** Config lines with `\` continuations joined and `#` comment lines dropped. */
const configLines = (content: string): string[] =>
  content.replace(/\\\r?\n/g, ' ').split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));

/**
 * A tmux config (`source-file`, `-f`, ~/.tmux.conf): each command as a `tmux CMD` line (so send-keys types and
 * run-shell, new-window and friends run, as on the command line), each quoted string as shell text and as a tmux
 * command (if-shell's commands), and `save-buffer FILE` as a write. A key binding's commands run only when a key is
 * pressed: they count as shell text (a planted `run-shell` still does), not as keys typed now.
 */
export const tmuxConfigText = (content: string): string => {
  const out: string[] = [];
  for (const line of configLines(content)) {
    // `%if "#{…}"` … `%endif`, `%hidden X=1`, braces around a command list: every command inside counts.
    const body = line.replace(/^%(?:if|elif|else|endif|hidden)\b/, '').replace(/(^|\s)[{}](?=\s|$)/g, '$1');
    // A bare `;` ends a command; `\;` joins the commands of one binding (elsewhere it separates them too).
    for (const command of body.split(/(?<!\\);(?=\s|$)/)) {
      const text = command.trim();
      if (text === '') continue;
      const binding = /^(?:bind|bind-key)\b/.test(text);
      for (const part of binding ? [text] : text.split(/\\;(?=\s|$)/)) {
        const one = part.trim();
        if (one === '') continue;
        out.push(binding ? one.replace(/\\;/g, '\n') : `tmux ${one}`);
        const saved = /^(?:save-buffer|saveb)\b(?:\s+-[a-zA-Z]+(?:\s+(?!-)\S+)?)*\s+(\S+)\s*$/.exec(one);
        if (saved !== null) out.push(`> ${saved[1]!.replace(/^['"]|['"]$/g, '')}`);
        for (const inner of quotedStrings(one)) out.push(...(binding ? [inner] : [inner, `tmux ${inner}`]));
      }
    }
  }
  return out.join('\n');
};

/**
 * A screenrc (`screen -c`, ~/.screenrc, `-X source`): each command as `screen -X CMD` (so `stuff` and its kin type,
 * and `screen CMD`, `exec CMD`, `backtick … CMD` run their command), and `logfile`/`bufferfile` as writes. A key
 * binding's command runs when a key is pressed: it counts as shell text only.
 */
export const screenConfigText = (content: string): string => {
  const out: string[] = [];
  for (const line of configLines(content)) {
    out.push(/^(?:bind|bindkey)\b/.test(line) ? line : `screen -X ${line}`, ...quotedStrings(line));
    const written = /^(?:logfile|bufferfile)\s+(?!flush\b)(\S+)/.exec(line);
    if (written !== null) out.push(`> ${written[1]!.replace(/^['"]|['"]$/g, '')}`);
  }
  return out.join('\n');
};

/** How a patch program names the files it changes: the strip level (`-p N`; null when not given) and the folder (`-d`). */
export interface DiffReading {
  readonly strip: number | null;
  readonly dir: string;
}

/** A diff header's file name: git's C quoting undone, the timestamp after a tab dropped. */
const headerName = (raw: string): string => {
  const quoted = /^"((?:\\.|[^"\\])*)"/.exec(raw);
  if (quoted !== null) return quoted[1]!.replace(/\\t/g, '\t').replace(/\\n/g, '\n').replace(/\\(.)/g, '$1');
  return raw.split('\t')[0]!.trim();
};

/** `-p N`: the smallest prefix holding N slashes removed (adjacent slashes count as one); too few, nothing is left. */
const stripped = (name: string, strip: number): string | null => {
  let rest = name;
  for (let i = 0; i < strip; i++) {
    const at = rest.indexOf('/');
    if (at < 0) return null;
    rest = rest.slice(at + 1).replace(/^\/+/, '');
  }
  return rest;
};

/**
 * The files a diff patches, as `> FILE` lines: both sides of `---`/`+++` and context `***` headers, git's
 * `diff --git a/… b/…` and rename/copy lines, and `Index:`. Implementations differ on absolute names and on the
 * strip level when none is given, so an absolute name counts as written, the name stripped by `-p N` counts
 * (below `-d DIR`), and without `-p` both the whole name and its base name do.
 */
export const diffTargetText = (content: string, reading: DiffReading): string => {
  // Header names carry the a/ b/ prefix -p strips; git's rename and copy lines do not (git strips one level less).
  const names = new Map<string, number>();
  for (const line of content.split(/\r?\n/)) {
    const header = /^(?:(---|\+\+\+|\*\*\*) |(Index): |(rename|copy) (?:from|to) )(.+)$/.exec(line);
    if (header !== null && !/^\*\*\* \d+(?:,\d+)? \*{4}$/.test(line) && !/^--- \d+(?:,\d+)? ----$/.test(line)) names.set(headerName(header[4]!), header[3] === undefined ? 0 : 1);
    const git = /^diff --git (?:"((?:\\.|[^"\\])*)"|(\S+)) (?:"((?:\\.|[^"\\])*)"|(\S+))$/.exec(line);
    if (git !== null) for (const side of [git[1] ?? git[2], git[3] ?? git[4]]) if (side !== undefined) names.set(headerName(side), 0);
  }
  const out = new Set<string>();
  const under = (name: string): string => (name.startsWith('/') ? name : `${reading.dir.replace(/\/+$/, '') || '.'}/${name}`);
  for (const [name, less] of names) {
    if (name === '/dev/null' || name === '') continue;
    if (name.startsWith('/')) out.add(`> ${name}`);
    const candidates = reading.strip === null ? [name, name.slice(name.lastIndexOf('/') + 1)] : [stripped(name, Math.max(0, reading.strip - less))];
    for (const candidate of candidates) if (candidate !== null && candidate !== '') out.add(`> ${under(candidate)}`);
  }
  return [...out].join('\n');
};

/**
 * A URL list (`wget -i`, `aria2c -i`), as the client's command line with every URL on it, and aria2c's per-URL
 * `dir=`/`out=` options as the file each download writes.
 */
export const urlListText = (content: string, command: string): string => {
  const urls: string[] = [];
  const writes: string[] = [];
  // aria2c's options for a URL are the indented lines after it: `dir=` is where it lands, `out=` its name.
  let block: { url: string; dir?: string; out?: string } | null = null;
  const close = () => {
    if (block?.dir === undefined && block?.out === undefined) return;
    const name = block.out ?? (block.url.replace(/[?#].*$/, '').split('/').pop() || 'index.html');
    writes.push(`> ${block.dir === undefined ? '' : `${block.dir.replace(/\/+$/, '')}/`}${name}`);
  };
  for (const raw of content.split(/\r?\n/)) {
    const option = /^\s+([a-z-]+)\s*=\s*(.*?)\s*$/.exec(raw);
    if (option !== null) {
      if (block !== null && (option[1] === 'dir' || option[1] === 'out')) block[option[1]] = option[2]!;
      continue;
    }
    const words = raw.trim().split(/\s+/).filter((w) => w !== '');
    if (words.length === 0 || words[0]!.startsWith('#')) continue;
    close();
    urls.push(...words);
    block = { url: words[0]! };
  }
  close();
  return [`${command} ${urls.join(' ')}`, ...writes].join('\n');
};
