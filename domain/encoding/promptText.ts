/**
 * The text a human is shown when asked about a tool call (Hermes' approval prompt, Claude Code's): the command line
 * for `terminal`, the code for `execute_code`, else the tool and its arguments as JSON, always rendered visible so
 * an escape sequence in the call cannot redraw the question. Long calls are cut with a marker saying how much is
 * not shown (the whole call is in `tollgate approvals`).
 */
import { visibleJson, visibleText } from './visibleText.mjs';

export const promptTextLimit = 8000;

export const promptText = (tool: string, args: Readonly<Record<string, unknown>>): string => {
  const command = tool === 'terminal' ? args['command'] : undefined;
  if (typeof command === 'string' && command !== '') return visibleText(cut(command));
  const code = tool === 'execute_code' ? args['code'] : undefined;
  if (typeof code === 'string' && code !== '') return visibleText(cut(code), { multiline: true });
  return `${visibleText(tool)} ${cut(visibleJson(args), true)}`;
};

/** Cuts the raw text (never inside an escape), or for JSON the rendered text (its escapes are plain ASCII). */
const cut = (text: string, rendered = false): string => {
  if (text.length <= promptTextLimit) return text;
  let end = promptTextLimit;
  if (rendered) {
    // Cut before the run of backslashes nearest the end, so no escape (\uXXXX, \\) is split.
    let slash = text.lastIndexOf('\\', end);
    if (slash > end - 12) { while (slash > 0 && text[slash - 1] === '\\') slash--; end = slash; }
  }
  return `${text.slice(0, end)}… [${text.length - end} more characters not shown; the whole call is in \`tollgate approvals\`]`;
};
