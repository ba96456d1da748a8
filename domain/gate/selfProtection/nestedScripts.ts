/**
 * Files a script, a recipe or a code cell runs in turn (red team 10: a Makefile's `sh /tmp/.c`, a package.json's
 * `postinstall`, `os.system(open('/tmp/.c').read())`, `exec(Path(f).read_text())`, `runpy.run_path(f)`): the
 * outer text may be harmless and the file it runs not. ops/gate/scriptFacts.ts reads the files these words name
 * before decide (one level down, a few at most); the rows judge their text as they judge the outer one.
 */
import type { RunScripts } from './commandRules.ts';
import type { PathContext } from './protectedPaths.ts';
import { recordedScript } from './scriptKeys.ts';

/** At most this many nested files per text are read and judged. */
export const maxNestedScripts = 4;

/** A shell or interpreter named in shell text, then its script: `sh /tmp/.c`, `. ~/x`, `python3 -u ./a.py`. */
const runnerThenPath = /(?:^|[\s;&|(`'"=])(?:(?:\S*\/)?(?:sh|bash|dash|zsh|ksh|mksh|ash|source|\.|python[0-9.]*|node|nodejs|perl|ruby|php|lua[0-9.]*|tclsh))\s+(?:-[A-Za-z]+\s+)*([~/.][^\s;&|)'"`<>]*)/g;
/** A path run as a command of its own: `/tmp/x.sh`, `~/bin/x`, `./x` at a command's start. */
const pathAsCommand = /(?:^|[\n;&|(`]|&&|\|\|)\s*([~.]?\/[^\s;&|)'"`<>]+)/g;
/** Code that runs or loads what it names: then every quoted absolute or home path in it may be that code. */
const codeRunsWhatItNames = /\b(?:exec|exec[lv]p?e?|eval|system|popen|subprocess|spawn\w*|exec(?:Sync|File\w*)|run_path|run_module|load_module|exec_module|SourceFileLoader|spec_from_file_location|import_module|__import__|executable|child_process|Function|require|load|dofile|loadfile)\b/;
const quotedPath = /['"`]((?:~|\/)[^'"`\s]{1,255})['"`]/g;

/** The files a script's or cell's text runs or loads, as written (absolute, `~/`, or relative to where it runs). */
export const nestedScriptWords = (text: string): string[] => {
  const out = new Set<string>();
  for (const m of text.matchAll(runnerThenPath)) if (m[1] !== '.' && m[1] !== '..') out.add(m[1]!);
  for (const m of text.matchAll(pathAsCommand)) out.add(m[1]!);
  if (codeRunsWhatItNames.test(text)) for (const m of text.matchAll(quotedPath)) out.add(m[1]!);
  return [...out].filter((w) => !w.startsWith('/dev/') && !w.startsWith('/proc/')).slice(0, maxNestedScripts);
};

/** The recorded texts of the files a text runs (those read before decide), each with the word that named it. */
export const nestedScriptTexts = (text: string, scripts: RunScripts, context: PathContext): { readonly word: string; readonly text: string }[] => {
  const out: { word: string; text: string }[] = [];
  for (const word of nestedScriptWords(text)) {
    const found = recordedScript(scripts, word, context);
    if (found !== undefined && found !== '') out.push({ word, text: found });
  }
  return out;
};
