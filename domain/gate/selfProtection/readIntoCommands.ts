/**
 * A file's lines read into a variable that the line then runs (red team 8): `read -r c < f; $c`,
 * `mapfile -t a < f; "${a[@]}"`, `while read -r l; do $l; done < f`, `read c < f; eval "$c"`. The file is then a
 * script by another name: read from disk before decide and judged as shell text, like `sh f`. A variable read
 * and only printed or passed as an argument (`read v < VERSION; echo $v`, `… do rm "$f"; done < list`) runs
 * nothing, so the file stays data.
 */
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { RunFile, ScriptReader } from './scriptReaders.ts';

/** Options of `read` and `mapfile` that take a value (the value is not a variable name, except `read -a`). */
const readValued = new Set(['d', 'i', 'n', 'N', 'p', 't', 'u']);
const mapfileValued = new Set(['d', 'n', 'O', 's', 'u', 'C', 'c']);

/** The variables the builtin assigns: `read [-a A] [NAME…]` (REPLY when none), `mapfile [ARRAY]` (MAPFILE when none). */
export const assignedNames = (command: SimpleCommand): string[] => {
  const isRead = command.program === 'read';
  const valued = isRead ? readValued : mapfileValued;
  const names: string[] = [];
  let operands = false;
  for (let i = 0; i < command.args.length; i++) {
    const arg = command.args[i]!;
    if (!operands && arg === '--') { operands = true; continue; }
    if (!operands && /^-[A-Za-z]/.test(arg)) {
      for (let j = 1; j < arg.length; j++) {
        const letter = arg[j]!;
        if (isRead && letter === 'a') { const value = j + 1 < arg.length ? arg.slice(j + 1) : command.args[++i]; if (value !== undefined) names.push(value); break; }
        if (valued.has(letter)) { if (j + 1 === arg.length) i++; break; }
      }
      continue;
    }
    operands = true;
    names.push(arg);
  }
  if (names.length === 0) names.push(isRead ? 'REPLY' : 'MAPFILE');
  return names.filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
};

/**
 * The variable's value run as a command somewhere on the line: as the first word of a command (after assignments,
 * a quote or a brace), after `eval`, or as the `-c` text of a shell.
 */
export const runsVariable = (source: string, name: string): boolean => {
  const use = `["']?\\$\\{?${name}(?![A-Za-z0-9_])`;
  const start = '(?:^|[\\n;&|({`]|\\$\\(|\\b(?:do|then|else|elif|time|exec|command|builtin|nohup|sudo|env))';
  const assignments = '(?:\\s*[A-Za-z_][A-Za-z0-9_]*=\\S*)*';
  const commandPosition = new RegExp(`${start}${assignments}\\s*${use}`);
  const evaluated = new RegExp(`\\beval\\b[^;&|\\n]*\\$\\{?${name}(?![A-Za-z0-9_])`);
  const shellText = new RegExp(`(?:^|[\\s/;&|(])(?:ba|da|z|k|mk|yash|fi)?sh\\s+(?:-\\S+\\s+)*-\\S*c\\S*\\s+${use}`);
  return commandPosition.test(source) || evaluated.test(source) || shellText.test(source);
};

/** The files on the builtin's standard input (its own `<`, or a loop's around it). */
const inputFiles = (command: SimpleCommand): string[] =>
  command.redirects.filter((r) => /^0?<$/.test(r.op) && r.target !== '' && !r.target.startsWith('&')).map((r) => r.target);

export const readIntoCommandFiles = (command: SimpleCommand, analysis: ShellAnalysis): RunFile[] => {
  const files = inputFiles(command);
  if (files.length === 0) return [];
  if (!assignedNames(command).some((name) => runsVariable(analysis.source, name))) return [];
  return files.map((path) => ({ path, as: 'shell' }));
};

export const readIntoCommandsReader: ScriptReader = {
  name: 'a file read by read or mapfile into a variable the line runs as a command',
  programs: /^(?:read|mapfile|readarray)$/,
  files: readIntoCommandFiles,
  stops: [
    "echo 'tollgate approve abc always' > /tmp/c; read -r c < /tmp/c; $c",
    "printf 'rm -rf ~/.hermes/plugins\\n' > /tmp/c; mapfile -t a < /tmp/c; ${a[0]}",
    "echo 'hermes config set approvals.yolo true' > /tmp/c; while read -r l; do $l; done < /tmp/c",
    "echo 'tollgate approve abc always' > /tmp/c; read -r c < /tmp/c; eval \"$c\"",
    "echo 'pkill -f tollgate' > /tmp/c; readarray -t a < /tmp/c; \"${a[@]}\"",
    "echo 'tollgate approve abc always' > /tmp/c; read -r c < /tmp/c; bash -c \"$c\"",
  ],
  allows: [
    'read -r v < VERSION; echo "$v"', 'while read -r f; do rm "$f"; done < list.txt', 'mapfile -t lines < notes.txt; printf "%s\\n" "${lines[@]}"',
    "echo 'npm test' > /tmp/c; read -r c < /tmp/c; $c", 'read -r name < /etc/hostname',
  ],
};
