/**
 * Code put where it runs later (red team 6): a file copied, moved, installed or linked into a git hooks folder
 * (git runs it on the next commit or checkout) or into a folder on PATH (a later bare `ls` or `git` runs it), and
 * `hash -p FILE NAME`, which makes NAME run FILE for the rest of the shell. What runs then is the placed file's
 * content, never seen by the call that runs it. The file-side twin: inlineCode.ts' scriptLanguage judges content
 * written there directly (`echo … > .git/hooks/pre-commit`); scriptReaders.ts names the placed sources so their
 * text is read before decide, and persistenceCommands.ts refuses what the floor cannot read or what hijacks a name.
 */
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import { normalizePath } from '../../shell/shellPaths.ts';
import { copyLayout, readOnlyPrograms } from './shellOperands.ts';
import { inLoaderFolder, loaderFileRow, loaderFolder } from './loaderFiles.ts';

export interface RunLaterPlace {
  readonly name: string;
  readonly why: string;
  /** Whether a folder (its segments, `~` already the home's) is one of these places. */
  readonly folder: (segments: readonly string[], home: readonly string[] | null) => boolean;
  /** Where a name put there is run by name later (PATH), rather than by its own name as a hook. */
  readonly byName: boolean;
  /** Files (home /home/agent) that are in the place, and ones that are not. */
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

const hookFolderNames = new Set(['.githooks', '.git-hooks', '.husky']);
const endsWith = (segments: readonly string[], from: number, rest: readonly string[]): boolean =>
  segments.length === from + rest.length && rest.every((s, i) => segments[from + i] === s);
/** `HOME/rest`: the home given, else any spelling of one (`~`, `$HOME`, /root, /home/NAME). */
const underHome = (segments: readonly string[], home: readonly string[] | null, rest: readonly string[]): boolean => {
  if (home !== null) return home.every((s, i) => segments[i] === s) && endsWith(segments, home.length, rest);
  const first = segments[0] ?? '';
  if (first === '~' || first === '$HOME' || first === '${HOME}' || first === 'root') return endsWith(segments, 1, rest);
  return first === 'home' && segments.length > 1 && endsWith(segments, 2, rest);
};
const systemBinFolders = new Set(['/usr/local/bin', '/usr/local/sbin', '/usr/bin', '/usr/sbin', '/bin', '/sbin']);
const homeBinFolders: readonly (readonly string[])[] = [['.local', 'bin'], ['bin'], ['.cargo', 'bin'], ['go', 'bin'], ['.npm-global', 'bin'], ['.deno', 'bin'], ['.bun', 'bin']];

/** A file a program loads at its next start (loaderFiles.ts): what is copied or streamed there must be readable. */
const loadedAtStart: RunLaterPlace = {
  name: 'loaded-at-start', why: 'A program loads the file at its next start and runs what it says.', folder: (segments, home) => loaderFolder(segments, home), byName: false,
  stops: ['/home/agent/.emacs', '/home/agent/.config/autostart/x.desktop'], allows: ['/home/agent/project/notes.el'],
};

export const runLaterPlaces: readonly RunLaterPlace[] = [
  {
    name: 'git-hooks',
    why: "git runs a repository's hooks (a clone's .git/hooks, a submodule's, a bare repository's) and the folders projects point core.hooksPath at (.githooks, .husky) on commit, checkout, merge and push.",
    folder: (segments) => {
      const last = segments[segments.length - 1];
      if (last === undefined) return false;
      if (last === 'hooks') { const parent = segments[segments.length - 2] ?? ''; return parent === '.git' || parent.endsWith('.git') || segments.slice(0, -1).includes('.git'); }
      return hookFolderNames.has(last) || (last === '_' && segments[segments.length - 2] === '.husky');
    },
    byName: false,
    stops: ['/home/agent/project/.git/hooks/pre-commit', '/home/agent/project/.git/modules/lib/hooks/post-checkout', '/srv/repo.git/hooks/post-receive', '/home/agent/project/.husky/pre-commit',
      '/home/agent/project/.githooks/pre-push'],
    allows: ['/home/agent/project/src/hooks/useAuth.ts', '/home/agent/project/.git/config', '/home/agent/project/hooks/pre-commit'],
  },
  {
    name: 'path-folders',
    why: 'A bare command name runs the first file of that name in the folders on PATH: the system bin folders and ~/.local/bin, ~/bin and the tool folders in the home.',
    folder: (segments, home) => systemBinFolders.has(`/${segments.join('/')}`) || homeBinFolders.some((rest) => underHome(segments, home, rest)),
    byName: true,
    stops: ['/usr/local/bin/ls', '/home/agent/.local/bin/git', '/home/agent/bin/npm', '/usr/bin/python3'],
    allows: ['/home/agent/project/bin/ls', '/usr/local/lib/x', '/home/agent/.local/share/bin/x'],
  },  loadedAtStart,
];

/** The startup and logout files of bash, zsh and fish (the home's and /etc's): their lines run as commands later. */
export const shellStartupFile = /(?:^|\/)(?:\.(?:bashrc|bash_profile|bash_login|bash_logout|bash_aliases|profile|zshrc|zshenv|zprofile|zlogin|zlogout|kshrc|mkshrc)|bash\.bashrc|bash\.bash_logout|zshenv|zprofile|zshrc|zlogin|zlogout|config\.fish)$|^\/etc\/(?:profile(?:\.d\/[^/]+)?|fish\/conf\.d\/[^/]+)$|\/fish\/(?:conf\.d|functions)\/[^/]+\.fish$/;

/** The place a file path (absolute, or relative as written) lands in, if any: its folder is one of the rows', or it is a file loaded at start. */
export const runLaterPlace = (path: string, home: string | null): RunLaterPlace | null => {
  if (loaderFileRow(path, home) !== null || inLoaderFolder(path, home)) return loadedAtStart;
  // Every place's folder name holds one of these: most paths are none of them.
  if (!path.includes('bin') && !path.includes('hooks') && !path.includes('husky')) return null;
  const segments = segmentsOf(path);
  if (segments.length < 2) return null;
  const folder = segments.slice(0, -1);
  const homeSegments = home === null ? null : segmentsOf(home);
  for (const place of runLaterPlaces) if (place.folder(folder, homeSegments)) return place;
  return null;
};

/** Whether a folder itself is one of the places (a copy into it lands a file there), or holds one (`.git`, `~/.local`). */
const placeFolderWithin = (path: string, home: string | null): RunLaterPlace | null => {
  const segments = segmentsOf(path);
  const homeSegments = home === null ? null : segmentsOf(home);
  for (const place of runLaterPlaces) {
    if (place.folder(segments, homeSegments)) return place;
    // `cp -r evil/.git repo/`, `rsync -a x/ ~/.local/`: the folder copied whole holds hooks or a bin folder.
    if (place.folder([...segments, 'hooks'], homeSegments) && segments[segments.length - 1]?.endsWith('.git')) return place;
    if (place.folder([...segments, 'bin'], homeSegments)) return place;
  }
  return null;
};

const segmentsOf = (path: string): string[] => normalizePath(path).split('/').filter((s) => s !== '' && s !== '.');

export interface Placement {
  /** The file whose content lands there, as the floor can name it (a relative link target joined to the link's folder); null when none can be read. */
  readonly source: string | null;
  /** The source as written on the line. */
  readonly written: string;
  /** Where it lands: a file path, or for `hash -p` the command name. */
  readonly placed: string;
  readonly place: RunLaterPlace | 'command-name';
  /** A link (or a hashed path): what runs is whatever the source holds when it runs, not now. */
  readonly link: boolean;
  /** A folder copied in whole: what it holds is not read. */
  readonly whole: boolean;
}

const placingPrograms = new Set(['cp', 'mv', 'install', 'ln', 'rsync', 'scp', 'hash']);

/**
 * Words (a path's start) that the line points core.hooksPath at: `git config core.hooksPath DIR`, `git -c
 * core.hooksPath=DIR …`. A file copied there is a hook too.
 */
const lineHooksPaths = (analysis: ShellAnalysis): string[] => {
  if (!/hookspath/i.test(analysis.source)) return [];
  const out: string[] = [];
  for (const c of analysis.commands) {
    if (c.program !== 'git') continue;
    c.args.forEach((a, i) => {
      if (/^core\.hookspath=/i.test(a)) out.push(a.slice(a.indexOf('=') + 1));
      else if (/^core\.hookspath$/i.test(a) && c.args[i + 1] !== undefined && !c.args[i + 1]!.startsWith('-')) out.push(c.args[i + 1]!);
    });
  }
  return out.filter((p) => p !== '').map((p) => p.replace(/\/+$/, ''));
};

const hooksPathPlace: RunLaterPlace = runLaterPlaces[0]!;

/** Every file the command puts in a run-later place (the home resolves `~`; other words are judged as written). */
export const placements = (command: SimpleCommand, analysis: ShellAnalysis, home: string | null, cwd: string | null): Placement[] => {
  const copies = placingPrograms.has(command.program);
  if (!copies && command.redirects.length === 0 && !streamWriters.has(command.program)) return [];
  // `~/x`, `$HOME/x`; a relative word from the working directory when it is known.
  const expand = (word: string) => {
    const homeWord = /^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/.exec(word);
    if (homeWord !== null) return home === null ? word : home + word.slice(homeWord[0].length);
    return cwd !== null && !word.startsWith('/') && !/^[$`]/.test(word) ? `${cwd}/${word}` : word;
  };
  if (!copies) return streamed(command, expand, home);
  if (command.program === 'hash') return hashed(command);
  const { options, target, directory, sources } = copyLayout(command);
  if (directory === null || sources.length === 0) return [];
  const program = command.program;
  if (program === 'install' && (options.short.has('d') || options.long.has('directory'))) return [];
  const hooksPaths = lineHooksPaths(analysis).map(expand);
  const placeOf = (path: string): RunLaterPlace | null => {
    const found = runLaterPlace(expand(path), home);
    if (found !== null || hooksPaths.length === 0) return found;
    const folder = normalizePath(expand(path)).replace(/\/[^/]*$/, '');
    return hooksPaths.some((h) => normalizePath(h) === folder) ? hooksPathPlace : null;
  };
  const noTarget = program !== 'rsync' && program !== 'scp' && (options.short.has('T') || options.long.has('no-target-directory'));
  const recursive = program === 'mv' || options.short.has('r') || options.short.has('R') || options.short.has('a') || options.long.has('recursive') || options.long.has('archive');
  const link = program === 'ln' || options.short.has('s') || options.long.has('symbolic-link') || (program === 'cp' && (options.short.has('l') || options.long.has('link')));
  const symbolic = program === 'ln' ? options.short.has('s') || options.long.has('symbolic') : link;
  const dest = lexicalPath(expand(directory)).replace(/\/+$/, '') || '/';
  const intoFolder = target !== null || sources.length > 1 || /\/$/.test(directory) || (!noTarget && placeFolderWithin(dest, home) !== null && runLaterPlace(dest, home) === null);
  const out: Placement[] = [];
  for (const source of sources) {
    const pours = program === 'rsync' || program === 'scp' ? source.endsWith('/') : /(?:^|\/)\.$/.test(source);
    const name = source.replace(/\/+$/, '').split('/').pop() ?? '';
    const placed = intoFolder && !pours && name !== '' ? `${dest}/${name}` : dest;
    const place = placeOf(placed);
    // A folder copied (or poured) where it becomes, or holds, hooks or a bin folder: its files are not read.
    const folderPlace = recursive || pours || noTarget ? placeFolderWithin(placed, home) : null;
    if (place === null && folderPlace === null) continue;
    const remote = /^[^/]*:/.test(source) && (program === 'rsync' || program === 'scp');
    // `ln -s ../../scripts/pre-commit .git/hooks/pre-commit`: a relative symbolic target counts from the link's folder.
    const relativeLink = symbolic && !options.short.has('r') && !options.long.has('relative') && !/^[/~$]/.test(source);
    const readable = remote || /[$`*?[]/.test(source) ? null : relativeLink ? `${placed.replace(/\/[^/]*$/, '') || '.'}/${source}` : expand(source);
    out.push({ source: readable, written: source, placed, place: place ?? folderPlace!, link, whole: folderPlace !== null && place === null });
  }
  return out;
};

/** Programs that write a file named by a word rather than a redirection: tee's operands, dd's of=, a download's -o / -O. */
const streamWriters = new Set(['tee', 'dd', 'curl', 'wget']);

/** The files a command streams into (redirections, tee, dd of=, curl -o, wget -O). */
const streamTargets = (command: SimpleCommand): string[] => {
  const out = command.redirects.filter((r) => r.op.includes('>') && !r.target.startsWith('&')).map((r) => r.target);
  const { program, args } = command;
  if (program === 'tee') out.push(...args.filter((a) => !a.startsWith('-')));
  else if (program === 'dd') out.push(...args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)));
  else if (program === 'curl' || program === 'wget') {
    // `-o F`, a cluster ending in it (`-fsSLo F`, `-qO F`), or the long option.
    const flag = program === 'curl' ? /^(?:-[a-zA-Z]*o|--output)$/ : /^(?:-[a-zA-Z]*O|--output-document)$/;
    args.forEach((a, i) => { if (flag.test(a) && args[i + 1] !== undefined) out.push(args[i + 1]!); else if (/^--output(?:-document)?=/.test(a)) out.push(a.slice(a.indexOf('=') + 1)); });
  }
  return out;
};

/**
 * `cat /tmp/evil > .git/hooks/pre-commit`, `tee ~/.local/bin/ls < f`, `dd if=f of=…`, `curl -o .git/hooks/x URL`:
 * the file's content streamed in. What the line spells (`echo …`, `cat <<EOF`) is judged as written text elsewhere;
 * any other output (a download, a decoder, a program) is content the floor cannot read.
 */
const streamed = (command: SimpleCommand, expand: (word: string) => string, home: string | null): Placement[] => {
  const { program, args } = command;
  if (program === 'echo' || program === 'printf' || ((program === 'cat' || program === 'tee') && command.stdin !== undefined)) return [];
  const targets = streamTargets(command).filter((t) => { const place = runLaterPlace(expand(t), home); return place !== null && !(place === loadedAtStart && printsShellSetup(command)); });
  if (targets.length === 0) return [];
  const read = program === 'cat' ? args.filter((a) => !a.startsWith('-') || a === '-').filter((a) => a !== '-')
    : program === 'dd' ? args.filter((a) => a.startsWith('if=')).map((a) => a.slice(3))
    : command.redirects.filter((r) => /^0?<$/.test(r.op)).map((r) => r.target);
  const words: (string | null)[] = read.length === 0 || program === 'curl' || program === 'wget' ? [null] : read;
  return targets.flatMap((t) => words.map((word) => ({
    source: word === null || /[$`*?[]/.test(word) ? null : expand(word), written: word ?? `${program}'s output`, placed: expand(t), place: runLaterPlace(expand(t), home)!, link: false, whole: false,
  })));
};

/**
 * `kubectl completion bash > ~/.local/share/bash-completion/completions/kubectl`, `direnv hook zsh >> ~/.zshrc`: an
 * installed program (a bare name: PATH folders are guarded) printing its own completion or shell hook, the usual
 * way such files are made.
 */
const printsShellSetup = (command: SimpleCommand): boolean =>
  !command.programPath.includes('/') && command.args.length <= 4 && command.args.some((a) => /^(?:completions?|hook|init|shellenv|shell-init)$/.test(a))
  && command.args.some((a) => /^(?:-?-?(?:bash|zsh|fish|sh))$/.test(a));

/** `hash -p FILE NAME…`: each NAME runs FILE from now on, in this shell. */
const hashed = (command: SimpleCommand): Placement[] => {
  const at = command.args.findIndex((a) => /^-[a-z]*p$/.test(a));
  const file = at < 0 ? undefined : command.args[at + 1];
  if (file === undefined) return [];
  const names = command.args.slice(at + 2).filter((a) => !a.startsWith('-'));
  return names.map((placed) => ({ source: /[$`*?[]/.test(file) ? null : file, written: file, placed, place: 'command-name' as const, link: true, whole: false }));
};

// ---- a name taken over ----

/**
 * Programs the guard itself is, or that stop it: under another name (`ln -s /usr/bin/hermes ~/.local/bin/ls`) a
 * later call the floor reads as `ls config set …` runs Hermes.
 */
const guardPrograms = /(?:^|[/\s$(`])(?:hermes(?:-agent)?|tollgate(?:\.mjs)?|kill|pkill|killall|skill|fuser|pgrep)(?=$|[\s)`'"])/;

/**
 * Names the floor reads more leniently than an unknown program's (only reads, a script or package file judged by its
 * text, a wrapper unwrapped, arguments with their own meaning): under such a name other code would run where the
 * floor lets `ls ~/.hermes/plugins` or `npm test` through. An unknown name (`mytool`, `kubectl`) has every word
 * judged as a write already, so other code under it gains nothing.
 */
export const namesTheFloorReads: ReadonlySet<string> = new Set([
  ...readOnlyPrograms,
  'git', 'npm', 'npx', 'yarn', 'pnpm', 'bun', 'bunx', 'deno', 'node', 'nodejs', 'python', 'python3', 'pip', 'pip3', 'uv', 'pipx', 'poetry', 'pytest', 'tsc', 'tsx', 'eslint',
  'prettier', 'jest', 'vitest', 'make', 'gmake', 'cmake', 'just', 'ninja', 'ruby', 'perl', 'php',
  'sh', 'bash', 'dash', 'zsh', 'ksh', 'fish', 'env', 'sudo', 'doas', 'nohup', 'timeout', 'xargs', 'find', 'sed', 'awk', 'gawk', 'sort', 'uniq', 'tee', 'touch', 'mkdir',
  'cp', 'mv', 'rm', 'ln', 'chmod', 'chown', 'tar', 'gzip', 'gunzip', 'unzip', 'zip', 'curl', 'wget', 'ssh', 'scp', 'rsync', 'docker', 'systemctl',
  'tmux', 'screen', 'crontab', 'hermes', 'tollgate', 'kill', 'pkill', 'killall',
]);

/** Folders the system's programs live in: linking one of them under its own name (or a shorter one) adds nothing. */
const systemProgram = /^\/(?:usr\/(?:local\/)?)?s?bin\/[^/]+$|^\/usr\/lib\//;

/** Debian's names for programs known by a shorter one elsewhere. */
const renamedPrograms: ReadonlyMap<string, readonly string[]> = new Map([['batcat', ['bat']], ['fdfind', ['fd']], ['nodejs', ['node']], ['vim.basic', ['vim', 'vi']], ['vim.tiny', ['vim', 'vi']],
  ['vim', ['vi']], ['nvim', ['vim', 'vi']], ['gawk', ['awk']], ['mawk', ['awk']], ['gmake', ['make']], ['podman', ['docker']], ['bsdtar', ['tar']], ['pigz', ['gzip']]]);
const versionless = (name: string): string => name.replace(/[-.]?[0-9][0-9.]*$/, '');
/** `python3.12` or `python3` for python, `batcat` for bat, `fdfind` for fd: the placed name is the source's own. */
const ownName = (source: string, name: string): boolean => {
  const base = source.split('/').pop() ?? '';
  return base === name || versionless(base) === versionless(name) || renamedPrograms.get(base)?.includes(name) === true;
};

/**
 * Why a placement takes over a command name, or null: a guard program under another name, or a name the floor
 * reads by what it is given something other than the system's own program of that name.
 */
export const takesOverName = (placement: Placement): string | null => {
  const byName = placement.place === 'command-name' || placement.place.byName;
  if (!byName) return null;
  const name = placement.placed.split('/').pop() ?? '';
  const base = placement.written.replace(/\/+$/, '').split('/').pop() ?? '';
  if (guardPrograms.test(placement.written) && base !== name) return `${placement.written}, a program of the guard's, run as ${name}`;
  if (!namesTheFloorReads.has(name)) return null;
  if (placement.source !== null && systemProgram.test(placement.source) && ownName(placement.source, name)) return null;
  return `${placement.written} run whenever ${name} is`;
};

/**
 * Whether a hook's source is a file of the same project (`cp hooks/pre-commit .git/hooks/`): inside the work tree
 * the hooks folder belongs to (the folder holding `.git`, `.husky`, `.githooks`). Such a file is the project's
 * own, as its hooks are; read when it exists, and judged by its text like any script the project runs.
 */
export const projectOwnSource = (source: string, placed: string): boolean => {
  const segments = placed.split('/');
  const at = segments.findIndex((s) => s === '.git' || hookFolderNames.has(s));
  if (at < 0) return false;
  const root = lexicalPath(segments.slice(0, at).join('/') || '.');
  const file = lexicalPath(source);
  if (file.split('/').includes('..') || /[$`~]/.test(file)) return false;
  if (root === '.' || root === '') return !file.startsWith('/');
  return file.startsWith(`${root}/`);
};

/** '.' and '..' resolved in relative paths too (`.git/hooks/../../x` is `x`; a `..` past the start stays). */
const lexicalPath = (path: string): string => {
  if (path.startsWith('/')) return normalizePath(path);
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..' && out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else out.push(segment);
  }
  return out.join('/') || '.';
};

/** Folders anyone (or any later call) may write: a link or hashed path into one runs what is put there later. */
export const temporaryFolder = /^\/(?:tmp|var\/tmp|dev\/shm|run\/user\/[^/]+)(?:\/|$)/;

export const placementExamples = {
  stops: ['cp /tmp/evil /home/agent/project/.git/hooks/post-checkout', 'ln -s /tmp/evil .git/hooks/pre-commit', 'cp ~/x.sh .git/hooks/', 'install -m 755 /tmp/h .husky/pre-commit',
    'cp -r /tmp/h/. .git/hooks', 'rsync -a host:hooks/ .git/hooks/', 'mv "$F" .git/hooks/pre-push', 'cp /tmp/evil /usr/local/bin/ls', 'install -m 755 fx/a.sh /usr/local/bin/git',
    'ln -sf /usr/bin/hermes ~/.local/bin/ls', 'hash -p /usr/bin/hermes ls', 'hash -p ./a.sh ls', 'ln -s /usr/bin/hermes ~/bin/h', 'cp /bin/rm ~/.local/bin/ls',
    'git config core.hooksPath hk && cp /tmp/e hk/pre-commit', 'cp -t .git/hooks /tmp/evil', 'ln -s "$(command -v tollgate)" ~/.local/bin/cat',
    "printf '#!/bin/sh\\necho ok\\n' > /tmp/h; ln -s /tmp/h .git/hooks/pre-commit", 'cp -r /tmp/evil/.git /home/agent/project/', 'cd /tmp && cp evil /home/agent/project/.git/hooks/pre-commit', 'ln -s ../../../x .git/hooks/pre-commit'],
  allows: ['install -m 755 build/mytool /usr/local/bin/mytool', 'ln -s $(pwd)/bin/tool ~/.local/bin/tool', 'ln -s /usr/bin/batcat ~/.local/bin/bat', 'ln -s /usr/bin/python3 ~/.local/bin/python', 'ln -s /usr/bin/nvim ~/.local/bin/vim',
    'cp build/app /home/agent/project/bin/ls', 'cd /home/agent/project && cp hooks/pre-commit .git/hooks/pre-commit', 'cp scripts/pre-push .husky/pre-push',
    'ln -s ../../scripts/pre-commit .git/hooks/pre-commit', "printf '#!/bin/sh\\nnpm test\\n' > /tmp/h; cp /tmp/h .git/hooks/pre-commit", 'cp src/hooks/a.ts src/hooks/b.ts', 'hash -r', 'hash ls',
    'install -d /usr/local/bin', 'cat hooks/pre-commit > .git/hooks/pre-commit', "echo 'npm test' > .git/hooks/pre-commit", 'curl -o ~/.local/bin/kubectx https://example.com/k', 'curl -Lo ~/.local/bin/kubectl https://example.com/k', 'cp /usr/bin/nvim ~/.local/bin/vi',
    'ls > /tmp/bin.txt', 'cat a b > out/bin.txt', 'cp .git/hooks/pre-commit.sample /tmp/x', 'ln -s /usr/local/bin/hermes ~/.local/bin/hermes', 'cp -r src /home/agent/project/build'],
};
