/**
 * Readers for the small languages command text hides in, for the embedded-command table (embeddedCommands.ts):
 * sed scripts (`e` and `s///e`), Ex command lines (the files they write), crontabs (entries without their
 * schedule), makefiles (recipes with their simple variables filled in) and prefix assignments as the analyzer
 * records them. Textual and cautious: each returns text for the floor's shell-text judge, never a verdict.
 */

/** Reads a sed script's commands; returns the shell text of each `e` command and `s///e` replacement ('' for a bare `e`). */
export const sedShellTexts = (script: string): string[] => {
  const out: string[] = [];
  let i = 0;
  const n = script.length;
  const skipSpace = () => { while (i < n && /[\s;]/.test(script[i]!)) i++; };
  const delimited = (delim: string): string => {
    let text = '';
    while (i < n && script[i] !== delim) {
      if (script[i] === '\\' && i + 1 < n) { text += script[i + 1] === delim ? delim : script.slice(i, i + 2); i += 2; continue; }
      text += script[i++];
    }
    i++;
    return text;
  };
  const address = () => {
    for (let part = 0; part < 2; part++) {
      if (/[0-9]/.test(script[i] ?? '')) { while (/[0-9~]/.test(script[i] ?? '')) i++; }
      else if (script[i] === '$') i++;
      else if (script[i] === '/' || script[i] === '\\') { if (script[i] === '\\') i++; const d = script[i++]!; delimited(d); while (/[IM]/.test(script[i] ?? '')) i++; }
      else if (part === 1 && /[+~]/.test(script[i] ?? '')) { i++; while (/[0-9]/.test(script[i] ?? '')) i++; }
      if (part === 0 && script[i] === ',') i++; else break;
    }
    while (script[i] === ' ' || script[i] === '!') i++;
  };
  const toLineEnd = (): string => { const end = script.indexOf('\n', i); const text = script.slice(i, end < 0 ? n : end); i = end < 0 ? n : end; return text; };
  while (skipSpace(), i < n) {
    address();
    const c = script[i++];
    if (c === undefined) break;
    if (c === '{' || c === '}') continue;
    if (c === '#' || c === 'a' || c === 'i' || c === 'c' || c === 'r' || c === 'R' || c === 'w' || c === 'W' || c === ':' || c === 'b' || c === 't' || c === 'T') { toLineEnd(); continue; }
    if (c === 'e') { out.push(toLineEnd().trim()); continue; }
    if (c === 's' || c === 'y') {
      const d = script[i++] ?? '/';
      delimited(d);
      const replacement = delimited(d);
      let flags = '';
      while (i < n && !/[;\n}]/.test(script[i]!)) {
        if (script[i] === 'w') { toLineEnd(); break; }
        flags += script[i++];
      }
      if (c === 's' && flags.includes('e')) out.push(replacement);
      continue;
    }
    while (i < n && !/[;\n}]/.test(script[i]!)) i++;
  }
  return out;
};

/** Ex commands that write a file (with their shortest abbreviation), and those that open one for a later write. */
const exWriting: readonly (readonly [string, string])[] = [['w', 'write'], ['wq', 'wq'], ['x', 'xit'], ['exi', 'exit'], ['up', 'update'], ['sav', 'saveas'], ['mks', 'mksession'], ['mkv', 'mkvimrc'], ['redi', 'redir'], ['wn', 'wnext']];
const exOpening: readonly (readonly [string, string])[] = [['e', 'edit'], ['sp', 'split'], ['vs', 'vsplit'], ['tabe', 'tabedit'], ['new', 'new'], ['vne', 'vnew'], ['bad', 'badd']];
const exNamed = (name: string, table: readonly (readonly [string, string])[]): boolean => table.some(([min, full]) => name.startsWith(min) && full.startsWith(name));

/**
 * The files an Ex command line writes, as `> FILE` lines for the shell-text judge: `w! F`, `sav F`, `redir > F`,
 * `writefile(…, 'F')`, `delete('F')`, and a file opened (`e F`) when the same text also writes.
 */
export const exWrittenFiles = (text: string): string[] => {
  const written: string[] = [];
  const opened: string[] = [];
  let writes = false;
  for (const part of text.split(/[|\n]/)) {
    const m = /^\s*:*\s*(?:silent!?\s+)?[%.$,0-9'<>]*\s*([a-z]+)(!?)\s*(?:>>?\s*)?(\S.*)?$/i.exec(part);
    if (m === null) continue;
    const [, name, , rest] = m;
    if (exNamed(name!, exWriting)) { writes = true; if (rest !== undefined) written.push(rest.trim()); }
    else if (exNamed(name!, exOpening) && rest !== undefined) opened.push(rest.trim());
  }
  for (const m of text.matchAll(/\b(?:writefile\s*\([^)]*,\s*|delete\s*\(\s*|rename\s*\([^)]*,\s*)['"]([^'"]+)['"]/g)) written.push(m[1]!);
  return [...written, ...(writes ? opened : [])].map((f) => `> ${f}`);
};

/** A crontab's commands: each entry without its schedule (five fields or an @word). */
export const crontabCommands = (table: string): string =>
  table.split('\n').filter((l) => !/^\s*(?:#|$)/.test(l))
    .map((l) => l.replace(/^\s*(?:@\w+\s+|(?:\S+\s+){5})/, '').replace(/(?<!\\)%/g, '\n')).join('\n');

/** Recipe and variable text with simple `$(NAME)`/`${NAME}` references filled in from the makefile's own assignments. */
/** The files a makefile pulls in (`include a.mk`, `-include`, `sinclude`): make runs their recipes as its own. */
export const makefileIncludes = (text: string): string[] => {
  if (!text.includes('include')) return [];
  const out: string[] = [];
  for (const m of text.matchAll(/^[ ]*(?:-|s)?include[ \t]+([^\n#]+)/gm)) {
    for (const word of m[1]!.trim().split(/\s+/)) if (word !== '' && !/[$*?[]/.test(word)) out.push(word);
  }
  return out;
};

export const makefileText = (text: string): string => {
  const vars = new Map<string, string>();
  for (const m of text.matchAll(/^([A-Za-z_][A-Za-z0-9_.-]*)\s*(?:[:?+!]?:?=)\s*(.*)$/gm)) vars.set(m[1]!, m[2]!);
  const expand = (s: string, depth = 0): string => depth > 3 ? s : s.replace(/\$[({]([A-Za-z_][A-Za-z0-9_.-]*)[)}]/g, (all, name: string) => vars.has(name) ? expand(vars.get(name)!, depth + 1) : all);
  return text.split('\n').map((l) => expand(l.replace(/^\t/, ''))).join('\n');
};

const unquoteWord = (word: string): string =>
  word.replace(/\$'((?:[^'\\]|\\.)*)'|'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)/g, (_all, ansi?: string, single?: string, double?: string, escaped?: string) =>
    ansi !== undefined ? ansi.replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(.)/g, '$1')
      : single ?? (double !== undefined ? double.replace(/\\(.)/g, '$1') : escaped ?? ''));

/** Assignments in the command's `via` entries: prefixes as written (`A='x y' B=1`), or a wrapper's unquoted label (`env A=x y`). */
export const viaAssignments = (via: readonly string[]): { name: string; value: string }[] => {
  const out: { name: string; value: string }[] = [];
  for (const entry of via) {
    const plain = /^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(entry);
    if (plain) {
      for (const word of entry.match(/(?:[^\s'"\\$]|\\.|'[^']*'|"(?:[^"\\]|\\.)*"|\$'(?:[^'\\]|\\.)*'|\$)+/g) ?? []) {
        const m = /^([A-Za-z_][A-Za-z0-9_%]*)\+?=([\s\S]*)$/.exec(word);
        if (m !== null) out.push({ name: m[1]!, value: unquoteWord(m[2]!) });
      }
      continue;
    }
    // A wrapper's label lost the quoting: each value runs to the next assignment, or to the end.
    const parts = [...entry.matchAll(/(?:^|\s)([A-Za-z_][A-Za-z0-9_%]*)=/g)];
    parts.forEach((m, k) => {
      const from = m.index! + m[0].length;
      const to = k + 1 < parts.length ? parts[k + 1]!.index! : entry.length;
      out.push({ name: m[1]!, value: entry.slice(from, to) });
    });
  }
  return out;
};

/** m4's `syscmd(CMD)` and `esyscmd(CMD)`: the shell text each runs (nested parentheses kept, quotes `[`…`]` dropped). */
export const m4ShellTexts = (text: string): string[] => {
  const out: string[] = [];
  for (const m of text.matchAll(/\be?syscmd\s*\(/g)) {
    let depth = 1;
    let i = m.index! + m[0].length;
    const from = i;
    for (; i < text.length && depth > 0; i++) depth += text[i] === '(' ? 1 : text[i] === ')' ? -1 : 0;
    out.push(text.slice(from, depth === 0 ? i - 1 : i).replace(/[`'[\]]/g, ''));
  }
  return out;
};

/** dc's `!CMD`: the rest of the line goes to the shell (`!<`, `!>` and `!=` are negated comparisons). */
export const dcShellTexts = (text: string): string[] => [...text.matchAll(/!(?![<>=])([^\n]*)/g)].map((m) => m[1]!);
