/**
 * What the allowed tool calls of a scenario would have written. Eval runs nothing, so without this a script
 * written in one step and run in the next would be absent when the floor reads it, and pass; the daemon reads the
 * disk, where the earlier call really put it. Only content the call states is kept (write_file, a patch's replace
 * or added file, a shell line's `echo … > f`, `cat > f <<EOF`, `tee f`), and copies of what is known (`cp`, `mv`,
 * `install`, `ln`); a relative path is kept in the step's folder, or in the unknown folder when it names none.
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { filesWrittenByLine } from '../../domain/gate/selfProtection/embeddedCommands.ts';
import { parseOptions } from '../../domain/shell/commandOptions.ts';
import { unknownFolderKey } from '../../domain/gate/selfProtection/scriptKeys.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';
import { readFileStart } from '../gate/scriptFacts.ts';

export type Analyze = (source: string) => ShellAnalysis;

/** An absolute path for a path as a call wrote it (below the unknown folder when the step's is unknown), or null when a variable names it. */
const placed = (path: string, folder: string | null): string | null => {
  if (path.includes('$') || path.includes('`')) return null;
  if (path === '~' || path.startsWith('~/')) return normalizePath(homedir() + path.slice(1));
  if (isAbsolute(path)) return normalizePath(path);
  // The agent's folder is unknown, yet the steps after this one run there too: kept below the unknown folder.
  return folder === null ? unknownFolderKey(path) : normalizePath(`${folder}/${path}`);
};

/** Files a V4A patch adds (`*** Add File: p` followed by `+` lines). */
const addedByPatch = (patch: string): [string, string][] => {
  const out: [string, string][] = [];
  const lines = patch.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^\*\*\* Add File:\s*(.+?)\s*$/.exec(lines[i]!);
    if (head === null) continue;
    const body: string[] = [];
    while (i + 1 < lines.length && lines[i + 1]!.startsWith('+')) body.push(lines[++i]!.slice(1));
    out.push([head[1]!, `${body.join('\n')}\n`]);
  }
  return out;
};

export class WrittenFiles {
  readonly files = new Map<string, string>();

  constructor(private readonly analyze: Analyze) {}

  /** Record what an allowed call writes. `folder` is the step's working folder, null when unknown. */
  record(tool: string, args: Readonly<Record<string, unknown>>, folder: string | null): void {
    const text = (key: string): string | null => (typeof args[key] === 'string' ? (args[key] as string) : null);
    const put = (path: string | null, content: string, base: string | null = folder) => {
      const at = path === null ? null : placed(path, base);
      if (at !== null) this.files.set(at, content);
    };
    if (tool === 'write_file') put(text('path') ?? text('file_path'), text('content') ?? '');
    else if (tool === 'patch' && text('patch') !== null) for (const [path, content] of addedByPatch(text('patch')!)) put(path, content);
    else if (tool === 'patch') this.replaced(text('path') ?? text('file_path'), text('old_string'), text('new_string'), args['replace_all'] === true, folder);
    else if (tool === 'terminal' && text('command') !== null) {
      const workdir = text('workdir');
      const base = workdir === null ? folder : placed(workdir, folder);
      const analysis = this.analyze(text('command')!);
      for (const [path, content] of filesWrittenByLine(analysis)) put(path, content, base);
      this.copied(analysis, base);
    }
  }

  /** `cp a b`, `mv a dir/`, `install -m755 a b`, `ln a b`: a copy of a file kept here holds the same text. */
  private copied(analysis: ShellAnalysis, folder: string | null): void {
    for (const command of analysis.commands) {
      if (!/^(?:cp|mv|install|ln)$/.test(command.program) || command.via.length > 0) continue;
      const { short, long, operands } = parseOptions(command.args, { shortWithValue: 'tSmogb', longWithValue: ['target-directory', 'suffix', 'mode', 'owner', 'group'] });
      const into = short.get('t') ?? long.get('target-directory');
      const sources = typeof into === 'string' ? operands : operands.slice(0, -1);
      const target = typeof into === 'string' ? into : operands[operands.length - 1];
      if (target === undefined || sources.length === 0) continue;
      const intoFolder = typeof into === 'string' || sources.length > 1 || target.endsWith('/');
      for (const source of sources) {
        const from = placed(source, folder);
        const content = from === null ? undefined : this.files.get(from) ?? readFileStart(from) ?? undefined;
        const to = placed(intoFolder ? `${target.replace(/\/+$/, '')}/${source.split('/').pop()}` : target, folder);
        if (content === undefined || to === null) continue;
        this.files.set(to, content);
        if (command.program === 'mv' && from !== null) this.files.delete(from);
      }
    }
  }

  private replaced(path: string | null, from: string | null, to: string | null, all: boolean, folder: string | null): void {
    const at = path === null ? null : placed(path, folder);
    if (at === null || from === null || to === null) return;
    const before = this.files.get(at) ?? readFileStart(at);
    if (before === null || !before.includes(from)) return;
    this.files.set(at, all ? before.split(from).join(to) : before.replace(from, () => to));
  }
}
