/**
 * What the allowed tool calls of a scenario would have written. Eval runs nothing, so without this a script
 * written in one step and run in the next would be absent when the floor reads it, and pass; the daemon reads the
 * disk, where the earlier call really put it. Only content the call states is kept (write_file, a patch's replace
 * or added file, a shell line's `echo … > f`, `cat > f <<EOF`, `tee f`); a relative path counts where the step's
 * folder is known.
 */
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { filesWrittenByLine } from '../../domain/gate/selfProtection/embeddedCommands.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';
import { readFileStart } from '../gate/scriptFacts.ts';

export type Analyze = (source: string) => ShellAnalysis;

/** An absolute path for a path as a call wrote it, or null when its folder is unknown (or a variable names it). */
const placed = (path: string, folder: string | null): string | null => {
  if (path.includes('$') || path.includes('`')) return null;
  if (path === '~' || path.startsWith('~/')) return normalizePath(homedir() + path.slice(1));
  if (isAbsolute(path)) return normalizePath(path);
  return folder === null ? null : normalizePath(`${folder}/${path}`);
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
      for (const [path, content] of filesWrittenByLine(this.analyze(text('command')!))) put(path, content, base);
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
