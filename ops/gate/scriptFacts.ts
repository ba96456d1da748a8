/**
 * Reads the scripts a command line runs from disk (see domain/gate/selfProtection/scriptFacts.ts and scriptReaders.ts), before decide:
 * at most a few files, the first 256 KiB of each, text only (a binary program is recorded as empty).
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { makefileIncludes } from '../../domain/gate/selfProtection/embeddedLanguages.ts';
import { startDirectory } from '../../domain/gate/selfProtection/callPathFacts.ts';
import { protectionIndex, resolvePath, type PathContext } from '../../domain/gate/selfProtection/protectedPaths.ts';
import type { ProtectionFacts } from '../../domain/gate/selfProtection/protectionFacts.ts';
import { interpreterPrograms, maxScriptFiles, scriptWords, type ScriptFacts } from '../../domain/gate/selfProtection/scriptFacts.ts';
import { runFiles } from '../../domain/gate/selfProtection/scriptReaders.ts';
import { scriptKey, unknownFolder } from '../../domain/gate/selfProtection/scriptKeys.ts';
import { nestedScriptWords } from '../../domain/gate/selfProtection/nestedScripts.ts';
import { writtenTexts } from '../../domain/gate/selfProtection/commandRules.ts';
import { includeMark, recipeIncludes, unreadMark } from '../../domain/gate/selfProtection/recipeFiles.ts';
import { besideComposeFile, composeIncludes } from '../../domain/gate/selfProtection/composeFiles.ts';
import { curlConfigFiles } from '../../domain/gate/selfProtection/curlClients.ts';
import { contextOf, lineScope } from '../../domain/gate/selfProtection/shellScope.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';

const maxScripts = maxScriptFiles;
const maxBytes = 256 * 1024;

/** The start of a file's text ('' for a binary), or null when it is not a readable regular file. */
export type ReadFileStart = (path: string) => string | null;

export const scriptFacts = (
  shell: ShellAnalysis | null, args: Readonly<Record<string, unknown>>, cwd: string | null, protection: ProtectionFacts, read: ReadFileStart = readFileStart,
  tool = 'terminal',
): ScriptFacts => {
  const out: Record<string, string> = {};
  const start = cwd !== null && cwd.startsWith('/') ? normalizePath(cwd) : null;
  // What a written file or a code cell runs in turn (nestedScripts.ts): read now, so the floor judges it too.
  const handed = [...writtenTexts(tool, args).map((w) => w.text), ...(tool === 'execute_code' && typeof args['code'] === 'string' ? [args['code']] : [])];
  if (handed.length > 0) {
    const context: PathContext = { home: protection.home, hermesHome: protection.hermesHome, cwd: start };
    for (const text of handed) readNested(text, context, out, read);
  }
  if (shell === null) return out;
  const workdir = typeof args['workdir'] === 'string' ? args['workdir'] : null;
  const scope = lineScope(shell, protectionIndex(protection), startDirectory(workdir, start));
  for (const command of shell.commands) {
    // Files the shell or an interpreter runs, then those other programs run as scripts (awk -f, make, npm run, …).
    const files = runFiles(command, shell);
    const makefiles = new Set(files.filter((f) => f.as === 'makefile').map((f) => f.path));
    const composeFiles = new Set(files.filter((f) => f.as === 'compose').map((f) => f.path));
    // justfiles and Taskfiles pull in other files (import, mod, includes): read with them, as makefiles are.
    const includers = new Map(files.flatMap((f): [string, 'just' | 'taskfile'][] => f.as === 'taskfile' ? [[f.path, 'taskfile']] : f.as === 'shell' && /(?:^|\/)\.?[Jj]ustfile$/.test(f.path) ? [[f.path, 'just']] : []));
    // curl's -K files too: the curl row judges what they name, and one it could not read counts as naming the guard.
    const configs = command.program === 'curl' ? curlConfigFiles(command.args).filter((f) => f !== '-') : [];
    // Only where the floor judges it (commandRules.ts): an interpreter's inline code, a script a writer puts in a file
    // (printf's and echo -e's `\n` read as writesScript reads them). `cat /etc/hosts` reads no file for the facts.
    if (interpreterPrograms.test(command.program) || writesOnLine(command)) {
      const said = [...command.args, command.stdin ?? ''].join('\n');
      readNested(`${said}\n${said.replace(/\\n/g, '\n')}`, contextOf(scope, command), out, read);
    }
    for (const word of [...scriptWords(command), ...files.map((f) => f.path), ...configs]) {
      // An absolute path from disk; a relative one in an unknown folder only from what eval recorded (scriptKeys.ts).
      const path = scriptKey(word, contextOf(scope, command));
      if (path == null || path in out) continue;
      if (Object.keys(out).length >= maxScripts) return out;
      const text = read(path);
      if (text !== null) out[path] = makefiles.has(word) ? withIncludes(path, text, read) : includers.has(word) ? withRecipeIncludes(path, text, includers.get(word)!, read) : text;
      if (text !== null) readNested(text, contextOf(scope, command), out, read);
      // The compose files it includes or extends, beside it, one level deep (the judge reads them from here).
      if (text !== null && composeFiles.has(word)) {
        for (const included of composeIncludes(text).slice(0, maxScripts)) {
          const at = resolvePath(besideComposeFile(word, included), contextOf(scope, command))?.absolute;
          if (at == null || at in out || Object.keys(out).length >= maxScripts) continue;
          const more = read(at);
          if (more !== null) out[at] = more;
        }
      }
    }
  }
  return out;
};

/** echo, printf, cat or tee putting text in a file (the texts writesScript judges). */
const writesOnLine = (command: ShellAnalysis['commands'][number]): boolean =>
  /^(?:echo|printf|cat|tee)$/.test(command.program) && (command.program === 'tee' || command.redirects.some((r) => /^(?:>|>>|>\|)$/.test(r.op)));

/** The files a text runs in turn, read once each, while the cap allows. */
const readNested = (text: string, context: PathContext, out: Record<string, string>, read: ReadFileStart): void => {
  for (const word of nestedScriptWords(text)) {
    const key = scriptKey(word, context);
    if (key === null || key in out || Object.keys(out).length >= maxScripts) continue;
    const found = read(key);
    if (found !== null) out[key] = found;
  }
};

/** A makefile as make sees it: the files it includes (beside it, as `make -C` runs there) appended, two levels deep. */
const withIncludes = (path: string, text: string, read: ReadFileStart, depth = 0): string => {
  if (depth >= 2) return text;
  const parts = [text];
  for (const word of makefileIncludes(text).slice(0, maxScripts)) {
    const included = read(word.startsWith('/') ? word : normalizePath(`${dirname(path)}/${word}`));
    if (included !== null) parts.push(withIncludes(path, included, read, depth + 1));
  }
  return parts.join('\n');
};

/** A justfile or Taskfile with the files it includes appended after include marks (an unread one marked), two levels deep. */
const withRecipeIncludes = (path: string, text: string, kind: 'just' | 'taskfile', read: ReadFileStart, depth = 0): string => {
  if (depth >= 2) return text;
  const parts = [text];
  for (const { candidates, optional } of recipeIncludes(kind, text).slice(0, maxScripts)) {
    const found = candidates.map((c) => (c.startsWith('/') ? c : normalizePath(`${dirname(path)}/${c}`))).map((c) => [c, read(c)] as const).find(([, t]) => t !== null);
    if (found !== undefined) parts.push(`${includeMark}${found[0]}\n${withRecipeIncludes(found[0], found[1]!, kind, read, depth + 1)}`);
    else if (!optional) parts.push(`${unreadMark}${candidates[0] ?? 'a remote file'}`);
  }
  return parts.join('\n');
};

export const readFileStart: ReadFileStart = (path) => {
  // Only absolute paths are read: a key below the unknown folder (scriptKeys.ts) names nothing on this disk.
  if (!path.startsWith('/') || path.startsWith(unknownFolder)) return null;
  try {
    if (!statSync(path).isFile()) return null;
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(maxBytes);
      const read = readSync(fd, buffer, 0, maxBytes, 0);
      const bytes = buffer.subarray(0, read);
      return bytes.includes(0) ? '' : bytes.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
};
