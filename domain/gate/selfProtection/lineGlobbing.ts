/**
 * The shell options that change what a glob on this line expands to: `dotglob` (`*` takes dot names too, as a
 * set GLOBIGNORE does), `globstar` (`**` spans folders), `nocaseglob` (patterns ignore case). Each counts as on
 * when the line names it at all (`shopt -s`, `bash -O`, even `shopt -u`: erring towards a wider match), and all
 * of them when a `shopt` word is one the gate cannot read (`shopt -s $O`).
 */
import type { ShellAnalysis } from '../../shell/shellAnalysis.ts';
import { recentMemo } from '../../shell/recentMemo.ts';

export interface Globbing {
  readonly dotglob: boolean;
  readonly globstar: boolean;
  readonly nocaseglob: boolean;
}

export const plainGlobbing: Globbing = { dotglob: false, globstar: false, nocaseglob: false };

const computeGlobbing = (analysis: ShellAnalysis): Globbing => {
  const source = analysis.source;
  // Most lines name none of them: one scan of the text each.
  const dotglob = source.includes('dotglob') || source.includes('GLOBIGNORE');
  const globstar = source.includes('globstar');
  const nocaseglob = source.includes('nocaseglob');
  const unread = source.includes('shopt') && analysis.commands.some((c) => c.program === 'shopt' && c.args.some((a) => /[$`]/.test(a)));
  if (unread) return { dotglob: true, globstar: true, nocaseglob: true };
  return dotglob || globstar || nocaseglob ? { dotglob, globstar, nocaseglob } : plainGlobbing;
};

export const lineGlobbing: (analysis: ShellAnalysis) => Globbing = recentMemo(computeGlobbing, 4);
