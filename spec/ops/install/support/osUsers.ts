/**
 * Real OS users for the separate-principal tests: random names (tgtest-…), removed in an after hook even when a test
 * fails; commands run as them with runuser (or setpriv, which execs, so a child's pid is the program's own).
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { randomBytes } from 'node:crypto';

export const isRoot = (): boolean => process.getuid?.() === 0;

/** Skips the suite when not root, saying why (the tests create users and change owners). */
export const requireRoot = (): void => {
  before(function () {
    if (isRoot()) return;
    console.warn(`\n  SKIPPED: the separate-principal tests create real OS users (useradd) and files owned by them, which needs root (uid 0; this run is uid ${process.getuid?.()}). CI runs them as root.\n`);
    this.skip();
  });
};

export interface TestAccounts {
  readonly suffix: string;
  readonly agent: string;
  readonly approver: string;
  /** Names `install system` creates (--user, --group, --approver-group). */
  readonly daemonUser: string;
  readonly approverGroup: string;
}

const quiet = (command: string, args: string[]) => spawnSync(command, args, { encoding: 'utf8' });

/** Creates the agent and the approver (login users without a home); the after hook removes them and the install's. */
export const useTestAccounts = (): { readonly current: TestAccounts } => {
  const suffix = randomBytes(3).toString('hex');
  const accounts: TestAccounts = {
    suffix, agent: `tgtest-agent-${suffix}`, approver: `tgtest-appr-${suffix}`, daemonUser: `tgtest-tg-${suffix}`, approverGroup: `tgtest-ap-${suffix}`,
  };
  before(function () {
    if (!isRoot()) return;
    for (const user of [accounts.agent, accounts.approver]) {
      const made = quiet('useradd', ['--no-create-home', '--home-dir', '/nonexistent', '--shell', '/bin/sh', user]);
      if (made.status !== 0) throw new Error(`useradd ${user}: ${made.stderr}`);
    }
  });
  after(function () {
    if (!isRoot()) return;
    for (const user of [accounts.agent, accounts.approver, accounts.daemonUser]) quiet('userdel', [user]);
    for (const group of [accounts.agent, accounts.approver, accounts.daemonUser, accounts.approverGroup]) quiet('groupdel', [group]);
  });
  return { current: accounts };
};

const env = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', HOME: '/nonexistent', LANG: 'C.UTF-8' };

/** Runs a command as `user` (runuser: its supplementary groups included) and waits. */
export const asUser = (user: string, command: readonly string[], input?: string): SpawnSyncReturns<string> =>
  spawnSync('runuser', ['-u', user, '--', ...command], { encoding: 'utf8', env, cwd: '/', timeout: 30_000, ...(input === undefined ? {} : { input }) });

/** Starts a long-running program as `user` with setpriv, which execs: the child's pid is the program's. */
export const spawnAsUser = (user: string, command: readonly string[]): ChildProcess =>
  spawn('setpriv', ['--reuid', user, '--regid', user, '--init-groups', '--', ...command], { env, cwd: '/', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * Skips the suite (with the reason) when `user` cannot run `path`: a clone under a folder other users cannot enter
 * (a 0700 `mktemp -d`, a private home) keeps the Hermes venv out of the agent's reach. `.ci/run` puts the venv in a
 * shared folder (`TOLLGATE_E2E_VENV`), so CI always runs these suites.
 */
export const skipUnlessRunnableBy = (context: Mocha.Context, user: string, path: string): void => {
  if (asUser(user, ['test', '-x', path]).status === 0) return;
  console.log(`      (skipped: ${user} cannot run ${path}; set TOLLGATE_E2E_VENV to a folder other users can enter)`);
  context.skip();
};
