/**
 * What the command floor knows about a shell command line: the simple commands that would actually run,
 * after unwrapping compounds, substitutions, nested shells and wrappers. Produced by adapters/shell (the
 * tree-sitter-bash grammar), consumed by the pure rule tables in domain/gate. Plain JSON: it is recorded in
 * the ledger with the tool call, so replay needs no parser.
 */

export interface Redirect {
  /** The operator as written: '>', '>>', '<', '&>', '>|', '2>', ... */
  readonly op: string;
  /** The target word, unquoted (a file path or a descriptor such as '&1'). */
  readonly target: string;
}

export interface SimpleCommand {
  /** Program name as it would be looked up: quotes and a leading backslash removed, directory stripped. */
  readonly program: string;
  /** The program word as written after unquoting, with its directory (e.g. '/bin/rm'). */
  readonly programPath: string;
  /**
   * Arguments after the program, unquoted. Parts the shell fills in at run time keep their source form ($HOME,
   * $(date), *.log), unless the line itself made them known (`X=/; rm -rf $X`, `rm -rf $(echo /)`, `{a,b}`).
   */
  readonly args: readonly string[];
  readonly redirects: readonly Redirect[];
  /** Programs whose output is piped into this command's standard input (earlier stages of its pipeline). */
  readonly pipedFrom: readonly string[];
  /**
   * How the command was reached, outermost first: e.g. ['sudo', 'sh -c', '$(...)']. Empty for a command at the
   * top level of the line. An entry starts with the name of what carried the command, and may go on with how
   * it was called: wrappers with their options ('sudo -u bob', 'timeout 5', 'env -i A=1'), leading assignments
   * ('A=1 B=2'), 'function NAME', '$(...)', '`...`', '<(...)', 'bash -c', 'eval', 'xargs', 'find -exec',
   * 'watch', 'trap', 'ssh HOST', a shell reading stdin ('bash <<', 'sh <<<', 'echo | sh') or a file written
   * earlier in the line ('bash x.sh', './x.sh').
   */
  readonly via: readonly string[];
  /** The command's source text (for messages and fingerprints). */
  readonly text: string;
  /**
   * Static text known to reach the command's standard input: a heredoc or here-string body, or the output of an
   * `echo`/`printf` piped into it. Absent when unknown. (Lets `echo 'DROP TABLE t' | psql` and
   * `bash <<EOF ... EOF` be judged by what they read.)
   */
  readonly stdin?: string;
  /** True when the command runs in the background (`cmd &`, or inside a backgrounded list). */
  readonly background?: boolean;
  /**
   * The working directory when an earlier `cd` in the line set it to a known place ('/', '/etc', '~'); absent
   * when unknown. Lets `cd / && rm -rf *` be judged as `rm -rf /*`.
   */
  readonly cwd?: string;
}

export interface ShellAnalysis {
  /** The whole command line as given. */
  readonly source: string;
  /** False when the grammar reported an error or a part could not be analysed; such a line is never safe. */
  readonly parsed: boolean;
  /** What could not be parsed, and where. */
  readonly problems: readonly string[];
  readonly commands: readonly SimpleCommand[];
  /**
   * Variables the line exports (`export NAME=…`, `declare -x`, `typeset -x`) or unsets, with the value the line
   * leaves when it is known text, else null. Hermes re-sources exported variables before its next command, so
   * the session carries them into later lines. Absent when the line exports nothing.
   */
  readonly exports?: Readonly<Record<string, string | null>>;
  /** Every name the line may assign or unset, exported or not (a name the session exported keeps what it is given). */
  readonly touched?: readonly string[];
  /** Names the line unsets. */
  readonly unsets?: readonly string[];
  /** Names the line makes read-only: their value can no longer change, and later exports of them fail. */
  readonly readonly?: readonly string[];
  /**
   * Names the walk saw assigned (`"read" D`, `printf -v "$X"`, through `declare -n`) or exported (`\export D`)
   * in ways the text readings above may miss: their values are not known.
   */
  readonly walked?: { readonly touched: readonly string[]; readonly exported: readonly string[] };
}

/** One rule of the command floor that matched one simple command. */
export interface RuleHit {
  readonly ruleId: string;
  readonly reason: string;
  /** The simple command's text that matched. */
  readonly command: string;
}
