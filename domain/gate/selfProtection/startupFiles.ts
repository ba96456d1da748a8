/**
 * Files a program reads at start and runs as code (or as commands) without being asked: Python's site hooks, git's,
 * ssh's and npm's configuration, systemd units, cron tables, the dynamic loader's preload list. A write to one is set-up
 * for a later innocent call (`git status`, `npm test`, any `python3`, Hermes itself): what runs then is what the
 * file says, and the floor never sees it. So a write blocks whatever its content. Reading stays allowed.
 *
 * Not here: the shells' own startup and logout files (~/.bashrc, ~/.zshenv, /etc/bash.bashrc, config.fish …), git hooks and
 * files in a PATH folder, which are judged as scripts by their content (inlineCode.ts' scriptLanguage), and a unit file written anywhere else (`/tmp/x.service`), harmless until
 * `systemctl link` or `enable` takes it in (persistenceCommands.ts refuses that).
 */

export interface StartupFileRow {
  readonly name: string;
  readonly why: string;
  /** Segments of the path (absolute ones start at the root), the home's segments, and whether the path is absolute. */
  readonly test: (segments: readonly string[], home: readonly string[] | null, absolute: boolean) => boolean;
  /** Absolute paths written for exampleFacts (home /home/agent): a write must block, and must not. */
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

/** Whether `segments` start with the home's segments followed by `rest`. */
const underHome = (segments: readonly string[], home: readonly string[] | null, ...rest: string[]): boolean => {
  if (home === null || segments.length < home.length + rest.length) return false;
  for (let i = 0; i < home.length; i++) if (segments[i] !== home[i]) return false;
  for (let i = 0; i < rest.length; i++) if (segments[home.length + i] !== rest[i]) return false;
  return true;
};

const pythonHooks = new Set(['usercustomize.py', 'sitecustomize.py']);
/** Modules Python programs import at start (Hermes and its plugin among them): a file of that name beside a script shadows it. */
const commonModules = new Set(['os', 'sys', 'json', 'socket', 'ssl', 'hmac', 'hashlib', 're', 'subprocess', 'typing', 'pathlib', 'logging', 'base64', 'time',
  'random', 'io', 'abc', 'enum', 'functools', 'collections', 'asyncio', 'threading', 'signal', 'select', 'shutil', 'tempfile', 'urllib', 'http', 'email',
  'uuid', 'datetime', 'inspect', 'importlib', 'contextlib', 'dataclasses', 'copy', 'struct', 'string', 'textwrap', 'argparse', 'platform', 'site', 'codecs',
  'yaml', 'requests', 'httpx', 'openai', 'pydantic', 'certifi', 'urllib3', 'idna', 'six', 'typing_extensions']);
const pythonCode = /\.(?:py|pyc|pyd|so|pth)$/;
const packageFolders = new Set(['site-packages', 'dist-packages']);
const npmFiles = new Set(['.npmrc', '.yarnrc', '.yarnrc.yml', 'bunfig.toml', '.bunfig.toml']);
/** The folders systemd reads units and their environment from: `<x>/systemd/…` where x is one of these. */
/** Rc files in the home that an editor, terminal or REPL runs as commands when it starts. */
const toolRcNames = new Set(['.vimrc', '.gvimrc', '.exrc', '.nvimrc', '.tmux.conf', '.screenrc', '.sqliterc', '.psqlrc', '.gdbinit', '.lldbinit', '.Rprofile', '.irbrc', '.pryrc',
  '.inputrc', '.lessopen', '.wgetrc', '.curlrc', '.mailcap',
  // Red team 10: Mercurial's hooks, nano's speller, mysql's pager, Python's PYTHONSTARTUP file, the editor crontab -e and
  // sensible-editor start. (.pdbrc, .octaverc and IPython's startup are loader files, judged by content: loaderFiles.ts.)
  '.hgrc', '.nanorc', '.my.cnf', '.pythonrc', '.pythonrc.py', '.selected_editor', '.guile', '.sbclrc']);
const xdgRcFolders = new Set(['nvim', 'vim', 'tmux', 'gdb', 'irb']);
const systemdParents = new Set(['.config', 'etc', 'lib', 'share', 'run']);

/** Files and folders under /etc whose entries the system runs later, as root, outside any tool call. */
const systemRunLater: readonly (readonly string[])[] = [
  ['rc.local'], ['update-motd.d'], ['pam.d'], ['sudoers'], ['sudoers.d'], ['apt', 'apt.conf.d'], ['udev', 'rules.d'], ['network', 'interfaces'],
  ['network', 'interfaces.d'], ['logrotate.d'], ['tmpfiles.d'], ['ld.so.preload'], ['ld.so.conf'], ['ld.so.conf.d'],
  ['NetworkManager', 'dispatcher.d'], ['incron.d'], ['anacrontab'], ['at.allow'], ['init.d'], ['rc0.d'], ['rc1.d'], ['rc2.d'], ['rc3.d'], ['rc5.d'], ['rc6.d'],
];

export const startupFileRows: readonly StartupFileRow[] = [
  {
    name: 'system-run-later',
    why: 'The system runs these later as root, outside any tool call: rc.local and init scripts at boot, update-motd.d and pam.d at each login, apt hooks at each install, udev rules on each device event, sudoers, the dynamic loader\'s preload list.',
    test: (segments, _home, absolute) => absolute && segments[0] === 'etc' && systemRunLater.some((rest) => rest.every((s, i) => segments[1 + i] === s)),
    stops: ['/etc/rc.local', '/etc/update-motd.d/99-zz', '/etc/pam.d/common-session', '/etc/sudoers.d/zz', '/etc/apt/apt.conf.d/99zz', '/etc/udev/rules.d/99-zz.rules',
      '/etc/network/interfaces', '/etc/logrotate.d/zz', '/etc/tmpfiles.d/zz.conf', '/etc/ld.so.preload'],
    allows: ['/etc/hosts', '/etc/nginx/nginx.conf', '/etc/apt/sources.list.d/x.list', '/home/agent/project/etc/rc.local'],
  },
  {
    name: 'python-site-hooks',
    why: "site.py imports usercustomize and sitecustomize from any folder on the path and runs every import line of a .pth file in site-packages at each Python start: Hermes (and its tollgate plugin) is Python.",
    test: (segments) => {
      const last = segments[segments.length - 1]!;
      // Anywhere: a folder on PYTHONPATH (`export PYTHONPATH=src` is allowed) holding one runs it at every start.
      if (pythonHooks.has(last)) return true;
      return last.endsWith('.pth') && packageFolders.has(segments[segments.length - 2] ?? '');
    },
    stops: ['/home/agent/.local/lib/python3.11/site-packages/usercustomize.py', '/home/agent/.local/lib/python3.11/site-packages/zz.pth',
      '/usr/lib/python3/dist-packages/a.pth', '/etc/python3.11/sitecustomize.py', '/opt/venv/lib/python3.12/site-packages/sitecustomize.py', '/home/agent/project/src/sitecustomize.py'],
    allows: ['/home/agent/project/docs/usercustomize.md', '/home/agent/project/data.pth.txt', '/home/agent/project/models/best.pth',
      '/home/agent/project/src/requests/models.py'],
  },
  {
    name: 'python-installed-code',
    why: "Code an interpreter imports from where it is installed runs in every Python program that imports it, Hermes and its tollgate plugin included: a module in site-packages or dist-packages, the standard library under /usr/lib/pythonX.Y, and a module named like a common one put in a folder of executables, where a Python script's own folder comes first on its import path (pipx and uv put Hermes' launcher in ~/.local/bin).",
    test: (segments, _home, absolute) => {
      const last = segments[segments.length - 1]!;
      if (!pythonCode.test(last)) return false;
      if (segments.some((s) => packageFolders.has(s))) return true;
      if (absolute && segments[0] === 'usr' && /^python3(?:\.\d+)?$/.test((segments[1] === 'local' ? segments[3] : segments[2]) ?? '') && (segments[1] === 'lib' || (segments[1] === 'local' && segments[2] === 'lib'))) return true;
      return segments[segments.length - 2] === 'bin' && commonModules.has(last.replace(/\.[a-z]+$/, ''));
    },
    stops: ['/home/agent/.local/lib/python3.11/site-packages/yaml/__init__.py', '/usr/lib/python3/dist-packages/requests/api.py', '/usr/lib/python3.11/site.py',
      '/usr/local/lib/python3.12/json/__init__.py', '/home/agent/.local/bin/json.py', '/usr/local/bin/socket.py', '/opt/venv/lib/python3.12/site-packages/openai/__init__.py'],
    allows: ['/home/agent/project/src/app/models.py', '/home/agent/project/tools/json.py', '/home/agent/.local/bin/mytool', '/home/agent/project/bin/build.py', '/usr/lib/python3.11/README.txt'],
  },
  {
    name: 'git-config',
    why: 'git runs the commands its configuration names (core.fsmonitor, core.pager, aliases with !, filters, diff.external) on ordinary calls like git status and git log.',
    test: (segments, home, absolute) => {
      const last = segments[segments.length - 1]!;
      if ((last === 'config' || last === 'config.worktree') && segments.includes('.git')) return true;
      if (!absolute) return false;
      return (last === '.gitconfig' && underHome(segments, home, '.gitconfig') && segments.length === (home?.length ?? 0) + 1)
        || (underHome(segments, home, '.config', 'git') && last === 'config') || (segments[0] === 'etc' && last === 'gitconfig' && segments.length === 2);
    },
    stops: ['/home/agent/project/.git/config', '/home/agent/.gitconfig', '/home/agent/.config/git/config', '/etc/gitconfig', '/home/agent/project/.git/modules/lib/config'],
    allows: ['/home/agent/project/config/app.yaml', '/home/agent/project/.gitignore', '/home/agent/project/.git/COMMIT_EDITMSG', '/home/agent/project/docs/gitconfig'],
  },
  {
    name: 'ssh-config',
    why: 'ssh runs the ProxyCommand, LocalCommand and KnownHostsCommand of its configuration on every later ssh, scp and git push, and ~/.ssh/rc at each login.',
    test: (segments, home, absolute) => {
      if (!absolute) return false;
      const last = segments[segments.length - 1]!;
      if (underHome(segments, home, '.ssh')) return segments.length === (home?.length ?? 0) + 2 && (last === 'config' || last === 'rc');
      return segments[0] === 'etc' && segments[1] === 'ssh' && (last === 'ssh_config' || last === 'sshrc' || segments[2] === 'ssh_config.d');
    },
    stops: ['/home/agent/.ssh/config', '/home/agent/.ssh/rc', '/etc/ssh/ssh_config.d/x.conf'],
    allows: ['/home/agent/.ssh/known_hosts.md', '/home/agent/project/ssh/config', '/home/agent/.ssh/id_ed25519.pub'],
  },
  {
    name: 'npm-config',
    why: "npm, yarn and bun read .npmrc/.yarnrc/bunfig.toml from the home and the project: node-options, script-shell, yarnPath and bun's preload there run code in every later call (npm test starts it).",
    test: (segments, home, absolute) => {
      const last = segments[segments.length - 1]!;
      if (npmFiles.has(last)) return true;
      return absolute && last === 'npmrc' && (segments[segments.length - 2] === 'etc' || underHome(segments, home, '.config', 'npm'));
    },
    stops: ['/home/agent/.npmrc', '/home/agent/project/.npmrc', '/usr/local/etc/npmrc', '/home/agent/project/.yarnrc.yml', '/home/agent/.bunfig.toml'],
    allows: ['/home/agent/project/.npmignore', '/home/agent/project/package.json', '/home/agent/project/docs/npmrc.md'],
  },
  {
    name: 'systemd-units',
    why: "systemd starts what a unit in its folders says (the user's own manager included), and environment.d sets variables (LD_PRELOAD) for every service.",
    test: (segments, _home, absolute) => {
      if (!absolute) return false;
      for (let i = 1; i < segments.length - 1; i++) {
        if ((segments[i] === 'systemd' || segments[i] === 'environment.d') && systemdParents.has(segments[i - 1]!)) return true;
      }
      return false;
    },
    stops: ['/home/agent/.config/systemd/user/x.service', '/etc/systemd/system/x.service', '/home/agent/.local/share/systemd/user/x.timer',
      '/home/agent/.config/environment.d/10-x.conf', '/usr/lib/systemd/user/x.service'],
    allows: ['/home/agent/project/deploy/app.service', '/home/agent/project/docs/systemd/notes.md'],
  },
  {
    name: 'cron-tables',
    why: 'cron runs the system tables and every user spool file on its own schedule, outside any call the guard sees.',
    test: (segments, _home, absolute) => {
      if (!absolute || segments.length < 2) return false;
      if (segments[0] === 'etc') return segments[1] === 'crontab' || segments[1] === 'anacrontab' || segments[1]!.startsWith('cron.');
      return segments[0] === 'var' && segments[1] === 'spool' && ['cron', 'anacron', 'at', 'atjobs'].includes(segments[2] ?? '');
    },
    stops: ['/etc/cron.d/x', '/etc/crontab', '/etc/cron.daily/x', '/var/spool/cron/crontabs/agent', '/var/spool/cron/agent'],
    allows: ['/home/agent/project/etc/cron.d/job', '/home/agent/project/crontab.txt', '/etc/hosts'],
  },
  {
    name: 'loader-preload',
    why: 'The dynamic loader maps every library listed in /etc/ld.so.preload into every program started, Hermes and tollgate included.',
    test: (segments, _home, absolute) => absolute && segments[0] === 'etc' && (segments[1] === 'ld.so.preload' || segments[1] === 'ld.so.conf' || segments[1] === 'ld.so.conf.d'),
    stops: ['/etc/ld.so.preload', '/etc/ld.so.conf.d/x.conf'],
    allows: ['/home/agent/project/etc/ld.so.preload.md'],
  },
  {
    name: 'login-environment',
    why: 'pam_env and the login shells set the variables of /etc/environment and ~/.pam_environment (LD_PRELOAD, NODE_OPTIONS) for every later session, Hermes included; sshd runs the command= of an authorized key at each login with it.',
    test: (segments, home, absolute) => {
      if (!absolute) return false;
      const last = segments[segments.length - 1]!;
      if (segments[0] === 'etc') return (segments.length === 2 && last === 'environment') || (segments[1] === 'security' && last === 'pam_env.conf');
      if (last === '.pam_environment') return underHome(segments, home, '.pam_environment') && segments.length === (home?.length ?? 0) + 1;
      return (last === 'authorized_keys' || last === 'authorized_keys2') && underHome(segments, home, '.ssh') && segments.length === (home?.length ?? 0) + 2;
    },
    stops: ['/etc/environment', '/home/agent/.pam_environment', '/etc/security/pam_env.conf', '/home/agent/.ssh/authorized_keys'],
    allows: ['/home/agent/project/etc/environment', '/home/agent/project/docs/authorized_keys', '/home/agent/project/.pam_environment.md'],
  },
  {
    name: 'tool-rc-files',
    why: "Editors, terminals and REPLs run their rc file's commands at start (vim's autocmd !, tmux run-shell, sqlite's .shell, gdb's shell, R's and irb's system()): the next innocent vim or tmux runs what it says.",
    test: (segments, home, absolute) => {
      if (!absolute) return false;
      const last = segments[segments.length - 1]!;
      if (toolRcNames.has(last)) return underHome(segments, home) && segments.length === (home?.length ?? 0) + 1;
      // The XDG spellings: ~/.config/nvim/init.vim, ~/.config/tmux/tmux.conf.
      if (underHome(segments, home, '.config') && xdgRcFolders.has(segments[(home?.length ?? 0) + 1] ?? '')) return true;
      // Commands other tools run from their config: kubeconfig's exec, aws's credential_process, cargo's wrappers and
      // runners, pip's config (its build settings run setup code).
      const rest = home === null ? [] : segments.slice(home.length);
      return underHome(segments, home) && (/^\.(?:kube\/config|aws\/config|aws\/credentials|cargo\/config(?:\.toml)?|cargo\/env|config\/pip\/pip\.conf|pip\/pip\.conf)$/.test(rest.join('/')));
    },
    stops: ['/home/agent/.vimrc', '/home/agent/.tmux.conf', '/home/agent/.sqliterc', '/home/agent/.gdbinit', '/home/agent/.Rprofile', '/home/agent/.irbrc',
      '/home/agent/.config/nvim/init.lua', '/home/agent/.config/tmux/tmux.conf', '/home/agent/.hgrc', '/home/agent/.my.cnf', '/home/agent/.selected_editor',
      '/home/agent/.kube/config', '/home/agent/.aws/config', '/home/agent/.cargo/config.toml', '/home/agent/.cargo/env',
      '/home/agent/.config/pip/pip.conf'],
    allows: ['/home/agent/project/.vimrc', '/home/agent/project/.Rprofile', '/home/agent/project/docs/tmux.conf', '/home/agent/.config/app/settings.json'],
  },
];

/** The row a path falls under, if any; the last segment's cheap checks come first (most paths are none of these). */
export const startupFileRow = (segments: readonly string[], home: readonly string[] | null, absolute: boolean): StartupFileRow | null => {
  if (segments.length === 0) return null;
  for (const row of startupFileRows) if (row.test(segments, home, absolute)) return row;
  return null;
};

/** Segments one of the rows needs in the path (or the working directory): protectedPaths' cheap shortcut keeps them. */
export const startupFileSegments: readonly string[] = [
  'usercustomize.py', 'sitecustomize.py', 'site-packages', 'dist-packages', 'python3', ...Array.from({ length: 12 }, (_, i) => `python3.${i + 6}`), '.git', '.gitconfig', 'git', 'gitconfig', '.npmrc', '.yarnrc', '.yarnrc.yml', 'npmrc',
  'bunfig.toml', '.bunfig.toml', '.ssh', 'ssh',
  'systemd', 'environment.d', 'crontab', 'anacrontab', 'cron.d', 'cron.hourly', 'cron.daily', 'cron.weekly', 'cron.monthly', 'spool', 'ld.so.preload', 'ld.so.conf', 'ld.so.conf.d',
  'environment', '.pam_environment', 'pam_env.conf', 'authorized_keys', 'authorized_keys2', ...toolRcNames, '.config', '.kube', '.aws', '.cargo', '.pip',
];
