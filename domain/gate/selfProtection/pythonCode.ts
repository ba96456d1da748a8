/**
 * What Python code given to `execute_code` names: its string literals, and whether it is no more than a read
 * of a file. Deliberately simple and cautious: a literal naming a protected path blocks unless the whole cell is
 * a plain read (open(...) without a write mode, Path.read_text, print) of a file that is not a secret.
 */

const literal = /([rRbBuUfF]{0,2})('''|"""|'|")((?:\\[\s\S]|(?!\2)[^\\])*?)\2/g;

export const pythonStringLiterals = (code: string): string[] => {
  const out: string[] = [];
  for (const match of code.matchAll(literal)) out.push(match[3]!);
  return out;
};

/** Calls and names that change files, processes or sockets; one of them and the cell is not a plain read. */
const changing = /\b(?:write|writelines|write_text|write_bytes|remove|unlink|rmdir|rmtree|rename|replace|move|copy\w*|chmod|chown|symlink|link|truncate|touch|mkdir|makedirs|system|popen|spawn\w*|exec\w*|subprocess|socket|connect|urlopen|requests|http|shutil|kill|signal|sqlite3|open\s*\([^)]*['"][^'"]*[wax+][^'"]*['"])\b/;

export const isPlainRead = (code: string): boolean => !changing.test(code.replace(literal, '""'));
