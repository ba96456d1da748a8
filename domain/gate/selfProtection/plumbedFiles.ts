/**
 * Files a shell reads its code from through plumbing rather than as its script operand (red team 8): the file a
 * `<(cat f)` on its stdin passes on (`sh < <(cat f)`), and the file opened on the descriptor its script is read
 * from (`bash /dev/fd/3 3< f`, `source /dev/fd/4 4< <(cat f)`). Read from disk before decide like any script.
 */
import type { SimpleCommand } from '../../shell/shellAnalysis.ts';

const catOf = /^<\(\s*(?:\S*\/)?(?:cat|tac)\s+(?:--?\s+)?("[^"]*"|'[^']*'|[^\s)]+)\s*\)$/;
const descriptorScript = /^\/(?:dev\/fd|proc\/(?:self|thread-self)\/fd)\/(\d{1,3})$/;
const unquote = (word: string): string => word.replace(/^"([^"]*)"$|^'([^']*)'$/, (_m, a?: string, b?: string) => a ?? b ?? '');

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

export const plumbedFileExamples = {
  stops: ['sh < <(cat /tmp/c.sh)', 'bash < <(cat "/tmp/c.sh")', 'bash /dev/fd/3 3< /tmp/c.sh', 'source /dev/fd/4 4< <(cat /tmp/c.sh)', 'bash /proc/self/fd/5 5< /tmp/c.sh'],
  allows: ['sh < <(cat /tmp/ok.sh)', 'bash /dev/fd/3 3< /tmp/ok.sh', 'sort < <(cat /tmp/c.sh)'],
};
