/**
 * The human socket's file modes. Without a group it stays as listenOnSocket made it (0600 in a 0700 folder): only
 * the daemon's user, which in the single-user setup is also the agent's. With `server.human_group` the folder is
 * 0750 and the socket 0660, both in that group, so the approvers may enter and the agent's user (not a member) may
 * not — that is what makes it a separate channel.
 */
import { chmodSync, chownSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/** A group's id from a number or a name in /etc/group. */
export const groupId = (group: string): number => {
  if (/^\d+$/.test(group)) return Number(group);
  const line = readFileSync('/etc/group', 'utf8').split('\n').find((l) => l.split(':')[0] === group);
  const gid = line?.split(':')[2];
  if (gid === undefined || !/^\d+$/.test(gid)) throw new Error(`server.human_group: no group "${group}" in /etc/group`);
  return Number(gid);
};

export const humanSocketAccess = (path: string, group: string | null): void => {
  if (group === null) return;
  const gid = groupId(group);
  const dir = dirname(path);
  // Opening a folder to a group must not open anything else in it (the data folder, the runtime socket).
  const others = readdirSync(dir).filter((name) => name !== basename(path));
  if (others.length > 0) throw new Error(`server.human_socket needs a folder of its own to open to group ${group}; ${dir} also holds ${others.slice(0, 3).join(', ')}`);
  chownSync(dir, -1, gid);
  chmodSync(dir, 0o750);
  chownSync(path, -1, gid);
  chmodSync(path, 0o660);
};
