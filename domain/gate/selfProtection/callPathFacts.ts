/**
 * What the file system says about the paths one tool call names, computed by ops/gate/callPathFacts.ts before
 * decide (the domain never touches the disk) and recorded in the ProposeToolCall so replay is exact: the agent's
 * working directory, where a path really leads when a symlink is on the way, and which named paths are folders.
 */
import { z } from 'zod';

export const callPathFactsSchema = z.object({
  /** The directory the agent's tools start in (Hermes' TERMINAL_CWD, a hook's `cwd`); null when not sent. */
  cwd: z.string().nullable(),
  /** Absolute path as written (normalised) -> its real path, only where the two differ (a symlink on the way). */
  links: z.record(z.string(), z.string()),
  /** Named absolute paths that are existing folders (`cp x /project` lands in /project/x). */
  dirs: z.array(z.string()),
});
export type CallPathFacts = z.infer<typeof callPathFactsSchema>;

export const noCallPathFacts: CallPathFacts = { cwd: null, links: {}, dirs: [] };

/**
 * Where a command line starts: the tool's `workdir` when absolute (or `~`-based, resolved later), else that
 * folder below the agent's working directory, else the working directory itself.
 */
export const startDirectory = (workdir: string | null, cwd: string | null): string | null => {
  if (workdir === null || workdir === '') return cwd;
  if (/^[/~$]/.test(workdir) || cwd === null) return workdir;
  return `${cwd}/${workdir}`;
};
