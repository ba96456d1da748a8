/**
 * The file-system facts of one tool call, looked up before decide and recorded in its ProposeToolCall: for each
 * path word (the file tools' paths, a patch's headers, path-like words and redirect targets of the command line,
 * path literals of a code cell) resolved as the floor resolves it, its real path when a symlink is on the way
 * (of the longest prefix that exists) and whether it is a folder. Cheap by design: words without a '/' are
 * skipped (a relative one is also judged by its cwd-resolved form) and the count is capped.
 */
import { existsSync, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { startDirectory, type CallPathFacts } from '../../domain/gate/selfProtection/callPathFacts.ts';
import { patchTargets } from '../../domain/gate/selfProtection/patchTargets.ts';
import { toolPathWords } from '../../domain/gate/selfProtection/toolPaths.ts';
import { isPattern, protectionIndex, resolvePath, type PathContext } from '../../domain/gate/selfProtection/protectedPaths.ts';
import type { ProtectionFacts } from '../../domain/gate/selfProtection/protectionFacts.ts';
import { pythonStringLiterals } from '../../domain/gate/selfProtection/pythonCode.ts';
import { contextOf, lineScope } from '../../domain/gate/selfProtection/shellScope.ts';
import { argWords } from '../../domain/gate/selfProtection/shellOperands.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';

/** More paths than this in one call are not looked up (the floor still judges them as written). */
const maxPaths = 48;
const copyPrograms = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);

export interface CallPathInput {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly shell: ShellAnalysis | null;
  /** The agent's working directory as its runtime reported it; only an absolute one is used. */
  readonly cwd: string | null;
}

export const callPathFacts = (input: CallPathInput, protection: ProtectionFacts): CallPathFacts => {
  const cwd = input.cwd !== null && input.cwd.startsWith('/') ? normalizePath(input.cwd) : null;
  const absolutes = new Set<string>();
  const context: PathContext = { home: protection.home, hermesHome: protection.hermesHome, cwd };
  if (cwd !== null) absolutes.add(cwd);
  const workdir = typeof input.args['workdir'] === 'string' ? input.args['workdir'] : null;
  // A file tool's path is a path even without a '/': below a folder reached through a link, its real place counts.
  const linkedCwd = cwd !== null && realPathOf(cwd) !== cwd;
  for (const key of ['path', 'file_path', 'notebook_path']) if (typeof input.args[key] === 'string') addPath(absolutes, input.args[key] as string, context, linkedCwd);
  if (input.tool === 'patch') for (const path of patchTargets(input.args).paths) addPath(absolutes, path, context, linkedCwd);
  // Hermes' other tools (text_to_speech's output_path, file:// URLs, an MCP tool's paths): toolPaths.ts names them.
  for (const path of toolPathWords(input.tool, input.args)) addPath(absolutes, path, context);
  if (input.tool === 'execute_code' && typeof input.args['code'] === 'string') for (const text of pythonStringLiterals(input.args['code'])) addPath(absolutes, text, context);
  if (input.shell !== null) {
    const linkedFolders = new Map<string, boolean>();
    const scope = lineScope(input.shell, protectionIndex(protection), startDirectory(workdir, cwd));
    for (const command of input.shell.commands) {
      const at = contextOf(scope, command);
      if (at.cwd !== null) absolutes.add(at.cwd);
      // `cd ~/link && echo x > config.yaml`, a cwd reached through a link: every plain word there may be a file behind it.
      const linked = at.cwd !== null && (linkedFolders.get(at.cwd) ?? linkedFolders.set(at.cwd, realPathOf(at.cwd) !== at.cwd).get(at.cwd)!);
      for (const word of [command.programPath, ...argWords(command), ...command.redirects.map((r) => r.target)]) addPath(absolutes, word, at, linked && !word.startsWith('-'));
      // A copy's destination names a folder even without a '/' (`cp evil/tollgate.yaml main`).
      const last = command.args[command.args.length - 1];
      if (copyPrograms.has(command.program) && last !== undefined && !last.startsWith('-')) addPath(absolutes, last, at, true);
    }
  }
  const links: Record<string, string> = {};
  const dirs: string[] = [];
  for (const path of absolutes) {
    const real = realPathOf(path);
    if (real !== path) links[path] = real;
    if (!isPattern(path) && isDirectory(real)) dirs.push(path);
  }
  return { cwd, links, dirs };
};

/** Adds a word's absolute form (words without a '/' only when `any`: a relative one is also judged by its tail). */
const addPath = (absolutes: Set<string>, word: string, at: PathContext, any = false): void => {
  if (absolutes.size >= maxPaths || (!any && !word.includes('/'))) return;
  const absolute = resolvePath(word, at)?.absolute;
  if (absolute != null) absolutes.add(absolute);
};

/**
 * The real path of the longest prefix that exists, with the rest appended (a file not created yet, a glob). A
 * dangling link on the way is followed by its text: writing through it creates the file it names.
 */
const realPathOf = (path: string, depth = 0): string => {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    // Most words name nothing on disk yet: asking first avoids an exception per missing path.
    const real = existsSync(at) ? realPath(at) : null;
    if (real !== null) return rest.length === 0 ? real : join(real, ...rest);
    if (at === '/' || at === '') return path;
    const target = depth < 8 ? linkText(at) : null;
    if (target !== null) return realPathOf(normalizePath(join(resolve(dirname(at), target), ...rest)), depth + 1);
    rest.unshift(basename(at));
    at = dirname(at);
  }
};

const realPath = (path: string): string | null => {
  try {
    return realpathSync.native(path);
  } catch {
    return null;
  }
};

const linkText = (path: string): string | null => {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() === true ? readlinkSync(path) : null;
  } catch {
    return null;
  }
};

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
};
