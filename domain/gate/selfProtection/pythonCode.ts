/**
 * What Python code given to `execute_code` names: its string literals, and whether it is no more than a read
 * of a file. Deliberately simple and cautious: a literal naming a protected path blocks unless the whole cell is
 * a plain read (open(...) without a write mode, Path.read_text, print) of a file that is not a secret.
 * Literals glued together in the code (`'toll'+'gate.yaml'`, `''.join([...])`, `os.path.join('a','b')`, and the
 * folds of literalFolds.ts) are also read as the one string they make.
 */
import { foldOnce, literalFolds } from './literalFolds.ts';

const literal = /([rRbBuUfF]{0,2})('''|"""|'|")((?:\\[\s\S]|(?!\2)[^\\])*?)\2/g;
const oneLiteral = String.raw`(?:[rRbBuU]{0,2})(?:'([^'\\\n]*)'|"([^"\\\n]*)")`;
const plus = new RegExp(`${oneLiteral}\\s*\\+\\s*${oneLiteral}`);
const joined = new RegExp(String.raw`(?:''|"")\s*\.join\(\s*[\[(]\s*((?:${oneLiteral}\s*,\s*)*${oneLiteral})\s*,?\s*[\])]\s*\)`);
const pathJoined = new RegExp(String.raw`os\.path\.join\(\s*((?:${oneLiteral}\s*,\s*)*${oneLiteral})\s*\)`);
const literalsIn = (list: string): string[] => [...list.matchAll(new RegExp(oneLiteral, 'g'))].map((m) => m[1] ?? m[2] ?? '');
const quote = (text: string): string => `'${text.replace(/'/g, '')}'`;

const parenthesized = /(?<![\w)\]])\(\s*([rRbBuU]{0,2}(?:'[^'\\\n]*'|"[^"\\\n]*"))\s*\)/g;

/** The code with adjacent literal concatenations folded into one literal (a bounded number of rounds). */
export const foldLiterals = (code: string): string => {
  // Every fold needs a `+`, a join, or one of literalFolds.ts' marks; most code has none.
  const more = literalFolds.some((f) => f.mayApply(code));
  if (!more && !code.includes('+') && !code.includes('.join') && !code.includes("('") && !code.includes('("')) return code;
  let folded = more ? foldOnce(code) : code;
  // literalFolds' folds are dearer: they run again only when these made something new for them (`('a' + 'b').lower()`).
  let fresh = false;
  for (let round = 0; round < 64; round++) {
    let next = folded
      .replace(plus, (_m, a1, a2, b1, b2) => quote(`${a1 ?? a2 ?? ''}${b1 ?? b2 ?? ''}`))
      .replace(joined, (_m, list: string) => quote(literalsIn(list).join('')))
      .replace(pathJoined, (_m, list: string) => quote(literalsIn(list).join('/')))
      // `('.' + 'hermes')` once folded: a literal in grouping parentheses (not a call's) is the literal.
      .replace(parenthesized, '$1');
    if (next !== folded) fresh = true;
    else if (more && fresh) { next = foldOnce(folded); fresh = false; }
    if (next === folded) return folded;
    folded = next;
  }
  return folded;
};

export const pythonStringLiterals = (code: string): string[] => {
  // A fold may make a literal of a bare word (Tcl's `$env(HOME)/x`): only code with neither has none.
  if (!hasQuote(code) && !code.includes('env(HOME)')) return [];
  const out: string[] = [];
  for (const match of code.matchAll(literal)) out.push(match[3]!);
  const folded = foldLiterals(code);
  if (folded !== code) for (const match of folded.matchAll(literal)) if (!out.includes(match[3]!)) out.push(match[3]!);
  return out;
};

/**
 * Calls and names that change files, processes or sockets; one of them and the cell is not a plain read (archives
 * extracted, `os.open` flags that write, `Path.symlink_to`: red team 6; a library's savers, `numpy.savetxt`, `df.to_csv`,
 * `fileinput.input(…, inplace=True)`: red team 13). Node's
 * and Ruby's spellings too (`fs.rmSync`, `writeFileSync`, `File.delete`, `FileUtils.rm_rf`): scripts in those
 * languages are judged here as well.
 */
const changing = /\b(?:rmSync|rm|rm_rf|rm_r|unlinkSync|rmdirSync|writeFile\w*|appendFile\w*|createWriteStream|renameSync|copyFileSync|cpSync|symlinkSync|linkSync|truncateSync|mkdirSync|chmodSync|chownSync|delete|FileUtils|write|writelines|write_text|write_bytes|remove|unlink|rmdir|rmtree|rename|replace|move|copy\w*|chmod|chown|symlink|link|truncate|touch|mkdir|makedirs|system|popen|spawn\w*|exec\w*|subprocess|socket|connect|urlopen|requests|http|shutil|kill|signal|sqlite3|eval|compile|__import__|getattr|globals|ctypes|extract\w*|unpack_archive|ftruncate|O_(?:RDWR|WRONLY|TRUNC|CREAT|APPEND)|symlink_to|hardlink_to|link_to|mkfifo|mknod|utime|save|savetxt|savez\w*|tofile|to_csv|to_json|to_parquet|to_excel|to_pickle|to_hdf|to_feather|imwrite|imsave|savefig|inplace)\b/;
/** A mode argument that writes (`open(p, 'w')`, `mode="a+"`), judged before the literals are blanked. */
const writeMode = /,\s*(?:mode\s*=\s*)?[rRbB]{0,2}(['"])[rbt]*[wax+][rbtwax+]*\1/;

export const isPlainRead = (code: string): boolean => !writeMode.test(code) && !changing.test(code.replace(literal, '""'));

/** `print('data/keys')`, `console.log("…")`, `puts '…'`: a literal that is only printed opens nothing. */
const printedLiteral = /\b(?:print|console\.log|puts|say|echo)\s*\(?\s*(?:[rRbBuUfF]{0,2}(?:'[^'\n]*'|"[^"\n]*")\s*(?:,\s*)?)+\)?/g;
export const withoutPrintedLiterals = (code: string): string => (hasQuote(code) ? code.replace(printedLiteral, 'print()') : code);

/** Every literal, printed or folded, starts with a quote, or is built from character codes (runtimeStrings.ts). */
const hasQuote = (code: string): boolean => code.includes("'") || code.includes('"') || /chr\(|fromCharCode|\bbytes\(\s*\[/.test(code);
