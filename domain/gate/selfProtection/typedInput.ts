/**
 * Text typed into a running background shell (Hermes' `process write|submit`, red team 3 F4). Each input is judged
 * alone, but the shell keeps state between inputs that the gate never sees: a half-typed line, variables, a
 * changed $HOME, functions and its history. So an input that leans on such state, or that a terminal's line
 * editing would change (backspace, tab completion), is refused: what would run is not what was judged. The
 * command floor and the path check still judge the text itself.
 */

export interface TypedInputHazard {
  readonly name: string;
  readonly why: string;
  /** Whether the text (as the shell receives it: `submit` adds Enter) has the hazard. */
  readonly test: (text: string) => boolean;
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

/** `$x`, `${x}`, `${#x}`, `$1`, `$@`, `$(…)`, `` `…` ``: values the shell may hold from an earlier input. `$HOME` is known; `$?`, `$$`, `$!`, `$#` name nothing. */
const leansOnState = (text: string): boolean => {
  if (text.includes('`') || text.includes('$(')) return true;
  for (const match of text.matchAll(/\$(?:\{[!#]?([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|([A-Za-z_][A-Za-z0-9_]*|[0-9@*-]))/g)) {
    const name = match[1] ?? match[2] ?? '';
    if (name !== 'HOME') return true;
  }
  return false;
};

export const typedInputHazards: readonly TypedInputHazard[] = [
  {
    name: 'unfinished-line',
    why: 'the shell waits for the rest of the line, which comes in a later input judged apart from this one',
    test: (text) => text !== '' && !/(?<!\\)\n$/.test(text),
    stops: ['rm -rf ~/.her', 'rm -rf \\\n', 'ls\r'], allows: ['ls -la\n', '', 'a\nb\n'],
  },
  {
    name: 'line-editing',
    why: "a terminal edits the line before the shell reads it (backspace, tab completion, escape sequences), so it runs something else",
    test: (text) => /[\x00-\x09\x0b-\x1f\x7f]/.test(text),
    stops: ['rm -rf ~/.herX\bmes/plugins\n', 'rm -rf ~/.herm\tplugins\n', 'ls\x1b[D\n', 'echo ok\rrm x\n'], allows: ['git status\n', 'y\n'],
  },
  {
    name: 'shell-state',
    why: 'it uses a variable, a positional parameter or command output the shell may have been given by an earlier input',
    test: leansOnState,
    stops: ['rm -rf "$x"\n', 'rm -rf ${d}\n', 'f() { rm -rf "$@"; }\n', 'rm -rf $(cat /tmp/p)\n', 'rm -rf `cat /tmp/p`\n', 'cd "$OLDPWD"\n', 'rm -rf "${#x}"\n', 'rm -rf $1\n'],
    allows: ['echo $?\n', 'kill $!\n', 'ls $HOME/src\n', 'echo ${HOME}\n', 'echo done\n'],
  },
  {
    name: 'home-changed',
    why: 'a changed HOME moves every later ~',
    test: (text) => /(?<![$\w{])HOME(?![A-Za-z0-9_])/.test(text),
    stops: ['HOME=/home/agent/.hermes\n', 'export HOME\n', 'read HOME\n', 'declare -x HOME=/tmp\n'], allows: ['ls $HOME\n', 'echo ${HOME}/x\n', 'cat README.md\n'],
  },
  {
    name: 'history',
    why: 'history expansion, fc and ^old^new rerun an earlier input with changes the gate never sees',
    test: (text) => /(?<!\\)![\w$^*:?#!%-]/.test(text) || /^\s*\^/m.test(text) || /(?:^|[\s;&|(])(?:fc|history)(?=[\s;&|)]|$)/m.test(text),
    stops: ['rm -rf !$mes/plugins\n', '!!\n', '^X^\n', 'fc -s X=\n', 'history -s "rm -rf x"\n'], allows: ['git commit -m "done!"\n', 'echo hi !\n', 'history_tool --help\n'],
  },
];

/** The hazards of one input; `submit` sends Enter after the data. */
export const typedInputFindings = (data: string, submits: boolean): TypedInputHazard[] => {
  const text = submits ? `${data}\n` : data;
  return typedInputHazards.filter((h) => h.test(text));
};
