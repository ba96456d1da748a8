/**
 * Text bash stores now and expands as code later, although the line quotes it: a prompt string (`PS4` is expanded
 * before every traced command once `set -x` is on, `PS3` by `select`), and an array subscript in a variable name
 * or a value used in arithmetic (`test -v 'a[$(…)]'`, `x='a[$(…)]'; $((x))`: bash expands the subscript, running
 * its command substitutions). The extractor walks the substitutions of such text as code that runs, so the rows
 * judge what they would run; plain text with no substitution stays data.
 */

export interface DeferredCodeSource {
  readonly name: string;
  /** The text the shell will expand later, taken from an assigned value or a command's word; null if none. */
  readonly expanded: (text: string, assignedTo: string | undefined) => string | null;
  readonly stops: readonly string[];
  readonly allows: readonly string[];
}

/** Cheap test before any reading: only text with a substitution can hide code for later. */
export const mayDeferCode = (text: string): boolean => text.includes('$(') || text.includes('`') || text.includes('$[');

const promptVariables = new Set(['PS0', 'PS1', 'PS2', 'PS3', 'PS4']);
/** `a[...]` whose subscript holds a command substitution: the subscript, to its last `]`. */
const subscriptWithCode = /[A-Za-z_][A-Za-z0-9_]*\[([^\]]*?(?:\$\(|`)[\s\S]*)\]/;

export const deferredCodeSources: readonly DeferredCodeSource[] = [
  {
    name: 'prompt-string',
    expanded: (text, assignedTo) => (assignedTo !== undefined && promptVariables.has(assignedTo) ? text : null),
    stops: ["PS4='$(hermes config set approvals.yolo true)'; set -x; true", "PS4='`tollgate approve a1 always`' bash -x -c true",
      "PS3='$(pkill -f tollgate)'; select x in a b; do break; done", "declare PS4='$(rm -rf ~/.hermes/plugins)'; set -o xtrace"],
    allows: ["PS4='+ '; set -x; true", "PS4='+ $(date +%s) '; set -x; make", 'set -x', "PS1='\\u@\\h:\\w\\$ '"],
  },
  {
    name: 'array-subscript',
    expanded: (text) => subscriptWithCode.exec(text)?.[1] ?? null,
    stops: ["test -v 'a[$(hermes config set approvals.yolo true)]'", "x='a[$(hermes config set approvals.yolo true)]'; echo $(( x ))",
      "[ -v 'm[`tollgate approve a1 always`]' ]", "[[ -v 'a[$(hermes plugins disable tollgate)]' ]]", "unset 'a[$(rm -rf ~/.hermes/plugins)]'", "declare -p 'a[$(pkill -f tollgate)]'",
      "printf -v 'a[$(tollgate approve a1)]' %s x", "y='k[`hermes plugins disable tollgate`]'; (( y > 0 ))"],
    allows: ['test -v HOME', '[[ -v HOME ]]', "[ -n 'a[$(date)]' ]", "test -v 'a[1]'", "x='a[i+1]'; echo $(( x ))", "echo 'a[$(date)]'", 'unset "arr[$i]"', "grep -E '[a-z]+' f"],
  },
];

/** The texts of `text` bash may expand as code later (none for most). */
export const deferredTexts = (text: string, assignedTo?: string): { source: string; text: string }[] => {
  if (!mayDeferCode(text)) return [];
  const out: { source: string; text: string }[] = [];
  for (const source of deferredCodeSources) {
    const expanded = source.expanded(text, assignedTo);
    if (expanded !== null) out.push({ source: source.name, text: expanded });
  }
  return out;
};
