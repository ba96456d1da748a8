/**
 * Bash removes a backslash-newline before it splits words (outside single quotes and quoted heredocs), so
 * `her\⏎mes` runs `hermes`. The grammar reads the pair as a word break instead (`her` then `mes`). Lines holding
 * one are therefore read twice: joined, as bash mostly reads them, and as written, for the places where bash keeps
 * the pair (a single-quoted string, a comment, a quoted heredoc).
 */

/** A backslash-newline whose backslash is not itself escaped (an even run of backslashes before it). */
const continuation = /(?<!\\)((?:\\\\)*)\\\n/g;

export const hasLineContinuation = (text: string): boolean => text.includes('\\\n');

/** The text with every unescaped backslash-newline removed. */
export const joinLineContinuations = (text: string): string => (hasLineContinuation(text) ? text.replace(continuation, '$1') : text);
