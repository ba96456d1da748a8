/**
 * What earlier commands of a line leave for later ones: values assigned to variables, the working directory
 * set by `cd`, and files written with known content (`cat > x.sh <<EOF ... EOF; bash x.sh`). Best effort and
 * on the cautious side: every value a variable may hold is kept, since branches and loops may pick any.
 */
import { parseOptions } from '../../domain/shell/commandOptions.ts';
import type { SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';
import type { ParameterValues } from './parameterOperations.ts';
import { staticOutput } from './staticOutput.ts';

const maxValues = 64;
const maxFiles = 64;
const maxElements = 256;

export class LineState {
  private readonly variables = new Map<string, Set<string>>();
  private readonly files = new Map<string, string>();
  /** The directory `cd` moved to, when it is known ('/', '/srv/app', '~'). */
  cwd: string | undefined;

  /** Starts from what earlier lines exported (the session's environment): each name with its one value. */
  constructor(environment: Readonly<Record<string, string>> = {}) {
    for (const [name, value] of Object.entries(environment)) this.remember(name, value);
  }

  /**
   * Indexed arrays (`a=(x y)`) with their elements; null once changed in a way not followed. A name that also
   * has a scalar value or an unknown one has no known elements.
   */
  private readonly arrays = new Map<string, string[] | null>();

  /** The value of a variable when exactly one is known (an array's first element); also answers for arrays. */
  readonly lookup: ParameterValues = Object.assign(
    (name: string): string | undefined => {
      if (this.arrays.has(name)) { const elements = this.elementsOf(name); return elements === undefined ? undefined : elements[0] ?? ''; }
      const values = this.variables.get(name);
      return values?.size === 1 && !this.unknowns.has(name) ? values.values().next().value : undefined;
    },
    { elements: (name: string) => this.elementsOf(name), defaultIfs: () => !this.variables.has('IFS') && !this.unknowns.has('IFS') && !this.arrays.has('IFS') },
  );

  /** The elements of an indexed array when every one is known. */
  elementsOf(name: string): readonly string[] | undefined {
    const elements = this.arrays.get(name);
    return elements && !this.variables.has(name) && !this.unknowns.has(name) ? elements : undefined;
  }

  /**
   * `a=(...)` (null: elements not known). `sequential`: the line runs straight, so a later assignment replaces an
   * earlier one; elsewhere either may be the one left, and the elements are then unknown.
   */
  assignArray(name: string, elements: string[] | null, sequential: boolean): void {
    const known = !this.arrays.has(name) || sequential;
    this.arrays.set(name, known && elements !== null && elements.length <= maxElements ? elements : null);
  }

  /** `a+=(...)`: followed only for an array whose elements are known, on a straight line. */
  appendArray(name: string, elements: string[] | null, sequential: boolean): void {
    const before = this.elementsOf(name);
    const after = sequential && before && elements ? [...before, ...elements] : null;
    this.arrays.set(name, after && after.length <= maxElements ? after : null);
    if (!before) this.unknowns.add(name);
  }

  /** `a[i]=v`: followed for a known array, a plain index up to its end, on a straight line. */
  setElement(name: string, index: string, value: string | null, sequential: boolean): void {
    const before = this.elementsOf(name);
    const at = /^(?:0|[1-9][0-9]{0,3})$/.test(index) ? Number(index) : -1;
    if (!sequential || !before || value === null || at < 0 || at > before.length || at >= maxElements) {
      this.arrays.set(name, null);
      this.unknowns.add(name);
      return;
    }
    const after = [...before];
    after[at] = value;
    this.arrays.set(name, after);
  }

  /** `P+=x`: the known value grows on a straight line; elsewhere both values stay possible. */
  appendScalar(name: string, text: string | null, sequential: boolean): void {
    const before = this.arrays.has(name) ? undefined : this.lookup(name);
    if (before === undefined || text === null) { this.assignedUnknown(name); return; }
    if (sequential) this.variables.set(name, new Set([before + text]));
    else this.remember(name, before + text);
  }

  /** Names also assigned something this reading cannot know (`D=$(mktemp -d)`): they have no one value. */
  private readonly unknowns = new Set<string>();

  assignedUnknown(name: string): void {
    this.unknowns.add(name);
  }

  /** The name's value (scalar or array) is not followed from here on. */
  untrack(name: string): void {
    this.unknowns.add(name);
    if (this.arrays.has(name)) this.arrays.set(name, null);
  }

  valuesOf(name: string): readonly string[] {
    return [...(this.variables.get(name) ?? [])];
  }

  remember(name: string, value: string): void {
    const values = this.variables.get(name) ?? new Set<string>();
    if (values.size < maxValues) values.add(value);
    this.variables.set(name, values);
  }

  /** Files the command writes with content known from its words: `echo ... > f`, `cat > f <<EOF`, `tee f`. */
  recordWrites(command: SimpleCommand): void {
    const output = command.program === 'tee' ? command.stdin : staticOutput(command);
    if (output === undefined) return;
    const targets = command.redirects
      .filter((redirect) => /^(?:1|&)?>>?\|?$/.test(redirect.op))
      .map((redirect) => ({ path: redirect.target, append: redirect.op.endsWith('>>') }));
    if (command.program === 'tee') {
      const options = parseOptions(command.args);
      const append = options.short.has('a') || options.long.has('append');
      targets.push(...options.operands.map((path) => ({ path, append })));
    }
    for (const { path, append } of targets) {
      if (/[$`*?]/.test(path) || (this.files.size >= maxFiles && !this.files.has(this.key(path)))) continue;
      const key = this.key(path);
      this.files.set(key, append ? (this.files.get(key) ?? '') + output : output);
    }
  }

  /** Content written to this path earlier in the line. */
  fileContent(path: string): string | undefined {
    return this.files.get(path) ?? this.files.get(this.key(path));
  }

  /** Content a process substitution is known to produce, looked up by its text as an argument. */
  rememberFile(path: string, content: string): void {
    if (this.files.size < maxFiles) this.files.set(path, content);
  }

  /** Follows `cd DIR` / `pushd DIR` when DIR is known; an unknown move forgets the directory. */
  changeDirectory(command: SimpleCommand): void {
    const target = parseOptions(command.args).operands[0] ?? '~';
    if (target === '-' || /[$`*?]/.test(target)) this.cwd = undefined;
    else if (target.startsWith('/')) this.cwd = normalizePath(target);
    else if (target === '~' || target === '~/') this.cwd = '~';
    else this.cwd = this.cwd?.startsWith('/') ? normalizePath(`${this.cwd}/${target}`) : undefined;
  }

  /** Runs `body` with the directory restored afterwards: subshells and substitutions keep their `cd` to themselves. */
  inSubshell<T>(body: () => T): T {
    const saved = this.cwd;
    try {
      return body();
    } finally {
      this.cwd = saved;
    }
  }

  /** Paths as written and as `cd` would resolve them name the same file ('./x.sh', 'x.sh', '/tmp/x.sh' after cd /tmp). */
  private key(path: string): string {
    const bare = path.replace(/^(?:\.\/)+/, '');
    if (bare.startsWith('/')) return normalizePath(bare);
    return this.cwd?.startsWith('/') ? normalizePath(`${this.cwd}/${bare}`) : bare;
  }
}
