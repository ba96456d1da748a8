/**
 * The commands of a recipe (a makefile's recipes, a package script, a Taskfile's cmds, poe's and cargo make's
 * tasks, a justfile), judged as if they stood on the line in the folder they run in (red team 8): the recipe file's
 * folder, moved by a `cd DIR &&` on the same recipe line or by the runner's own directory key (Taskfile `dir:`,
 * just's `set working-directory`, poe's and cargo make's `cwd`). The text judges (inlineCode.ts) catch control
 * commands and protected paths named whole; these stand-ins catch what the shell table's rows catch, relative
 * names included (`rm -rf plugins` in a Hermes home, `prettier --write .` in tollgate's clone).
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import { normalizePath } from '../../shell/shellPaths.ts';
import type { CommandFinding, CommandRuleId } from './commandRules.ts';
import type { PathContext } from './protectedPaths.ts';
import { startedCommand } from './folderRewriters.ts';
import { folderMark, unreadMark } from './recipeFiles.ts';
import { protectionRules } from './shellRules.ts';
import type { LineScope } from './shellScope.ts';
import { runFileText, type RunFile } from './scriptReaders.ts';


/** Words of one rough command: quotes joined and removed, backslashes kept as written. */
const wordsOf = (text: string): string[] => {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s'"])+/g)) out.push(m[0].replace(/'([^']*)'|"((?:[^"\\]|\\.)*)"/g, (_a, s?: string, d?: string) => s ?? d ?? ''));
  return out;
};

/** Splits a recipe line at `;`, `&&`, `||`, `|` and `&` outside quotes. */
const partsOf = (line: string): string[] => {
  const out: string[] = [];
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) { if (c === quote) quote = null; else if (c === '\\' && quote === '"') i++; continue; }
    if (c === "'" || c === '"') { quote = c; continue; }
    if (c === '\\') { i++; continue; }
    if (c === ';' || c === '|' || c === '&') {
      out.push(line.slice(start, i));
      while (line[i + 1] === '|' || line[i + 1] === '&') i++;
      start = i + 1;
    }
  }
  out.push(line.slice(start));
  return out.map((p) => p.trim()).filter((p) => p !== '');
};

const wrappers = new Set(['sudo', 'env', 'exec', 'command', 'nohup', 'time', 'nice', 'then', 'do', 'else', '!', '{', '(']);
const standIn = (words: string[], text: string): SimpleCommand | null => {
  while (words.length > 0 && (wrappers.has(words[0]!) || /^[A-Za-z_]\w*=/.test(words[0]!) || /^[@+-]+$/.test(words[0]!))) words.shift();
  // make's `@cmd` and `-cmd` prefixes.
  if (words.length > 0) words[0] = words[0]!.replace(/^[@+-]+(?=[^@+-])/, '');
  const program = words[0];
  // Not a command: a rule header (`all: build`), a key (`desc:`), an assignment (`x = 1`), a comment.
  if (program === undefined || program.endsWith(':') || program.startsWith('#') || words[1] === '=' || words[1] === ':=' || /^[[\]{}]/.test(program)) return null;
  const args: string[] = [];
  const redirects: { op: string; target: string }[] = [];
  for (let i = 1; i < words.length; i++) {
    const r = /^(\d*>>?|&>>?|>\|)(.*)$/.exec(words[i]!);
    if (r === null) { args.push(words[i]!); continue; }
    redirects.push({ op: r[1]!.replace(/^\d+/, ''), target: r[2] !== '' ? r[2]! : words[++i] ?? '' });
  }
  return { program: program.slice(program.lastIndexOf('/') + 1), programPath: program, args, redirects, pipedFrom: [], via: [], text };
};

const moved = (dir: string, target: string, home: string | null): string | null => {
  const t = target.replace(/^~(?=\/|$)/, home ?? '~');
  if (/[$`~*?]/.test(t)) return null;
  return normalizePath(t.startsWith('/') ? t : `${dir}/${t}`);
};

/** Each command of the recipe text with the folder it runs in (null where a `cd` went somewhere the floor cannot follow). */
export const recipeCommands = (text: string, start: string, home: string | null): { command: SimpleCommand; dir: string | null }[] => {
  const out: { command: SimpleCommand; dir: string | null }[] = [];
  let base: string | null = start;
  for (const raw of text.split('\n')) {
    // A directory key moves the lines after it; an empty one goes back to the recipe file's folder.
    // just's `set working-directory := 'DIR'` and `[working-directory: 'DIR']` move the recipes after them.
    const just = /^\s*(?:set\s+working-directory\s*:=|\[\s*working-directory\s*:)\s*(?:'([^']*)'|"([^"]*)")/.exec(raw);
    if (just !== null) { base = base === null ? null : moved(base, just[1] ?? just[2]!, home); continue; }
    if (raw.startsWith(folderMark)) { const to = raw.slice(folderMark.length).trim(); base = to === '' ? start : base === null ? null : moved(base, to, home); continue; }
    // Each recipe line runs in a shell of its own: a `cd` moves only the rest of its line.
    let dir = base;
    for (const part of partsOf(raw)) {
      const words = wordsOf(part);
      if (words[0] === 'cd' || words[0] === 'pushd') { dir = dir === null || words[1] === undefined ? null : moved(dir, words[1], home); continue; }
      const command = standIn(words, part);
      if (command !== null) out.push({ command, dir });
    }
    if (out.length > 2000) break;
  }
  return out;
};

/** The first finding of the shell table's blocking rows for a recipe's commands, each judged where it runs. */
export const recipeCommandFindings = (text: string, recipeFolder: string, source: SimpleCommand, scope: LineScope, context: PathContext): CommandFinding[] => {
  // A file the recipe includes that could not be read first (ops/gate/scriptFacts.ts marked it): its recipes are unknown.
  const unread = text.indexOf(unreadMark);
  if (unread >= 0) return [{ id: 'hidden-command', what: `${text.slice(unread + unreadMark.length).split('\n')[0]}, a file the ${source.program} recipe includes that the floor could not read` }];
  for (const { command, dir } of recipeCommands(text, recipeFolder, context.home)) {
    const where: PathContext = dir === null ? { ...context, cwd: null, base: null, lost: true } : { ...context, cwd: dir, base: null, lost: false };
    const inner: LineScope = { ...scope, analysis: { ...scope.analysis, commands: [command] }, cwds: [where.cwd], bases: [null], contexts: [where], judged: new Map() };
    for (const rule of protectionRules) {
      if (rule.verdict !== 'block') continue;
      const what = rule.find(command, inner);
      if (what !== null) return [{ id: rule.id as CommandRuleId, what: `${command.text} (a recipe of ${source.program}, run in ${dir ?? 'a folder the floor cannot follow'}): ${what}` }];
    }
  }
  return [];
};

/** The recipe kinds whose text is commands (code recipes, rake's and invoke's, are judged as code). */
const commandKinds = new Set(['makefile', 'package-scripts', 'taskfile', 'poe', 'cargo-make']);
const shellRecipeRunners = new Set(['just', 'tox', 'ninja']);

/** A recipe file's commands judged where they run: the recipe file's folder (its text as scriptReaders.ts reads it). */
export const recipeFileFindings = (file: RunFile, content: string, absolute: string | null | undefined, source: SimpleCommand, scope: LineScope, context: PathContext): CommandFinding[] => {
  // The runner by its own name, or the one a runner starts (`npx just`).
  const runner = shellRecipeRunners.has(source.program) ? source.program : startedCommand(source)?.program ?? '';
  if (absolute == null || !(commandKinds.has(file.as) || (file.as === 'shell' && shellRecipeRunners.has(runner)))) return [];
  const read = runFileText(file, content);
  if (read === null || read.kind !== 'shell') return [];
  return recipeCommandFindings(read.text, absolute.slice(0, absolute.lastIndexOf('/')) || '/', source, scope, context);
};
