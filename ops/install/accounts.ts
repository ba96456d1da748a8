/**
 * OS users and groups, read with getent and changed with the shadow tools (useradd, groupadd, usermod, userdel,
 * groupdel). Real accounts, never under a prefix: the separate-principal setup rests on distinct uids.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface UserEntry { readonly name: string; readonly uid: number; readonly gid: number; readonly home: string; readonly shell: string }
export interface GroupEntry { readonly name: string; readonly gid: number; readonly members: readonly string[] }

const getent = (database: 'passwd' | 'group', key: string): string[] | null => {
  const run = spawnSync('getent', [database, key], { encoding: 'utf8' });
  if (run.status !== 0 || run.stdout.trim() === '') return null;
  return run.stdout.trim().split('\n')[0]!.split(':');
};

export const lookupUser = (name: string): UserEntry | null => {
  const f = getent('passwd', name);
  return f === null ? null : { name: f[0]!, uid: Number(f[2]), gid: Number(f[3]), home: f[5] ?? '', shell: f[6] ?? '' };
};

export const lookupGroup = (name: string): GroupEntry | null => {
  const f = getent('group', name);
  return f === null ? null : { name: f[0]!, gid: Number(f[2]), members: (f[3] ?? '').split(',').filter((m) => m !== '') };
};

export const userNameOf = (uid: number): string | null => getent('passwd', String(uid))?.[0] ?? null;
export const groupNameOf = (gid: number): string | null => getent('group', String(gid))?.[0] ?? null;

/** Names of every group the user is in (primary and supplementary). */
export const groupsOfUser = (name: string): string[] => {
  const run = spawnSync('id', ['-nG', name], { encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim().split(/\s+/).filter((g) => g !== '') : [];
};

/** A login shell that refuses logins, as the distribution ships it. */
export const noLoginShell = (): string => ['/usr/sbin/nologin', '/sbin/nologin', '/usr/bin/false', '/bin/false'].find((s) => existsSync(s)) ?? '/usr/sbin/nologin';

const run = (command: string, args: readonly string[]): void => {
  try { execFileSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] }); } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${command} ${args.join(' ')} failed${stderr ? `: ${stderr}` : ''}`);
  }
};

export const addSystemGroup = (name: string): void => run('groupadd', ['--system', name]);

/** A system user whose primary group is `group`, with `home` as home (not created) and no login shell. */
export const addSystemUser = (name: string, group: string, home: string): void =>
  run('useradd', ['--system', '--gid', group, '--home-dir', home, '--no-create-home', '--shell', noLoginShell(), '--comment', 'tollgate daemon', name]);

export const addToGroup = (user: string, group: string): void => run('usermod', ['--append', '--groups', group, user]);
export const deleteUser = (name: string): void => run('userdel', [name]);
export const deleteGroup = (name: string): void => run('groupdel', [name]);
