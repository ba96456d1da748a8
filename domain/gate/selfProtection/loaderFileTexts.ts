/**
 * The judge of loaderFiles.ts' rows: a file written now that a program loads at its next start, read in the
 * language its row says. Shell lines as a script; code (elisp, Julia, Vim script, a debugger's commands) as code
 * and as shell text, since its calls hand strings to a shell; settings by their values too (`Exec=…`, `entry: …`);
 * NAME=VALUE lines as variables exported for every later program; a docker config by the helpers it names.
 */
import { inlineCodeFindings, shellTextFindings, type CodeFinding } from './inlineCode.ts';
import { dockerConfigRuns, environmentPairs, loaderFileRow, settingValues, type LoaderFileRow } from './loaderFiles.ts';
import { loaderVariables, loadsForeignCode } from './persistenceCommands.ts';
import { commandVariables } from './embeddedCommands.ts';
import type { PathContext, ProtectionIndex } from './protectedPaths.ts';

/** Folders the system's own programs come from: a command that runs a file there runs nothing the agent wrote. */
const systemFolder = /^\/(?:usr|bin|sbin|lib|lib32|lib64|opt|nix|snap)(?:\/|$)/;
const interpreters = /^(?:ba|z|da|k|mk)?sh$|^(?:source|\.)$|^(?:python|python3|node|perl|ruby|php|lua|deno|bun)(?:[0-9.]*)$/;

/**
 * The file a command line runs that the floor cannot read now (`/tmp/lp.sh %s`, `|~/x`, `sh /tmp/e.sh`): its
 * program word as a path, or an interpreter's script. A path in the system's folders, or a bare name, is not.
 */
export const unreadFileRun = (command: string): string | null => {
  const words = command.replace(/^\s*[|!]+\s*/, '').trim().split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)).map((w) => w.replace(/^['"]|['"]$/g, ''));
  const first = words[0] ?? '';
  const script = interpreters.test(first.split('/').pop() ?? '') && !words.some((w) => /^-[A-Za-z]*c$|^-e$/.test(w)) ? words.slice(1).find((w) => !w.startsWith('-')) : undefined;
  for (const file of [first, script]) {
    if (file === undefined || !/[/$`]/.test(file)) continue;
    // `./scripts/lint.sh`: a file of the project, as its hooks are (its writes are judged where they happen).
    if (!/^[/~$`]/.test(file) && !file.split('/').includes('..')) continue;
    if (file.startsWith('/') && systemFolder.test(file) && !file.includes('..')) continue;
    return file;
  }
  return null;
};

/**
 * A code file's string literals read as one command, glued and spaced: `(concat "toll" "gate approve")`,
 * `(call-process "pkill" nil nil nil "-f" "tollgate serve")`, Lua's `"a" .. "b"` run what their literals spell.
 */
const literalViews = (content: string): string => {
  const literals = [...content.matchAll(/"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'/g)].map((m) => m[1] ?? m[2] ?? '');
  return literals.length < 2 ? '' : `\n${literals.join(' ')}\n${literals.join('')}`;
};

/** A temporary folder any later call may fill: a loader file that sources, loads or runs from it runs anything. */
const temporaryPath = /(?:^|[\s'"=(@:,[{]|\.\s)(\/(?:tmp|var\/tmp|dev\/shm)\/[^\s'"),;\]}]*)/m;
/** Keys whose value a settings file's program runs: a desktop entry's, pre-commit's, starship's. */
const commandKey = /^\s*(?:-\s+)?(?:Exec|TryExec|entry|command|when|shell)\s*[=:]\s*(.+)$/gm;

const unreadCode = (row: LoaderFileRow, content: string): CodeFinding | null => {
  if (row.language === 'environment' || row.language === 'docker') return null;
  const temporary = temporaryPath.exec(content);
  if (temporary !== null) return { id: 'hidden-command', what: `loads or runs ${temporary[1]}, which any later call may fill` };
  if (row.language !== 'settings') return null;
  for (const m of content.matchAll(commandKey)) {
    const file = unreadFileRun(m[1]!.trim().replace(/^(["'])([\s\S]*)\1$/, '$2'));
    if (file !== null) return { id: 'hidden-command', what: `runs ${file}, a file the floor cannot read` };
  }
  return null;
};

const textFindings = (row: LoaderFileRow, content: string, index: ProtectionIndex, context: PathContext): CodeFinding[] => {
  const unread = unreadCode(row, content);
  if (unread !== null) return [unread];
  switch (row.language) {
    case 'shell': return shellTextFindings(content, index, context);
    case 'python': return inlineCodeFindings(content, index, context);
    case 'code': {
      const code = inlineCodeFindings(content, index, context);
      return code.length > 0 ? code : shellTextFindings(content + literalViews(content), index, context);
    }
    case 'settings': return shellTextFindings(`${content}\n${settingValues(content)}`, index, context);
    case 'environment': return environmentFindings(content, index, context);
    case 'docker': {
      const runs = dockerConfigRuns(content);
      return runs !== null ? [{ id: 'hidden-command', what: `${runs}: a program the floor cannot read, run by every later docker call` }] : shellTextFindings(content, index, context);
    }
  }
};

/** NAME=VALUE lines: a loader variable that brings in foreign code, a command variable judged as its command. */
const environmentFindings = (content: string, index: ProtectionIndex, context: PathContext): CodeFinding[] => {
  for (const { name, value } of environmentPairs(content)) {
    if (loaderVariables.test(name) && loadsForeignCode(name, value, context.cwd)) return [{ id: 'hidden-command', what: `${name}: code loaded into every later program from where the floor cannot read` }];
    if (!commandVariables.test(name)) continue;
    const file = unreadFileRun(value);
    if (file !== null) return [{ id: 'hidden-command', what: `${name}: runs ${file}, a file the floor cannot read` }];
    const inner = shellTextFindings(value, index, context);
    if (inner.length > 0) return inner;
  }
  return shellTextFindings(content, index, context);
};

/**
 * Findings for a write of `content` to `path` when a program loads that path at its next start; null when the path
 * is no such file (the caller goes on with its other readings).
 */
export const loaderFileFindings = (path: string, content: string, index: ProtectionIndex, context: PathContext): CodeFinding[] | null => {
  const row = loaderFileRow(path, index.facts.home, context.cwd);
  if (row === null) return null;
  return textFindings(row, content, index, context).slice(0, 1).map((f) => ({ id: f.id, what: `${f.what} (${row.name}: loaded at the next start)` }));
};
