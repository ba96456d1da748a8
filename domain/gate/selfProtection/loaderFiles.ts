/**
 * Files a program loads at its next start and runs what they say (red team 8): editors' and REPLs' init files,
 * desktop autostart entries, shell completions, direnv's .envrc, X session scripts, prompt and hook configs. Unlike
 * startupFiles.ts' rows (refused whatever they hold), these are written often with harmless text (`(setq x 1)`,
 * `alias ll='ls -l'`, `export FOO=1`), so a write is judged by its text, read in the language the file is written
 * in (loaderFileTexts.ts), and refused when the floor cannot read it (`cp /tmp/x ~/.emacs`: placedCode.ts names the
 * file a run-later place, so persistenceCommands.ts refuses a source it cannot read).
 * Pure: no I/O.
 */
import { globSegmentMatches } from './protectedPaths.ts';

/**
 * How the text is read: `shell` lines are commands; `code` is a language with calls that run commands (elisp,
 * Julia, Vim script, a debugger's commands), read as code and as shell text; `settings` are `key = value` lines whose
 * values may be command lines; `environment` is NAME=VALUE lines set for what starts later; `docker` names helper
 * programs and plugin folders.
 */
export type LoaderLanguage = 'shell' | 'python' | 'code' | 'settings' | 'environment' | 'docker';

export interface LoaderFileRow {
  readonly name: string;
  readonly why: string;
  readonly language: LoaderLanguage;
  /** The path's segments below the home (null when it is not in the home) and all its segments. */
  readonly test: (inHome: readonly string[] | null, segments: readonly string[]) => boolean;
  /** Paths (home /home/agent) whose write is judged by this row, and paths no row judges. */
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

const last = (segments: readonly string[]): string => segments[segments.length - 1] ?? '';
/** `inHome` is exactly these segments. */
const is = (inHome: readonly string[] | null, ...rest: string[]): boolean => inHome !== null && inHome.length === rest.length && rest.every((s, i) => inHome[i] === s);
/** `inHome` starts with these folders and has one more segment (a file right in the folder). */
const fileIn = (inHome: readonly string[] | null, ...folder: string[]): boolean =>
  inHome !== null && inHome.length === folder.length + 1 && folder.every((s, i) => inHome[i] === s);
const systemFileIn = (segments: readonly string[], ...folder: string[]): boolean =>
  segments.length === folder.length + 1 && folder.every((s, i) => segments[i] === s);

const shellHomeFiles = new Set(['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout', '.kshrc', '.mkshrc',
  '.bash_completion', '.xprofile', '.xinitrc', '.xsession', '.xsessionrc', '.xserverrc', '.Xclients', '.direnvrc']);
const shellEtcFiles = new Set(['profile', 'bash.bashrc', 'bash.bash_logout', 'zshenv', 'zprofile', 'zshrc', 'zlogin', 'zlogout', 'bash_completion', 'xprofile']);

export const loaderFileRows: readonly LoaderFileRow[] = [
  {
    name: 'shell-startup',
    why: "bash, zsh and fish run their startup and logout files, completions and X session scripts as commands at the next shell or login; copied from a file the floor cannot read, they hold anything.",
    language: 'shell',
    test: (inHome, segments) => {
      const name = last(segments);
      if (inHome !== null && inHome.length === 1 && shellHomeFiles.has(name)) return true;
      if (segments[0] === 'etc') {
        if (segments.length === 2) return shellEtcFiles.has(name);
        if (segments.length === 3) return segments[1] === 'profile.d' || segments[1] === 'bash_completion.d' || segments[1] === 'zsh' || (segments[1] === 'X11' && name === 'Xsession');
      }
      // fish reads config.fish from its own folders (~/.config/fish, /etc/fish), not from any folder of that name.
      if ((name === 'config.fish' && segments[segments.length - 2] === 'fish') || (name.endsWith('.fish') && (segments[segments.length - 2] === 'conf.d' || segments[segments.length - 2] === 'functions') && segments.includes('fish'))) return true;
      // bash-completion sources every file of these folders when a command's completion is first asked for.
      return fileIn(inHome, '.local', 'share', 'bash-completion', 'completions') || fileIn(inHome, '.bash_completion.d')
        || systemFileIn(segments, 'usr', 'share', 'bash-completion', 'completions');
    },
    stops: ['/home/agent/.bashrc', '/home/agent/.zshenv', '/home/agent/.bash_completion', '/home/agent/.local/share/bash-completion/completions/git', '/home/agent/.xprofile',
      '/home/agent/.xinitrc', '/home/agent/.xsessionrc', '/home/agent/.config/fish/conf.d/x.fish', '/etc/profile.d/x.sh', '/etc/bash_completion.d/x'],
    allows: ['/home/agent/project/.bashrc.md', '/home/agent/project/profile', '/home/agent/.local/share/notes.txt', '/srv/app/build/config.fish'],
  },
  {
    name: 'direnv',
    why: "direnv sources an allowed .envrc at every cd into its folder, and its own direnvrc and lib/ files before each .envrc.",
    language: 'shell',
    test: (inHome, segments) => last(segments) === '.envrc' || is(inHome, '.config', 'direnv', 'direnvrc') || fileIn(inHome, '.config', 'direnv', 'lib'),
    stops: ['/home/agent/project/.envrc', '/home/agent/.config/direnv/direnvrc', '/home/agent/.config/direnv/lib/x.sh', '/tmp/x/.envrc'],
    allows: ['/home/agent/project/.env', '/home/agent/project/envrc.md'],
  },
  {
    name: 'x-autostart',
    why: "The desktop session runs the Exec= line of every entry in the autostart folders at the next login.",
    language: 'settings',
    test: (inHome, segments) => last(segments).endsWith('.desktop') && (fileIn(inHome, '.config', 'autostart') || systemFileIn(segments, 'etc', 'xdg', 'autostart')),
    stops: ['/home/agent/.config/autostart/x.desktop', '/etc/xdg/autostart/x.desktop'],
    allows: ['/home/agent/.local/share/applications/x.desktop.md', '/home/agent/project/x.desktop'],
  },
  {
    name: 'emacs-init',
    why: "Emacs evaluates ~/.emacs, init.el and early-init.el at start (shell-command, call-process, start-process run programs).",
    language: 'code',
    test: (inHome, segments) => {
      const name = last(segments);
      if (is(inHome, '.emacs') || is(inHome, '.emacs.el')) return true;
      if (!name.endsWith('.el') || inHome === null || inHome.length < 2) return false;
      return inHome[0] === '.emacs.d' || (inHome[0] === '.config' && inHome[1] === 'emacs');
    },
    stops: ['/home/agent/.emacs', '/home/agent/.emacs.d/init.el', '/home/agent/.config/emacs/early-init.el', '/home/agent/.emacs.d/lisp/x.el'],
    allows: ['/home/agent/project/init.el', '/home/agent/.emacs.d/notes.txt'],
  },
  {
    name: 'repl-and-debugger-init',
    why: "pdb, the Perl debugger and Octave read their rc file from the home and the working folder, Julia its startup.jl, kakoune its kakrc, at each start: their commands run programs (`!`, system(), %sh{}).",
    language: 'code',
    test: (inHome, segments) => {
      const name = last(segments);
      if (name === '.pdbrc' || name === '.perldb' || name === '.octaverc') return true;
      return is(inHome, '.julia', 'config', 'startup.jl') || is(inHome, '.config', 'kak', 'kakrc') || fileIn(inHome, '.config', 'kak', 'autoload');
    },
    stops: ['/home/agent/.pdbrc', '/home/agent/project/.pdbrc', '/home/agent/.perldb', '/home/agent/.octaverc', '/home/agent/.julia/config/startup.jl', '/home/agent/.config/kak/kakrc'],
    allows: ['/home/agent/project/startup.jl', '/home/agent/.julia/environments/v1.10/Project.toml'],
  },
  {
    name: 'ipython-startup',
    why: "IPython runs every file of a profile's startup folder, and its config's exec_lines, at each start (Jupyter kernels too).",
    language: 'python',
    test: (inHome) => inHome !== null && inHome[0] === '.ipython' && inHome[1]?.startsWith('profile_') === true
      && ((inHome.length === 4 && inHome[2] === 'startup') || (inHome.length === 3 && inHome[2]!.endsWith('_config.py'))),
    stops: ['/home/agent/.ipython/profile_default/startup/00-x.py', '/home/agent/.ipython/profile_default/ipython_config.py'],
    allows: ['/home/agent/project/startup/00-x.md'],
  },
  {
    name: 'prompt-and-hook-configs',
    why: "starship runs its custom modules' command at every prompt; pre-commit runs a local hook's entry on the next git commit.",
    language: 'settings',
    test: (inHome, segments) => {
      const name = last(segments);
      return name === '.pre-commit-config.yaml' || name === '.pre-commit-hooks.yaml' || is(inHome, '.config', 'starship.toml');
    },
    stops: ['/home/agent/.config/starship.toml', '/home/agent/project/.pre-commit-config.yaml'],
    allows: ['/home/agent/project/starship.toml.md', '/home/agent/project/pre-commit.md'],
  },
  {
    name: 'project-tool-configs',
    why: "VS Code runs a folder's tasks with runOn folderOpen and its terminal profiles' shells when the folder opens; mise runs its hooks on entering the folder; cargo runs the rustc wrapper and runner its config names; Claude Code starts the MCP servers a project's .mcp.json names.",
    language: 'settings',
    test: (_inHome, segments) => {
      const name = last(segments);
      const parent = segments[segments.length - 2] ?? '';
      if (parent === '.vscode') return name === 'tasks.json' || name === 'settings.json';
      if (parent === '.cargo') return name === 'config.toml' || name === 'config';
      if (name === '.mise.toml' || name === 'mise.toml' || name === '.mcp.json') return true;
      return name === 'config.toml' && parent === 'mise';
    },
    stops: ['/home/agent/project/.vscode/tasks.json', '/srv/app/.vscode/settings.json', '/srv/app/.cargo/config.toml', '/srv/app/.mise.toml', '/home/agent/.config/mise/config.toml', '/srv/app/.mcp.json'],
    allows: ['/home/agent/project/tasks.json', '/srv/app/settings.json', '/srv/app/config.toml', '/srv/app/mise.md'],
  },
  {
    name: 'login-variables',
    why: "sshd sets ~/.ssh/environment's variables for every login, and less reads LESSOPEN and its other variables from lesskey files (LD_PRELOAD, a pager command).",
    language: 'environment',
    test: (inHome) => is(inHome, '.ssh', 'environment') || is(inHome, '.lesskey') || is(inHome, '.config', 'lesskey'),
    stops: ['/home/agent/.ssh/environment', '/home/agent/.lesskey', '/home/agent/.config/lesskey'],
    allows: ['/home/agent/project/environment', '/home/agent/project/lesskey.md'],
  },
  {
    name: 'docker-client-config',
    why: "docker runs docker-credential-<credsStore> (and each credHelpers name) on every pull and login, and plugins from cliPluginsExtraDirs as `docker <name>`.",
    language: 'docker',
    test: (inHome) => is(inHome, '.docker', 'config.json'),
    stops: ['/home/agent/.docker/config.json'],
    allows: ['/home/agent/project/.docker/config.json.md', '/home/agent/project/config.json'],
  },
];

/** Last segments any row can match on its own: most paths are none of these and end the look-up at once. */
const lastNames = new Set([...shellHomeFiles, ...shellEtcFiles, 'config.fish', 'Xsession', '.envrc', 'direnvrc', '.emacs', '.emacs.el', '.pdbrc', '.perldb', '.octaverc', 'startup.jl', 'kakrc',
  '.pre-commit-config.yaml', '.pre-commit-hooks.yaml', 'starship.toml', 'environment', '.lesskey', 'lesskey', 'config.json',
  'tasks.json', 'settings.json', 'config.toml', 'config', '.mise.toml', 'mise.toml', '.mcp.json']);
const projectRootNames = new Set(['.mise.toml', 'mise.toml', '.mcp.json']);
/** Folders whose every file one row judges (completions, profile.d, autostart, kak's autoload, IPython's startup …). */
const folderNames = new Set(['completions', '.bash_completion.d', 'profile.d', 'bash_completion.d', 'zsh', 'conf.d', 'functions', 'autostart', 'lib', '.emacs.d', 'emacs', 'autoload', 'startup']);

/** The path's segments below the home: the home given, else any spelling of one (`~`, `$HOME`, /root, /home/NAME). */
const homeRelative = (segments: readonly string[], home: readonly string[] | null, tilde: boolean): readonly string[] | null => {
  if (tilde) return segments.slice(1);
  if (home !== null && home.length > 0 && segments.length > home.length && home.every((s, i) => segments[i] === s)) return segments.slice(home.length);
  if (segments[0] === 'root') return segments.slice(1);
  return segments[0] === 'home' && segments.length > 2 ? segments.slice(2) : null;
};

/**
 * The row a written path falls under: absolute, `~/…`, `$HOME/…`, or relative to the working folder when known.
 * Null for most paths after a look at the last two segments.
 */
export const loaderFileRow = (path: string, home: string | null, cwd: string | null = null): LoaderFileRow | null => {
  const tilde = /^(?:~|\$HOME|\$\{HOME\})(?:\/|$)/.test(path);
  const full = tilde || path.startsWith('/') || cwd === null ? path : `${cwd}/${path}`;
  const segments = full.split('/').filter((s) => s !== '' && s !== '.');
  const name = segments[segments.length - 1];
  if (name === undefined) return null;
  // `for f in ~/.ba*rc; do … >> "$f"`: a pattern in the last name may be any known file it matches.
  if (/[*?[]/.test(name)) {
    for (const known of lastNames) {
      // Bash's `*` and `?` skip dot names unless the pattern starts with a dot (dotglob: persistenceCommands.ts).
      if (known.startsWith('.') && !name.startsWith('.')) continue;
      // A project's own tool files (any folder may be a project's root) count where they are named, not under every glob.
      if (projectRootNames.has(known)) continue;
      if (!globSegmentMatches(name, known, false)) continue;
      const row = loaderFileRow([...segments.slice(0, -1), known].join('/').replace(/^(?!~|\$)/, full.startsWith('/') ? '/' : ''), home, null);
      if (row !== null) return row;
    }
    return null;
  }
  if (!lastNames.has(name) && !folderNames.has(segments[segments.length - 2] ?? '') && !name.endsWith('.el') && !name.endsWith('_config.py')) return null;
  const absolute = tilde || full.startsWith('/');
  const inHome = absolute ? homeRelative(segments, home === null ? null : home.split('/').filter((s) => s !== ''), tilde) : null;
  // A relative path keeps its folders but never reads as a system one (`etc/profile.d/x` in a project).
  const all = absolute ? segments : ['.', ...segments];
  for (const row of loaderFileRows) if (row.test(inHome, all)) return row;
  return null;
};

/** File names that probe a folder: one of them inside it falls under a row when the folder's every file does. */
const folderProbes = ['x.desktop', 'x.fish', 'x.el', 'x.py', 'x.sh', 'x'];

/** Whether a folder (its segments; `~` first when the home is not known) holds files loaded at start: autostart, completions, profile.d … */
export const loaderFolder = (segments: readonly string[], home: readonly string[] | null): boolean => {
  if (segments.length === 0 || !folderNames.has(segments[segments.length - 1]!)) return false;
  const folder = segments[0] === '~' || segments[0] === '$HOME' ? segments.join('/') : `/${segments.join('/')}`;
  const homePath = home === null ? null : `/${home.join('/')}`;
  return folderProbes.some((probe) => loaderFileRow(`${folder}/${probe}`, homePath) !== null);
};

/** Whether a file (any name: `cp -r x ~/.config/autostart` lands `autostart/x`) lies in such a folder. */
export const inLoaderFolder = (path: string, home: string | null): boolean => {
  const folder = path.replace(/\/+$/, '').slice(0, Math.max(0, path.replace(/\/+$/, '').lastIndexOf('/')));
  if (!folderNames.has(folder.slice(folder.lastIndexOf('/') + 1))) return false;
  return folderProbes.some((probe) => loaderFileRow(`${folder}/${probe}`, home) !== null);
};

// ---- reading the text as the program does ----

/**
 * `key = value`, `key: value`, `Exec=cmd`, `- entry: cmd`: each value as a command line of its own (quotes taken
 * off), so a command after `=` or `:` is read where it starts.
 */
export const settingValues = (text: string): string => {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(?:-\s+)?[A-Za-z_][\w.\-[\]]*\s*[=:]\s*(.+)$/.exec(line);
    if (match === null) continue;
    out.push(match[1]!.trim().replace(/^(["'])([\s\S]*)\1$/, '$2'));
  }
  return out.join('\n');
};

export interface EnvironmentPair { readonly name: string; readonly value: string }

/** NAME=VALUE lines (`export` taken off, pam's `NAME DEFAULT=value` read too; comments and lesskey's `#env` skipped). */
export const environmentPairs = (text: string): EnvironmentPair[] => {
  const out: EnvironmentPair[] = [];
  for (const line of text.split('\n')) {
    // Not anchored: a line printed with its format in front (`printf '%s' 'A=1'`) still names A.
    const match = /(?:^|\s)(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)(?:\s+(?:DEFAULT|OVERRIDE))?\s*[+]?=\s*(.*)$/.exec(line);
    if (match !== null) out.push({ name: match[1]!, value: match[2]!.trim().replace(/^(["'])([\s\S]*)\1$/, '$2') });
  }
  return out;
};

/** Folders the system's own programs and plugins live in. */
const systemFolder = /^\/(?:usr|lib|lib32|lib64|opt|nix|snap)(?:\/|$)/;

/**
 * What in a docker config.json runs a program the floor does not know: a credential helper named by a path
 * (docker runs `docker-credential-<name>` from PATH, so a plain name is a program already judged where it was put),
 * or a plugin folder outside the system's. Read by its keys, not parsed: an appended piece is not whole JSON.
 */
export const dockerConfigRuns = (text: string): string | null => {
  if (!/credsStore|credHelpers|cliPluginsExtraDirs/.test(text)) return null;
  const helpers = [...text.matchAll(/"credsStore"\s*:\s*("[^"]*"|[^\s,}]+)/g)].map((m) => m[1]!);
  for (const block of text.matchAll(/"credHelpers"\s*:\s*(\{[^}]*\}?|[^\s,}]+)/g))
    for (const m of block[1]!.matchAll(/:\s*("[^"]*"|[^\s,}]+)/g)) helpers.push(m[1]!);
  // A key the reading cannot pair with a quoted value (`"credsStore": x`, a value built elsewhere) names it unread.
  if (/credsStore/.test(text) && helpers.length === 0) return 'a credential helper';
  for (const helper of helpers) if (!/^"[A-Za-z0-9_.-]*"$/.test(helper) || helper.includes('..')) return `credential helper ${helper}`;
  if (!/cliPluginsExtraDirs/.test(text)) return null;
  const dirs = /"cliPluginsExtraDirs"\s*:\s*\[([^\]]*)\]/.exec(text);
  if (dirs === null) return 'cliPluginsExtraDirs';
  for (const dir of dirs[1]!.split(',').map((d) => d.trim()).filter((d) => d !== '')) {
    const folder = /^"([^"]*)"$/.exec(dir)?.[1];
    if (folder === undefined || !systemFolder.test(folder) || folder.includes('..')) return `plugin folder ${dir}`;
  }
  return null;
};
