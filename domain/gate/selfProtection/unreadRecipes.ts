/**
 * A task runner's recipe file (a makefile, package.json scripts, justfile, Taskfile, …) that the floor cannot read
 * before the runner reads it (red team 8): relative to a folder the gate lost track of (`cd "$(mktemp -d)"; make`)
 * or behind an unknown (`make -C "$D"`), or put there on the same line by a download, copy or extraction whose
 * text the line does not show (`curl -o Makefile … && make`). Its recipes may be anything, so it is refused; a
 * recipe file simply absent from a known folder runs nothing and passes.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { PathContext } from './protectedPaths.ts';
import { resolvePath } from './protectedPaths.ts';
import type { RunFile } from './scriptReaders.ts';
import { operandsOf } from './shellOperands.ts';
import { contextOf, type LineScope } from './shellScope.ts';
import { startedCommand } from './folderRewriters.ts';
import { recipeRunnerNames } from './recipeFiles.ts';


const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) || '/' : '.');
const nameOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Whether an earlier command of the line writes this file (or pours a folder over it) with text the line does not give. */
const producedEarlier = (absolute: string, command: SimpleCommand, scope: LineScope): string | null => {
  const commands = scope.analysis.commands;
  const at = commands.indexOf(command);
  for (let i = 0; i < at; i++) {
    const other = commands[i]!;
    const context = contextOf(scope, other);
    const resolve = (w: string) => resolvePath(w, context)?.absolute ?? null;
    const operands = operandsOf(other);
    if (operands.readOnly) continue;
    if (operands.writes.some((w) => resolve(w) === absolute)) return other.text;
    // A folder poured whole (an archive extracted): its files' text is unknown. A git checkout or pull brings the
    // repository's own files, read before the next line as any other (`git pull && npm install` is ordinary work).
    if (other.program !== 'git' && (operands.fills ?? []).some((w) => resolve(w) === folderOf(absolute))) return other.text;
    if ((operands.landings ?? []).some((l) => resolve(l.dir) === folderOf(absolute) && l.names.some((n) => nameOf(n) === nameOf(absolute)))) return other.text;
  }
  return null;
};

/**
 * Why this recipe file cannot be read before it runs, or null. `writtenHere`: the line itself writes its text
 * (then that text is judged instead). `pastReadLimit`: the file was not read because the line named more files
 * than are read before decide (scriptFacts.ts), so whether it exists is unknown too.
 */
export const unreadRecipe = (file: RunFile, command: SimpleCommand, scope: LineScope, context: PathContext, writtenHere: boolean, pastReadLimit = false): string | null => {
  if (writtenHere || file.path === '-') return null;
  // The runner itself, or the one a runner starts (`npx just`).
  const program = recipeRunnerNames.has(command.program) ? command.program : startedCommand(command)?.program;
  if (program === undefined || !recipeRunnerNames.has(program)) return null;
  if (program === 'npm' && file.as !== 'package-scripts') return null;
  const absolute = resolvePath(file.path, context)?.absolute ?? null;
  if (pastReadLimit) return `${file.path}, a recipe file named after more files than the floor reads before a line runs`;
  if (absolute === null) {
    const unknown = context.lost === true || /[$`]/.test(file.path);
    return unknown ? `${file.path}, a recipe file ${program} reads from a folder the floor does not know` : null;
  }
  const producer = producedEarlier(absolute, command, scope);
  return producer === null ? null : `${file.path}, a recipe file put there by \`${producer}\` with text the floor cannot read`;
};
