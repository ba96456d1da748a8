/**
 * A program word the line does not determine (`$c approve a1`, `$(cat f) config set …`, `/usr/bin/herme? …`) could
 * be any program. Where its arguments are ones the guard's own programs would act on (an approval, a Hermes
 * setting, a kill aimed at the guard), the command is also reported as each such program, so the floor judges it
 * under every candidate instead of trusting an unknown program. A glob is matched against the candidates' names
 * (one bash cannot be sure about counts as matching every one); an expansion counts only where the arguments reach.
 */
import { compileGlob, globMatches, GlobBudgetExceeded } from './globPattern.ts';

export interface ProgramCandidate {
  readonly program: string;
  /** Other names a glob may match for it (the file it installs as); the program itself is always one. */
  readonly names?: readonly string[];
  /** Whether these arguments, given to this program, are something the guard's rows judge. */
  readonly reaches: (args: readonly string[]) => boolean;
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

const guardWords = /tollgate|hermes|gateway/i;
const killOption = /^-(?:[0-9]{1,2}|[A-Z][A-Z0-9+-]*|s|n|f|-signal(?:=.*)?)$/;
const pidSubstitution = /^(?:\$\(|`)\s*(?:pgrep|pidof|cat\s+\S*\.pid)/;
const hermesSettingWords = /approval|yolo|plugin|hook|tollgate|safe|secur|gateway|permission/i;
const operands = (args: readonly string[]): string[] => args.filter((arg) => !arg.startsWith('-'));

export const programCandidates: readonly ProgramCandidate[] = [
  {
    program: 'tollgate',
    names: ['tollgate.mjs', 'tollgate.js'],
    reaches: (args) => ['approve', 'deny'].includes(operands(args)[0] ?? ''),
    stops: ['c=$(cat /tmp/name); $c approve a1 always', '$TG deny a1', '`cat /tmp/n` approve a1', '/usr/*/tollgat? approve a1', '/opt/*/bin/tollgate.[m]js approve a1'],
    allows: ['$GH pr review --approve', '$NPM install', '$X serve'],
  },
  {
    program: 'hermes',
    names: ['hermes-agent'],
    reaches: (args) => {
      const [sub = '', action = '', key = ''] = operands(args);
      if (sub === 'plugins' || sub === 'hooks') return action !== '' && action !== 'list' && action !== 'ls';
      if (sub === 'gateway') return ['stop', 'restart', 'start', 'install', 'uninstall', 'run'].includes(action);
      return sub === 'config' && ['set', 'edit', 'unset', 'reset'].includes(action) && hermesSettingWords.test(key);
    },
    stops: ['/usr/*/herme? config set approvals.yolo true', '~/.local/bin/h*s plugins disable tollgate', '$(cat /tmp/n) config set approvals.yolo true', '$H plugins disable tollgate', '$H gateway stop', "read c < /tmp/n; $c hooks remove tollgate",
      'c=ls; exec 3< /tmp/n; read -u 3 c; $c config set approvals.yolo true'],
    allows: ['/usr/*/herme? --version', '/usr/bin/py* -V', '$NPM config set registry https://r.example', '$GIT config set user.name x', '$H plugins list', '$KUBECTL config set-context dev'],
  },
  ...['pkill', 'killall', 'kill'].map((program): ProgramCandidate => ({
    program,
    // A kill names its target with a signal or -f, or takes the pids a substitution finds: a plain file argument
    // (`$EDITOR src/gateway.ts`) is no kill.
    reaches: (args) => args.some((arg) => guardWords.test(arg)) && args.some((arg) => killOption.test(arg) || pidSubstitution.test(arg)),
    stops: [`$K -f 'tollgate.mjs serve'`, '$K -9 $(pgrep -f tollgate)', '$(cat /tmp/k) -KILL hermes', '$K -s TERM $(pidof hermes)'],
    allows: ['$K -f vite', '$EDITOR notes.txt', '$PAGER build.log', '$PAGER tollgate.log', '$CAT data/hermes-notes.txt', '$EDITOR src/gateway.ts',
      '$PY -m pytest tests/test_gateway.py', '"$NODE" scripts/hermes-report.js'],
  })),
];

/** An unquoted glob in the program word names whatever files match it. */
const globChars = /[*?[]/;

/** The candidates a program word stands for, or none when the word is known (most words). */
export const candidatesFor = (word: string, unquotedGlob: () => boolean, args: readonly string[]): readonly string[] => {
  if (globChars.test(word) && unquotedGlob()) {
    const name = word.slice(word.lastIndexOf('/') + 1);
    const glob = compileGlob(name);
    const names = programCandidates.flatMap((c) => [c.program, ...(c.names ?? [])]);
    return names.filter((n, i) => names.indexOf(n) === i && (glob === undefined || matchesName(glob, n)));
  }
  if (!/[$`]/.test(word)) return [];
  return programCandidates.filter((c) => c.reaches(args)).map((c) => c.program).filter((p, i, all) => all.indexOf(p) === i);
};

const matchesName = (glob: ReturnType<typeof compileGlob> & object, name: string): boolean => {
  try {
    return globMatches(glob, name, 0, name.length, { left: 10_000 });
  } catch (error) {
    if (error instanceof GlobBudgetExceeded) return true;
    throw error;
  }
};
