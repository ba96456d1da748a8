/**
 * Programs other than the plain writers (echo, printf, cat, tee, cp …: read elsewhere) that edit a file loaded at
 * the next start (loaderFiles.ts): `sed -i '$a CMD' ~/.bash_completion`, `python3 -c "open('~/.emacs','a').write(…)"`,
 * `perl -pi -e …`. What they put there is spelled in their arguments, so the arguments are judged as the file's
 * text; code that copies, downloads or decodes into it puts text the floor cannot read there.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { CommandFinding, CommandRule, RunScripts } from './commandRules.ts';
import { placements } from './placedCode.ts';
import { loaderFileFindings } from './loaderFileTexts.ts';
import { loaderFileRow } from './loaderFiles.ts';
import { readOnlyPrograms } from './shellOperands.ts';
import { contextOf, type LineScope } from './shellScope.ts';
import { isPlainRead } from './pythonCode.ts';
import { patchTargets } from './patchTargets.ts';
import { resolvePath, type PathContext, type ProtectionIndex } from './protectedPaths.ts';
import { recordedScript } from './scriptKeys.ts';

/** Writers whose text (or unread source) is judged by the write and placement rules already. */
const judgedElsewhere = new Set(['echo', 'printf', 'cat', 'tee', 'cp', 'mv', 'install', 'ln', 'rsync', 'scp', 'dd', 'curl', 'wget', 'hash', 'touch', 'rm', 'chmod', 'chown', 'mkdir', 'direnv']);
/** Code that puts into a file what it copies, fetches or decodes, not what it spells. */
const unspelledContent = /\b(?:copy(?:file|2|fileobj)?|shutil|urlopen|urlretrieve|requests|urllib|fetch|https?:|b64decode|base64|decode|unhexlify|rename|replace|symlink|link|move|readFileSync|File\.read|IO\.read|slurp|getenv|environ|ENV\[|stdin|input\()/;
/** Path-like words inside an argument (code quotes them; sed and perl end them with a blank). */
const pathWords = /[~$/.\w{}-]*[./][\w.-]+/g;

/** The first path-like word of the texts that names a file loaded at start. */
const namedLoaderFile = (texts: readonly string[], home: string | null, cwd: string | null): string | null => {
  for (const text of texts) {
    for (const word of text.match(pathWords) ?? []) if (loaderFileRow(word, home, cwd) !== null) return word;
  }
  return null;
};

/** Programs that only show or compare a file, or open it for a person: what they are given is not written. */
const viewers = /^(?:git|vim?|nvim|emacs|less|more|diff|code|nano|stat|file|wc|grep|rg|head|tail|ls|bat)$/;

/** The finding for text (arguments, a code cell) that names a loader file and is not a plain read of it, or null. */
const spelledIntoLoaderFile = (spelled: string, file: string, index: ProtectionIndex, context: PathContext, by: string): CommandFinding | null => {
  // `s/^/CMD\n/`, `$a CMD`: the inserted text also read with sed's and perl's delimiters and escapes as line breaks.
  const text = `${spelled}\n${spelled.replace(/\\n/g, '\n').replace(/\//g, '\n')}`;
  const found = loaderFileFindings(file, text, index, context) ?? [];
  if (found.length > 0) return { id: found[0]!.id === 'hidden-command' ? 'hidden-command' : 'script-would-disable-guard', what: `${by} into ${file}: ${found[0]!.what}` };
  return unspelledContent.test(spelled) ? { id: 'hidden-command', what: `${by} puts into ${file}, loaded at the next start, text the floor cannot read` } : null;
};

/** Programs that copy or link a file into place: placedCode.ts names where it lands. */
const placingPrograms = new Set(['cp', 'mv', 'install', 'ln', 'rsync']);

/**
 * `cp dotfiles/x.desktop ~/.config/autostart/`: a source the floor read before decide is judged in the language of
 * the file it becomes (a desktop entry's Exec=, elisp's calls), not its own name's. An unread one is refused by
 * persistenceCommands.ts' placement rule.
 */
const copiedIntoLoaderFile = (command: SimpleCommand, scope: LineScope, scripts: RunScripts): CommandFinding[] => {
  const context = contextOf(scope, command);
  for (const p of placements(command, scope.analysis, context.home, context.cwd)) {
    if (p.place === 'command-name' || p.place.name !== 'loaded-at-start' || p.source === null) continue;
    const text = recordedScript(scripts, p.source, context);
    if (text === undefined || text === '') continue;
    const found = loaderFileFindings(p.placed, text, scope.index, context) ?? [];
    if (found.length > 0) return [{ id: found[0]!.id === 'hidden-command' ? 'hidden-command' : 'script-would-disable-guard', what: `${p.written} into ${p.placed}: ${found[0]!.what}` }];
  }
  return [];
};

const editsLoaderFile = (command: SimpleCommand, scope: LineScope, scripts: RunScripts): CommandFinding[] => {
  if (placingPrograms.has(command.program)) return copiedIntoLoaderFile(command, scope, scripts);
  if (judgedElsewhere.has(command.program) || readOnlyPrograms.has(command.program) || viewers.test(command.program) || command.args.length === 0) return [];
  const context = contextOf(scope, command);
  const file = namedLoaderFile(command.args, context.home ?? scope.index.facts.home, context.cwd);
  if (file === null) return [];
  const found = spelledIntoLoaderFile([...command.args, command.stdin ?? ''].join('\n'), file, scope.index, context, command.program);
  return found === null ? [] : [found];
};

/**
 * `execute_code` that writes a loader file (not a plain read of it), and the patch tool's diffs: the lines a diff
 * adds to a loader file are judged as its text.
 */
export const toolLoaderFileFindings = (tool: string, args: Readonly<Record<string, unknown>>, index: ProtectionIndex, cwd: string | null, lost: boolean): CommandFinding[] => {
  const context: PathContext = { home: index.facts.home, hermesHome: index.facts.hermesHome, cwd, lost };
  if (tool === 'execute_code' && typeof args['code'] === 'string') {
    const code = args['code'];
    const file = namedLoaderFile([code], index.facts.home, cwd);
    if (file === null || isPlainRead(code)) return [];
    const found = spelledIntoLoaderFile(code, file, index, context, 'code');
    return found === null ? [] : [found];
  }
  if (tool !== 'patch' || typeof args['patch'] !== 'string') return [];
  const added = args['patch'].split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1)).join('\n');
  for (const path of patchTargets(args).paths) {
    const found = loaderFileFindings(path, added, index, context);
    if (found !== null && found.length > 0) return [{ id: found[0]!.id === 'hidden-command' ? 'hidden-command' : 'script-would-disable-guard', what: `${path}: ${found[0]!.what}` }];
  }
  return [];
};

export const loaderFileCommandRule: CommandRule = {
  name: 'edits-a-file-loaded-at-start',
  find: editsLoaderFile,
  stops: ["sed -i '$a tollgate approve a1 always' ~/.bash_completion", "python3 -c \"open('/home/agent/.emacs','a').write('(shell-command \\\"tollgate approve a1 always\\\")')\"",
    "perl -pi -e 's/^/pkill -f tollgate\\n/' ~/.xprofile", "python3 -c \"import shutil; shutil.copy('/srv/x', '/home/agent/.emacs')\"", "sed -i '1r /tmp/x' ~/.config/direnv/direnvrc"],
  allows: ["sed -i 's/foo/bar/' ~/.emacs", 'git add .envrc', 'git diff ~/.bashrc', "python3 -c \"print(open('/home/agent/.emacs').read())\"", 'vim ~/.emacs', "sed -n '1,5p' ~/.xprofile"],
};
