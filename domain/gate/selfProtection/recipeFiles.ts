/**
 * Task runners whose recipe file lies in the folder they run in (red team 8): go-task's Taskfile.yml, poe's
 * tasks in pyproject.toml, cargo make's Makefile.toml, and the Python task files invoke and nox run (their
 * `c.run("…")` and `session.run("a", "b")` are shell commands). Each file is turned into the text the floor's
 * judges read: the shell lines a recipe runs, or the Python with its run calls spelled as shell calls.
 * And the rule that a recipe file the floor cannot read before it runs is refused where that matters: relative
 * to a folder the gate lost track of, or fetched or copied on the same line (`curl -o Makefile … && make`).
 */
import { parse } from 'yaml';
import { parseOptions, type OptionGrammar } from '../../shell/commandOptions.ts';
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

/** Programs that read a recipe file from the folder they run in (the recipe rows of scriptReaders.ts). */
export const recipeRunnerNames: ReadonlySet<string> = new Set(['make', 'gmake', 'bmake', 'remake', 'npm', 'yarn', 'pnpm', 'bun', 'just', 'ninja', 'tox', 'rake', 'gulp', 'grunt',
  'invoke', 'inv', 'fab', 'nox', 'task', 'go-task', 'poe', 'cargo', 'cargo-make', 'makers']);

/** A line that moves the folder the recipe lines after it run in (a directory key); empty: back to the recipe's folder. */
export const folderMark = '\u0001cd ';

/**
 * Lines ops/gate/scriptFacts.ts puts between a recipe file and the files it includes (just's import and mod, a
 * Taskfile's includes): the included text follows an include mark; an unread mark names one that could not be read.
 */
export const includeMark = '\u0002include ';
export const unreadMark = '\u0002unread ';

/** The files a justfile or Taskfile pulls in, each as its candidate paths (relative to the including file) and whether it may be missing. */
export const recipeIncludes = (kind: 'just' | 'taskfile', text: string): { candidates: string[]; optional: boolean }[] => {
  if (kind === 'just') {
    const out: { candidates: string[]; optional: boolean }[] = [];
    for (const m of text.matchAll(/^\s*import(\?)?\s+(['"])(.+?)\2/gm)) out.push({ candidates: [m[3]!], optional: m[1] === '?' });
    for (const m of text.matchAll(/^\s*mod(\?)?\s+([A-Za-z_][\w-]*)(?:\s+(['"])(.+?)\3)?\s*$/gm))
      out.push({ candidates: m[4] !== undefined ? [m[4]] : [`${m[2]}.just`, `${m[2]}/mod.just`, `${m[2]}/justfile`, `${m[2]}/.justfile`], optional: m[1] === '?' });
    return out;
  }
  let doc: unknown;
  try { doc = parse(text, { maxAliasCount: 1000 }); } catch { return []; }
  const includes = doc !== null && typeof doc === 'object' ? (doc as { includes?: unknown }).includes : undefined;
  if (includes === null || typeof includes !== 'object') return [];
  return Object.values(includes as Record<string, unknown>).flatMap((v) => {
    const path = typeof v === 'string' ? v : v !== null && typeof v === 'object' && typeof (v as { taskfile?: unknown }).taskfile === 'string' ? (v as { taskfile: string }).taskfile : null;
    if (path === null || /^[a-z]+:\/\//.test(path)) return path === null ? [] : [{ candidates: [], optional: false }];
    const optional = typeof v === 'object' && v !== null && (v as { optional?: unknown }).optional === true;
    return [{ candidates: /\.ya?ml$/.test(path) ? [path] : taskfileNames.map((n) => `${path.replace(/\/+$/, '')}/${n}`), optional }];
  });
};

/** The readings this file adds to scriptReaders.ts's ReadAs. */
export type RecipeKind = 'taskfile' | 'poe' | 'cargo-make' | 'python-tasks';
export interface RecipeFile { readonly path: string; readonly as: RecipeKind }

const inFolder = (dir: string, name: string): string => (dir === '' || dir === '.' ? name : `${dir.replace(/\/+$/, '')}/${name}`);
const optionValue = (args: readonly string[], grammar: OptionGrammar, short: string, long: readonly string[]): string | undefined => {
  const options = parseOptions(args, grammar);
  const values = [short === '' ? undefined : options.short.get(short), ...long.map((l) => options.long.get(l))];
  return values.find((v): v is string => typeof v === 'string');
};

// ---- which file each runner reads ----

const taskfileNames = ['Taskfile.yml', 'taskfile.yml', 'Taskfile.yaml', 'taskfile.yaml', 'Taskfile.dist.yml', 'taskfile.dist.yml', 'Taskfile.dist.yaml', 'taskfile.dist.yaml'];
const taskGrammar: OptionGrammar = { shortWithValue: 'dtoC', longWithValue: ['dir', 'taskfile', 'output', 'concurrency', 'interval', 'sort'] };
/** go-task: `-t FILE`, else the Taskfile of `-d DIR` or the folder it runs in; listing, dry runs and --init run nothing. */
const taskFiles = (c: SimpleCommand): RecipeFile[] => {
  if (c.args.some((a) => ['-l', '--list', '--list-all', '-a', '-n', '--dry', '--summary', '--init', '-i', '--version', '-h', '--help'].includes(a))) return [];
  const file = optionValue(c.args, taskGrammar, 't', ['taskfile']);
  if (file !== undefined) return [{ path: file, as: 'taskfile' }];
  const dir = optionValue(c.args, taskGrammar, 'd', ['dir']) ?? '';
  return taskfileNames.map((n) => ({ path: inFolder(dir, n), as: 'taskfile' }));
};

/** poe: the pyproject.toml of `-C DIR` / `--root DIR`, else the folder's. */
const poeFiles = (c: SimpleCommand): RecipeFile[] => {
  if (c.args.some((a) => ['--help', '-h', '--version'].includes(a)) || c.args.length === 0) return [];
  const dir = optionValue(c.args, { shortWithValue: 'C', longWithValue: ['root', 'directory'] }, 'C', ['root', 'directory']) ?? '';
  return [{ path: inFolder(dir, 'pyproject.toml'), as: 'poe' }];
};

/** cargo make (also `cargo-make make`, `makers`): `--makefile FILE`, else Makefile.toml of `--cwd DIR` or the folder. */
const cargoMakeFiles = (args: readonly string[]): RecipeFile[] => {
  if (args.some((a) => ['--help', '-h', '--version', '-V', '--list-all-steps', '--print-steps'].includes(a))) return [];
  const grammar: OptionGrammar = { shortWithValue: 'pelt', longWithValue: ['makefile', 'cwd', 'profile', 'env-file', 'env', 'loglevel', 'time-summary', 'output-format'] };
  const file = optionValue(args, grammar, '', ['makefile']);
  if (file !== undefined) return [{ path: file, as: 'cargo-make' }];
  return [{ path: inFolder(optionValue(args, grammar, '', ['cwd']) ?? '', 'Makefile.toml'), as: 'cargo-make' }];
};

/** The recipe files a runner reads; empty for other commands. */
export const recipeFilesOf = (c: SimpleCommand): RecipeFile[] => {
  switch (c.program) {
    case 'task': case 'go-task': return taskFiles(c);
    case 'poe': return poeFiles(c);
    case 'makers': return cargoMakeFiles(c.args);
    case 'cargo-make': return c.args[0] === 'make' ? cargoMakeFiles(c.args.slice(1)) : cargoMakeFiles(c.args);
    case 'cargo': return c.args[0] === 'make' ? cargoMakeFiles(c.args.slice(1)) : [];
    default: return [];
  }
};

/** A recipe file written now by one of these names, to be judged as it will run; null for other names. */
export const writtenRecipeFile = (path: string): RecipeFile | null => {
  const name = path.slice(path.lastIndexOf('/') + 1);
  if (taskfileNames.includes(name)) return { path, as: 'taskfile' };
  if (name === 'pyproject.toml') return { path, as: 'poe' };
  if (name === 'Makefile.toml') return { path, as: 'cargo-make' };
  return null;
};

// ---- the text a recipe runs ----

const unquote = (text: string): string => {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t[t.length - 1] === t[0]) return t.slice(1, -1).replace(/\\"/g, '"').replace(/''/g, "'");
  return t;
};

/**
 * A Taskfile as the shell lines it runs: each `cmds` item, `cmd:`/`sh:` value and block-scalar line, with list
 * dashes, keys and quotes taken off. Other keys stay as words the shell would not run (`desc:` is no program).
 */
export const taskfileText = (content: string): string =>
  content.split(/^(?=\u0002)/m).map((part) => {
    // The files it includes, appended by ops/gate/scriptFacts.ts: each read on its own, unread marks kept.
    if (part.startsWith(unreadMark)) return part.split('\n')[0]!;
    const body = part.startsWith(includeMark) ? part.slice(part.indexOf('\n') + 1) : part;
    return parsedTaskfileText(body) ?? taskfileLines(body);
  }).join('\n');

/** The lines a go-task task runs: cmds (strings, `cmd:`, `defer:`), status and preconditions checks, `sh:` values; `dir:` moves them. */
const taskCommands = (value: unknown, out: string[]): void => {
  if (typeof value === 'string') { out.push(value); return; }
  if (Array.isArray(value)) { for (const item of value) taskCommands(item, out); return; }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (['cmd', 'cmds', 'sh', 'status', 'preconditions', 'defer'].includes(key)) taskCommands(inner, out);
    else if (typeof inner === 'object' && inner !== null) dynamicValues(inner, out, 0);
  }
};
/** `vars: {V: {sh: CMD}}`, `env: …`: a dynamic value's command runs when the Taskfile is read. */
const dynamicValues = (value: object, out: string[], depth: number): void => {
  if (depth > 8) return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === 'sh' && typeof inner === 'string') out.push(inner);
    else if (typeof inner === 'object' && inner !== null) dynamicValues(inner, out, depth + 1);
  }
};
const parsedTaskfileText = (content: string): string | null => {
  let doc: unknown;
  try { doc = parse(content, { maxAliasCount: 1000 }); } catch { return null; }
  if (doc === null || typeof doc !== 'object') return null;
  const out: string[] = [];
  const { tasks, ...rest } = doc as Record<string, unknown>;
  taskCommands(rest, out);
  for (const task of Object.values(typeof tasks === 'object' && tasks !== null ? tasks : {})) {
    const dir = typeof task === 'object' && task !== null && typeof (task as { dir?: unknown }).dir === 'string' ? (task as { dir: string }).dir : null;
    if (dir !== null) out.push(`${folderMark}${dir}`);
    taskCommands(task, out);
    if (dir !== null) out.push(folderMark);
  }
  return out.join('\n');
};

const taskfileLines = (content: string): string =>
  content.split('\n').map((line) => {
    const m = /^\s*(?:-\s+)?(?:(?:cmd|sh|cmds|run|script|shell|command)\s*:\s*)?(.*)$/.exec(line)!;
    const value = m[1]!;
    return value === '|' || value === '>' || /^[|>][-+]?$/.test(value) ? '' : unquote(value);
  }).join('\n');

/** TOML: the string values of a table's lines (basic, literal and multi-line strings; arrays of strings joined). */
const tomlStrings = (value: string): string[] => {
  const out: string[] = [];
  for (const m of value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)) out.push(m[1] !== undefined ? m[1].replace(/\\"/g, '"').replace(/\\\\/g, '\\') : m[2]!);
  return out;
};

/** Splits TOML text into [table name, body lines], multi-line strings folded into their key's line. */
const tomlTables = (content: string): [string, string[]][] => {
  const tables: [string, string[]][] = [['', []]];
  let open: { quote: string; text: string } | null = null;
  for (const line of content.split('\n')) {
    if (open !== null) {
      const end = line.indexOf(open.quote);
      if (end < 0) { open.text += `\n${line}`; continue; }
      tables[tables.length - 1]![1].push(`${open.text}\n${line.slice(0, end)}`);
      open = null;
      continue;
    }
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*$/.exec(line);
    if (header !== null) { tables.push([header[1]!.replace(/["'\s]/g, ''), []]); continue; }
    const multi = /^\s*[^=]+=\s*("""|''')(.*)$/.exec(line);
    if (multi !== null && !multi[2]!.includes(multi[1]!)) { open = { quote: multi[1]!, text: multi[2]! }; continue; }
    if (multi !== null) { tables[tables.length - 1]![1].push(multi[2]!.slice(0, multi[2]!.indexOf(multi[1]!))); continue; }
    tables[tables.length - 1]![1].push(line);
  }
  return tables;
};

/** The text of a TOML body line: its value's strings (a multi-line string is its own text). */
const bodyText = (line: string): string => {
  const eq = line.indexOf('=');
  if (eq < 0 || /^\s*#/.test(line)) return /["']/.test(line) || line.includes('\n') ? line : '';
  const strings = tomlStrings(line.slice(eq + 1));
  return strings.length > 0 ? strings.join('\n') : line.slice(eq + 1).trim();
};

/** poe's tasks (`[tool.poe.tasks]`, `[tool.poe.tasks.NAME]`, inline tables): every string they hold, as a shell line. */
export const poeText = (content: string): string =>
  tomlTables(content).filter(([name]) => name === 'tool.poe' || name.startsWith('tool.poe.')).flatMap(([, body]) => withCwd(body, body.flatMap((l) => inlineCwd(l, bodyText(l))))).join('\n');

/** A table's `cwd = "DIR"` moves its lines (poe, cargo make); an inline table's moves its own line. */
const cwdOf = (line: string): string | null => /(?:^|[\s{,])cwd\s*=\s*(?:"([^"]*)"|'([^']*)')/.exec(line)?.slice(1).find((v) => v !== undefined) ?? null;
const withCwd = (body: readonly string[], lines: string[]): string[] => {
  const own = body.map((l) => (/^\s*cwd\s*=/.test(l) ? cwdOf(l) : null)).find((v) => v !== null) ?? null;
  return own === null ? lines : [`${folderMark}${own}`, ...lines, folderMark];
};
const inlineCwd = (line: string, text: string): string[] => {
  if (/^\s*cwd\s*=/.test(line)) return [];
  const cwd = line.includes('{') ? cwdOf(line) : null;
  return cwd === null ? [text] : [`${folderMark}${cwd}`, ...text.split('\n').filter((t) => t !== cwd), folderMark];
};

/** cargo make's tasks: `script` text, and `command` with its `args` as one command line. */
export const cargoMakeText = (content: string): string =>
  tomlTables(content).flatMap(([name, body]) => {
    if (!name.startsWith('tasks.') && name !== 'tasks' && name !== 'env' && !name.startsWith('config')) return [];
    const value = (key: string) => body.find((l) => new RegExp(`^\\s*${key}\\s*=`).test(l));
    const command = value('command');
    const args = value('args');
    const joined = command === undefined ? [] : [[...tomlStrings(command.slice(command.indexOf('=') + 1)), ...(args === undefined ? [] : tomlStrings(args.slice(args.indexOf('=') + 1)))].join(' ')];
    return withCwd(body, [...joined, ...body.filter((l) => !/^\s*(?:command|args|cwd)\s*=/.test(l)).map(bodyText)]);
  }).join('\n');

/**
 * invoke's `c.run("…")` (sudo, local) and nox's `session.run("a", "b", …)`: shell calls, so the file is read as
 * Python with each such call spelled as `os.system("…")`, its words joined into one command line.
 */
export const pythonTasksText = (content: string): string => {
  const calls = [...content.matchAll(/\.(?:run|sudo|local|run_always|run_install|run_in_venv)\s*\(\s*((?:[rbuf]?(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')\s*,?\s*)+)/g)];
  const lines = calls.map((m) => [...m[1]!.matchAll(/"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'/g)].map((s) => s[1] ?? s[2]!).join(' '));
  return lines.length === 0 ? content : `${content}\nimport os\n${lines.map((l) => `os.system(${JSON.stringify(l)})`).join('\n')}`;
};

export const recipeText = (kind: RecipeKind, content: string): { kind: 'shell' | 'code'; text: string } => {
  switch (kind) {
    case 'taskfile': return { kind: 'shell', text: taskfileText(content) };
    case 'poe': return { kind: 'shell', text: poeText(content) };
    case 'cargo-make': return { kind: 'shell', text: cargoMakeText(content) };
    case 'python-tasks': return { kind: 'code', text: pythonTasksText(content) };
  }
};
