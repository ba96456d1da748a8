/**
 * Whether a process is still the one that registered: Linux /proc/<pid>/stat field 22 (start time in clock ticks
 * since boot) tells a live process from a reused pid. Anything unclear counts as alive, so a session is never
 * handed to a new registration on a guess.
 */
import { readFileSync } from 'node:fs';

/** The process's start time, or null when the platform does not say (no /proc) or the process does not exist. */
export const processStartTime = (pid: number): string | null => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces or ")": fields are counted after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null; // field 22 overall: the 20th after "pid (comm)"
  } catch {
    return null;
  }
};

/** True only when the registered process is known to be gone: no such pid, or a pid now held by a later process. */
export const processGone = (pid: number | null, startedAt: string | null): boolean => {
  if (pid === null || startedAt === null) return false;
  try {
    const now = processStartTime(pid);
    if (now !== null) return now !== startedAt;
    readFileSync('/proc/self/stat'); // /proc works, so the pid's entry is missing: the process is gone
    return true;
  } catch {
    return false;
  }
};
