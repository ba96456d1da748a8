/**
 * Files a shell reads its code from through plumbing rather than as its script operand (red team 8): the file a
 * `<(cat f)` on its stdin passes on (`sh < <(cat f)`), and the file opened on the descriptor its script is read
 * from (`bash /dev/fd/3 3< f`, `source /dev/fd/4 4< <(cat f)`). Read from disk before decide like any script.
 */
import { isShell } from '../../shell/shellInvocation.ts';
import type { ShellAnalysis, SimpleCommand } from '../../shell/shellAnalysis.ts';
import type { RunFile, ScriptReader } from './scriptReaders.ts';
import { catOf, unquote } from './handedOnFiles.ts';

const descriptorScript = /^\/(?:dev\/fd|proc\/(?:self|thread-self)\/fd)\/(\d{1,3})$/;

/** The file behind a redirect target: itself, or the one `<(cat f)` prints; null for a heredoc or a descriptor copy. */
const fileBehind = (target: string): string | null => {
  const cat = catOf.exec(target);
  if (cat !== null) return unquote(cat[1]!);
  return target.startsWith('<(') || target.startsWith('&') || target === '' ? null : target;
};

/** The files a shell (or source) reads its code from on stdin or on a /dev/fd/N script. */
export const plumbedFiles = (command: SimpleCommand): string[] => {
  const out: string[] = [];
  for (const r of command.redirects) {
    const cat = /^0?<$/.test(r.op) ? catOf.exec(r.target) : null;
    if (cat !== null) out.push(unquote(cat[1]!));
  }
  for (const arg of command.args) {
    const fd = descriptorScript.exec(arg)?.[1];
    if (fd === undefined) continue;
    for (const r of command.redirects) {
      const file = r.op === `${fd}<` ? fileBehind(r.target) : null;
      if (file !== null) out.push(file);
    }
    break;
  }
  return out;
};

// ---- a file on disk reaching a shell another way: `cat f > >(sh)`, `cat f | sed … | sh`, `sudo -s < f` ----

/** A `>(…)` body that starts a shell reading its input (`sh`, `exec bash -s`, `sudo sh`, `busybox sh`). */
const shellBody = /^>\(\s*(?:(?:exec|sudo|doas|nohup|command|env)\s+(?:-\S+\s+)*)*(?:\S*\/)?(?:busybox\s+)?(?:sh|bash|dash|zsh|ksh|mksh|ash|yash|fish)(?:\s+-\S*)*\s*\)$/;
/** Programs that pass a file's text on unchanged, or as lines of it. */
const fileReaders = /^(?:cat|tac|head|tail|pv)$/;
const filters: ReadonlySet<string> = new Set(['tee', 'cat', 'sed', 'awk', 'gawk', 'mawk', 'grep', 'egrep', 'fgrep', 'head', 'tail', 'sort', 'uniq', 'tac', 'fold', 'pv', 'stdbuf']);
/** Programs that start a shell reading stdin when given no command (see adapters/shell/shellPlumbing.ts). */
const stdinShellStarters = /^(?:sudo|doas|su|script|ssh)$/;

const operandsOf = (c: SimpleCommand): string[] => c.args.filter((a) => !a.startsWith('-') && !/^\d+$/.test(a));
const stdinFiles = (c: SimpleCommand): string[] => c.redirects.filter((r) => /^0?<$/.test(r.op) && !r.target.startsWith('<(')).map((r) => r.target);

/** The files the first stage of the pipeline reads, when every stage up to this one passes text on (`cat f | sed … |`). */
const filteredFiles = (c: SimpleCommand, analysis: ShellAnalysis): string[] => {
  const [head, ...rest] = c.pipedFrom;
  if (head === undefined || !fileReaders.test(head) || !rest.every((p) => filters.has(p)) || c.stdin !== undefined) return [];
  for (let i = analysis.commands.indexOf(c) - 1; i >= 0; i--) {
    const stage = analysis.commands[i]!;
    if (stage.program === head && stage.pipedFrom.length === 0) return operandsOf(stage);
  }
  return [];
};

/** The disk files whose text reaches a shell through a process substitution, a chain of filters, or a shell starter. */
export const plumbedShellFiles = (c: SimpleCommand, analysis: ShellAnalysis): RunFile[] => {
  const shell = (path: string): RunFile => ({ path, as: 'shell' });
  const intoShell = c.args.some((a) => shellBody.test(a)) || c.redirects.some((r) => /^(?:1|&)?>>?\|?$/.test(r.op) && shellBody.test(r.target));
  if (intoShell) {
    if (c.program === 'tee') return [...stdinFiles(c), ...filteredFiles(c, analysis)].map(shell);
    if (fileReaders.test(c.program)) return [...operandsOf(c), ...stdinFiles(c)].map(shell);
  }
  const readsStdin = isShell(c.program) ? c.args.every((a) => a.startsWith('-')) : stdinShellStarters.test(c.program) || ((c.program === 'source' || c.program === '.') && c.args[0] === '/dev/stdin');
  if (!readsStdin) return [];
  return [...(stdinShellStarters.test(c.program) ? stdinFiles(c) : []), ...(c.pipedFrom.length > 1 ? filteredFiles(c, analysis) : [])].map(shell);
};

export const plumbedShellReader: ScriptReader = {
  name: 'a file reaching a shell through >(sh), a chain of filters, or sudo -s / su / ssh reading stdin',
  programs: /^(?:cat|tac|head|tail|pv|tee|sudo|doas|su|script|ssh|sh|bash|dash|zsh|ksh|mksh|ash|yash|fish|source|\.)$/,
  files: plumbedShellFiles,
  stops: ["echo 'tollgate approve a1 always' > /tmp/c; cat /tmp/c > >(sh)", "echo 'tollgate approve a1 always' > /tmp/c; tee >(bash) < /tmp/c",
    "echo 'tollgate approve a1 always' > /tmp/c; cat /tmp/c | sed s/x/y/ | sh", "echo 'tollgate approve a1 always' > /tmp/c; sudo -s < /tmp/c",
    "echo 'tollgate approve a1 always' > /tmp/c; cat /tmp/c | tee >(sh)"],
  allows: ["echo 'echo hi' > /tmp/c; cat /tmp/c > >(sh)", 'cat /tmp/c > >(wc -l)', "echo 'make' > /tmp/c; cat /tmp/c | grep . | sh", 'sudo -s < /dev/null'],
};

export const plumbedFileExamples = {
  stops: ['cat /tmp/c.sh > >(sh)', 'tee >(bash -s) < /tmp/c.sh', 'cat /tmp/c.sh | tee >(sh)', 'cat /tmp/c.sh | sed s/x/y/ | sh', 'sudo -s < /tmp/c.sh', 'sh < <(cat /tmp/c.sh)', 'bash < <(cat "/tmp/c.sh")', 'bash /dev/fd/3 3< /tmp/c.sh', 'source /dev/fd/4 4< <(cat /tmp/c.sh)', 'bash /proc/self/fd/5 5< /tmp/c.sh'],
  allows: ['cat /tmp/ok.sh > >(sh)', 'cat /tmp/c.sh > >(wc -l)', 'sh < <(cat /tmp/ok.sh)', 'bash /dev/fd/3 3< /tmp/ok.sh', 'sort < <(cat /tmp/c.sh)'],
};
