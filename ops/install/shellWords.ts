/**
 * Command lines as Hermes reads them: `shlex.split(os.path.expanduser(command))`, run without a shell
 * (hermes-agent 0.19 agent/shell_hooks.py `_spawn`). Quoting here is POSIX single quotes, which shlex undoes.
 */

const safeWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** One argument quoted so that shlex.split gives it back unchanged. */
export const quoteWord = (word: string): string => (word !== '' && safeWord.test(word) ? word : `'${word.replaceAll("'", `'"'"'`)}'`);

export const joinWords = (words: readonly string[]): string => words.map(quoteWord).join(' ');

/** shlex.split in POSIX mode (quotes, backslashes, comments off as Hermes uses it). Null when quotes do not close. */
export const splitWords = (line: string): string[] | null => {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null; else current += c;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < line.length && '\\"$`\n'.includes(line[i + 1]!)) current += line[++i];
      else current += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) { words.push(current); current = ''; inWord = false; }
      continue;
    }
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === '\\' && i + 1 < line.length) current += line[++i];
    else current += c;
  }
  if (quote !== null) return null;
  if (inWord) words.push(current);
  return words;
};

const scriptExtensions = ['.sh', '.bash', '.zsh', '.fish', '.py', '.pyw', '.rb', '.pl', '.lua', '.js', '.mjs', '.cjs', '.ts'];

/** The script a hook command runs, as Hermes picks it for its "modified since approval" check (`_command_script_path`). */
export const scriptOfCommand = (command: string): string => {
  const parts = splitWords(command);
  if (parts === null || parts.length === 0) return command;
  return parts.find((p) => scriptExtensions.some((ext) => p.toLowerCase().endsWith(ext)))
    ?? parts.find((p) => p.includes('/') || p.startsWith('~'))
    ?? parts[0]!;
};
