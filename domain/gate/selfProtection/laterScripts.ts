/**
 * Text that another program runs for the agent later or out of the floor's sight (a pager or editor a variable
 * names, a git alias or hook, a cron entry, a shell startup file) is judged by its words; a script file that text
 * runs is not read then. So such text may run only scripts the agent's user cannot plant: programs in the system's
 * folders. `GIT_PAGER='sh /tmp/x'`, `source /tmp/x` in ~/.bashrc, `* * * * * ~/x.sh`: refused, whatever /tmp/x holds
 * now (it can be rewritten before the pager or the next shell runs it). Relative names are left to the rest of the floor.
 */

/** Folders of installed programs, which the agent's user does not write in an ordinary setup. */
const systemFolders = /^\/(?:usr|bin|sbin|lib|lib64|lib32|opt|etc|snap|nix|System|Library|Applications)\//;

/** A script word given to an interpreter, or a path run as a command, starting with `/` or `~`. */
// A file path: `~/x`, or an absolute one of two segments or more (`/error` in `less +/error` is a search).
const path = String.raw`(?:~\/[^\s;&|)'"\`]+|\/[^\s/;&|)'"\`]+\/[^\s;&|)'"\`]*)`;
const interpreterRun = new RegExp(String.raw`(?:^|[\s;&|(\`'"!])(?:sh|bash|dash|zsh|ksh|mksh|ash|fish|source|\.|exec|env|nohup|python[0-9.]*|node|nodejs|perl|ruby|php|deno|bun)\s+(?:-[\w-]+\s+)*(['"]?)(${path})\1`, 'g');
const commandRun = new RegExp(String.raw`(?:^|[\n;&|(\`'"!]|&&|\|\|)\s*(?:\*\s+\*\s+\*\s+\*\s+\*\s+|@\w+\s+)?(${path})`, 'g');

/**
 * A home's own set-up files (`~/.bash_aliases`, `~/.cargo/env`, `~/.nvm/nvm.sh`): a dot folder or file right below the
 * home. Startup files source them all the time, and the floor guards the common ones as startup files themselves.
 */
const homeDotFile = /^(?:~|\/root|\/home\/[^/]+)\/\./;

const trusted = (path: string): boolean => systemFolders.test(path) || homeDotFile.test(path) || (path.startsWith('/dev/') && !path.startsWith('/dev/shm/')) || path === '/' || path === '~';

/** The first script outside the system's folders (and the home's dot files) that the text runs, or null. */
export const unreadScriptRun = (text: string): string | null => {
  if (!text.includes('/') && !text.includes('~')) return null;
  for (const m of text.matchAll(interpreterRun)) if (!trusted(m[2]!)) return m[2]!;
  for (const m of text.matchAll(commandRun)) if (!trusted(m[1]!)) return m[1]!;
  return null;
};

export const laterScriptExamples = {
  stops: ['sh /tmp/x', 'source /tmp/x', '. ~/x.sh', 'source /home/agent/e.txt', '. /dev/shm/x', "bash -e '/home/agent/x'", '/tmp/x --flag', '* * * * * ~/x.sh', '@reboot /home/agent/run', 'less; python3 /tmp/p.py', 'exec /tmp/x "$@"'],
  allows: ['less -R', '+/error', '/error', 'source ~/.bash_aliases', '. "$HOME/.cargo/env"', '. ~/.nvm/nvm.sh', 'source /root/.profile', 'sh /usr/local/bin/pager.sh', '/usr/bin/vim', 'source /etc/profile', 'echo hi > /dev/null', 'ls ~/projects', 'cat /tmp/x', '0 3 * * * /usr/local/bin/backup.sh', 'bash ./build.sh'],
};

/** `systemd-run [--user] [--on-active=60] sh /tmp/x`: a unit runs the command later, out of sight; its script must be the system's. */
export const transientUnitScript = (program: string, args: readonly string[], via: readonly string[] = [], programPath = program): string | null => {
  if (program === 'systemd-run') return unreadScriptRun(args.filter((a) => !a.startsWith('-')).join(' '));
  // The walk unwraps `systemd-run … CMD` into CMD, reached through it.
  return via.some((v) => v.startsWith('systemd-run')) ? unreadScriptRun([programPath, ...args].join(' ')) : null;
};

export const transientUnitExamples = {
  stops: ['systemd-run --user --on-active=60 sh /tmp/x', 'systemd-run --user --on-calendar=hourly /tmp/x', 'systemd-run --user --unit=zz /tmp/x'],
  allows: ['systemd-run --user --scope npm run dev', 'systemd-run --on-active=30 /usr/bin/touch /tmp/done'],
};
