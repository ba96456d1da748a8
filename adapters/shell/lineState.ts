/**
 * What earlier commands of a line leave for later ones: values assigned to variables (and the elements of indexed
 * arrays, references made with `declare -n`, attributes that change later assignments), the working directory
 * set by `cd`, and files written with known content (`cat > x.sh <<EOF ... EOF; bash x.sh`). Best effort and
 * on the cautious side: every value a variable may hold is kept, since branches and loops may pick any.
 */
import { parseOptions } from '../../domain/shell/commandOptions.ts';
import type { SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { normalizePath } from '../../domain/shell/shellPaths.ts';
import type { ParameterFacts, ParameterValues } from './parameterOperations.ts';
import { staticOutput } from './staticOutput.ts';

const maxValues = 64;
const maxFiles = 64;
const maxElements = 256;

// Shared empty collections for what most lines never use; a line writes into its own copy (see LineState).
const noArrays: ReadonlyMap<string, string[] | null> = new Map();
const noReferences: ReadonlyMap<string, string | null> = new Map();
const noNames: ReadonlySet<string> = new Set();

export class LineState implements ParameterFacts {
  private readonly variables = new Map<string, Set<string>>();
  private readonly files = new Map<string, string>();
  /** The directory `cd` moved to, when it is known ('/', '/srv/app', '~'). */
  cwd: string | undefined;
  /** The folders `pushd` left behind, so `popd` returns to them; a stack from earlier lines is unknown. */
  private dirStack: (string | undefined)[] = [];

  /** Starts from what earlier lines exported (the session's environment): each name with its one value. */
  constructor(environment: Readonly<Record<string, string>> = {}) {
    for (const [name, value] of Object.entries(environment)) this.remember(name, value);
  }

  /**
   * Indexed arrays (`a=(x y)`) with their elements; null once changed in a way not followed. A name that also
   * has a scalar value or an unknown one has no known elements.
   */
  private arrays = noArrays as Map<string, string[] | null>;
  /** Names also assigned something this reading cannot know (`D=$(mktemp -d)`): they have no one value. */
  private readonly unknowns = new Set<string>();
  /** `declare -n P=Q`: P stands for Q (null: for a variable not known). */
  private references = noReferences as Map<string, string | null>;
  /** Names whose later assignments store something else than the text (`-u`, `-l`, `-c`, `-i`, `-A`). */
  private transformed = noNames as Set<string>;
  /** Read-only names: a later assignment or unset fails and leaves the value as it was. */
  private readonlyNames = noNames as Set<string>;
  /** A reference to a variable not known was assigned through: any variable may have changed. */
  private confused = false;

  /** The value of a variable when exactly one is known (an array's first element); `facts` answers for arrays. */
  readonly lookup: ParameterValues = Object.assign(
    (name: string): string | undefined => {
      const target = this.target(name);
      if (target === undefined) return undefined;
      if (this.arrays.has(target)) { const elements = this.elementsOf(target); return elements === undefined ? undefined : elements[0] ?? ''; }
      const values = this.variables.get(target);
      return values?.size === 1 && !this.unknowns.has(target) ? values.values().next().value : undefined;
    },
    { facts: this as ParameterFacts },
  );

  /** Whether IFS is still the default (blank, tab, newline): word splitting and `"${a[*]}"` depend on it. */
  defaultIfs(): boolean {
    return !this.variables.has('IFS') && !this.unknowns.has('IFS') && !this.arrays.has('IFS') && !this.confused && !this.references.has('IFS');
  }

  isReference(name: string): boolean {
    return this.references.has(name);
  }

  /** `shopt -s nocasematch` ran on the line (true), may have (null), or did not (false). */
  private caseFolding: boolean | null = false;

  /** Whether pattern replacement ignores case: true, false, or undefined when that is not known. */
  foldsCase(): boolean | undefined {
    if (this.caseFolding === null || this.unknowns.has('BASHOPTS') || this.valuesOf('BASHOPTS').length > 1) return undefined;
    return this.caseFolding || this.lookup('BASHOPTS')?.includes('nocasematch') === true;
  }

  /** `shopt -s|-u nocasematch`: followed on a straight line with literal words; else whether it is on is not known. */
  shopt(args: readonly string[], sequential: boolean): void {
    if (!args.some((arg) => arg.includes('nocasematch') || /[$`]/.test(arg))) return;
    const literal = sequential && args.every((arg) => !/[$`]/.test(arg));
    const on = args.includes('-s') && !args.includes('-u');
    const off = args.includes('-u') && !args.includes('-s');
    this.caseFolding = literal && this.caseFolding !== null && (on || off) ? on : null;
  }

  // The maps most lines never write start as shared empty ones and get their own on the first write.
  private writableArrays(): Map<string, string[] | null> {
    if (this.arrays === noArrays) this.arrays = new Map();
    return this.arrays;
  }

  /** The variable a name stands for (itself, or what a reference points to); undefined when not known. */
  private target(name: string): string | undefined {
    if (this.confused) return undefined;
    let current = name;
    for (let hops = 0; this.references.has(current); hops++) {
      const next = this.references.get(current);
      if (next === null || next === undefined || hops >= 8) return undefined;
      current = next;
    }
    return current;
  }

  /** The variable an assignment to `name` changes, or undefined after noting that any variable may have. */
  private assigned(name: string): string | undefined {
    const target = this.target(name);
    if (target === undefined) this.confused = true;
    else if (target !== name) (this.assignedThrough ??= new Set()).add(target);
    return target;
  }

  /** Variables assigned through a reference (`declare -n R=D; R=x` assigns D). */
  private assignedThrough: Set<string> | undefined;

  /** Names the line changed that its text does not show; undefined when a reference to an unknown variable was assigned (any may have changed). */
  hiddenAssignments(): ReadonlySet<string> | undefined {
    return this.confused ? undefined : this.assignedThrough ?? noNames;
  }

  /** The elements of an indexed array when every one is known. */
  elementsOf(name: string): readonly string[] | undefined {
    const target = this.target(name);
    const elements = target === undefined ? undefined : this.arrays.get(target);
    return elements && !this.variables.has(target!) && !this.unknowns.has(target!) ? elements : undefined;
  }

  /** Whether an assignment is followed as written: not through an attribute that changes it, nor to a read-only name. */
  private plain(name: string, sequential: boolean): boolean {
    if (this.transformed.has(name)) { this.untrack(name); return false; }
    // A read-only name keeps its value: on a straight line the assignment just fails; elsewhere it may not have run.
    if (this.readonlyNames.has(name)) { if (!sequential) this.untrack(name); return false; }
    return true;
  }

  /**
   * `a=(...)` (null: elements not known). `sequential`: the line runs straight, so a later assignment replaces an
   * earlier one; elsewhere either may be the one left, and the elements are then unknown.
   */
  assignArray(name: string, elements: string[] | null, sequential: boolean): void {
    const target = this.assigned(name);
    if (target === undefined || !this.plain(target, sequential)) return;
    const known = !this.arrays.has(target) || sequential;
    this.writableArrays().set(target, known && elements !== null && elements.length <= maxElements ? elements : null);
  }

  /** `a+=(...)`: followed only for an array whose elements are known, on a straight line. */
  appendArray(name: string, elements: string[] | null, sequential: boolean): void {
    const target = this.assigned(name);
    if (target === undefined || !this.plain(target, sequential)) return;
    const before = this.elementsOf(target);
    const after = sequential && before && elements ? [...before, ...elements] : null;
    this.writableArrays().set(target, after && after.length <= maxElements ? after : null);
    if (!before) this.unknowns.add(target);
  }

  /** `a[i]=v`: followed for a known array, a plain index up to its end, on a straight line. */
  setElement(name: string, index: string, value: string | null, sequential: boolean): void {
    const target = this.assigned(name);
    if (target === undefined || !this.plain(target, sequential)) return;
    // A scalar with one known value is an array of that one element (`P=x; P[1]=y`).
    const scalar = this.arrays.has(target) ? undefined : this.lookup(target);
    const before = scalar === undefined ? this.elementsOf(target) : [scalar];
    const at = /^(?:0|[1-9][0-9]{0,3})$/.test(index) ? Number(index) : -1;
    if (!sequential || !before || value === null || at < 0 || at > before.length || at >= maxElements) {
      this.untrack(target);
      return;
    }
    const after = [...before];
    after[at] = value;
    this.variables.delete(target);
    this.writableArrays().set(target, after);
  }

  /** `P+=x`: the known value grows on a straight line; elsewhere both values stay possible. */
  appendScalar(name: string, text: string | null, sequential: boolean): void {
    const target = this.assigned(name);
    if (target === undefined || !this.plain(target, sequential)) return;
    const before = this.arrays.has(target) ? undefined : this.lookup(target);
    if (before === undefined || text === null) { this.untrack(target); return; }
    if (sequential) this.variables.set(target, new Set([before + text]));
    else this.remember(target, before + text);
  }

  /**
   * `read -r P <<< x`, `printf -v P %s x`: on a straight line P then holds exactly that; elsewhere it is one more
   * value P may hold.
   */
  assignByBuiltin(name: string, value: string, sequential: boolean): void {
    const target = this.assigned(name);
    if (target === undefined || !this.plain(target, sequential)) return;
    if (!sequential) { this.remember(target, value); return; }
    this.variables.set(target, new Set([value]));
    this.unknowns.delete(target);
    if (this.arrays.has(target)) this.writableArrays().delete(target);
  }

  assignedUnknown(name: string): void {
    const target = this.assigned(name);
    if (target !== undefined && !this.readonlyNames.has(target)) this.unknowns.add(target);
  }

  /**
   * The lists the positional parameters may hold after `set -- a b` (several when a branch may pick either);
   * undefined when the line never set them (they are the shell's own, not known) or changed them in a way not followed.
   */
  private positionalLists: string[][] | undefined;
  private positionalKnown = true;

  positional(): readonly (readonly string[])[] | undefined {
    return this.positionalKnown ? this.positionalLists : undefined;
  }

  /** `set -- a b` (null: words not known): on a straight line the list; elsewhere one more it may hold. */
  setPositional(words: string[] | null, sequential: boolean): void {
    if (words === null || words.length > maxElements) { this.positionalKnown = false; return; }
    const lists = sequential || this.positionalLists === undefined ? [] : this.positionalLists;
    if (lists.length < 16) this.positionalLists = [...lists, words];
  }

  /** Runs `body` with the positional parameters a function call gives, then puts the line's own back. */
  withPositional<T>(words: string[], body: () => T): T {
    const saved = { lists: this.positionalLists, known: this.positionalKnown };
    this.positionalLists = [words];
    this.positionalKnown = !words.some((word) => /[$`]/.test(word));
    try {
      return body();
    } finally {
      this.positionalLists = saved.lists;
      this.positionalKnown = saved.known;
    }
  }

  /** `shift N`: followed on a straight line for a known list. */
  shiftPositional(count: number | null, sequential: boolean): void {
    if (this.positionalLists === undefined) return;
    if (count === null || !sequential) { this.positionalKnown = false; return; }
    this.positionalLists = this.positionalLists.map((list) => list.slice(count));
  }

  /** The name's value (scalar or array) is not followed from here on. */
  untrack(name: string): void {
    const target = this.assigned(name);
    if (target === undefined) return;
    this.unknowns.add(target);
    if (this.arrays.has(target)) this.writableArrays().set(target, null);
  }

  /** `unset P`: on a straight line P is then empty; a read-only P stays as it was. */
  unset(name: string, sequential: boolean): void {
    const target = this.assigned(name);
    if (target === undefined || !this.plain(target, sequential)) return;
    if (!sequential || this.arrays.has(target)) { this.untrack(target); return; }
    this.variables.set(target, new Set(['']));
    this.unknowns.delete(target);
  }

  /** `declare -u P` and the like: later assignments to P are not the text they assign. */
  transformsAssignments(name: string): void {
    if (this.transformed === noNames) this.transformed = new Set();
    this.transformed.add(name);
  }

  /** `readonly P`, `declare -r P`. */
  makeReadonly(name: string): void {
    if (this.readonlyNames === noNames) this.readonlyNames = new Set();
    this.readonlyNames.add(name);
  }

  /** `declare -n P=Q`: P stands for Q from here on (null: for a variable not known). */
  refer(name: string, target: string | null): void {
    if (this.references === noReferences) this.references = new Map();
    this.references.set(name, target !== null && target !== name && /^[A-Za-z_][A-Za-z0-9_]*$/.test(target) ? target : null);
  }

  /** Whether the name may also hold a value the walk did not follow (a `read -u 3 P` after `P=ls`). */
  mayBeUnknown(name: string): boolean {
    const target = this.target(name);
    return target === undefined || this.unknowns.has(target);
  }

  valuesOf(name: string): readonly string[] {
    const target = this.target(name);
    return target === undefined ? [] : [...(this.variables.get(target) ?? [])];
  }

  remember(name: string, value: string): void {
    const target = this.assigned(name);
    if (target === undefined) return;
    // Every value stays possible (a branch may pick either), so an ignored read-only assignment still counts here.
    if (this.transformed.has(target)) { this.untrack(target); return; }
    const values = this.variables.get(target) ?? new Set<string>();
    if (values.size < maxValues) values.add(value);
    this.variables.set(target, values);
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

  /**
   * `popd` back to where the line pushed from; `-n` moves only the stack. `pushd +1`, a bare `pushd` (a swap) and a
   * `popd` past what the line pushed land in folders the line never named: the directory is forgotten.
   */
  popDirectory(command: SimpleCommand): void {
    const { operands, short } = parseOptions(command.args);
    if (short.has('n')) { if (command.program === 'popd') this.dirStack.pop(); return; }
    this.cwd = command.program === 'popd' && operands.length === 0 && this.dirStack.length > 0 ? this.dirStack.pop() : undefined;
  }

  /** Follows `cd DIR` / `pushd DIR` when DIR is known; an unknown move forgets the directory. */
  changeDirectory(command: SimpleCommand): void {
    if (command.program === 'pushd' || command.program === 'popd') {
      const { operands, short } = parseOptions(command.args);
      const dir = operands[0];
      if (command.program === 'popd' || dir === undefined || /^[+-]\d+$/.test(dir) || short.has('n')) { this.popDirectory(command); return; }
      this.dirStack.push(this.cwd);
    }
    const target = parseOptions(command.args).operands[0] ?? '~';
    if (target === '-' || /[$`*?]/.test(target) || this.searchesCdpath(command, target)) this.cwd = undefined;
    else if (target.startsWith('/')) this.cwd = normalizePath(target);
    else if (target === '~' || target === '~/') this.cwd = '~';
    else this.cwd = this.cwd?.startsWith('/') ? normalizePath(`${this.cwd}/${target}`) : undefined;
  }

  /**
   * `cd NAME` (not `/…`, `~…`, `./…`, `../…`) with CDPATH set on the line, before it (`CDPATH=/root cd .hermes`) or
   * by the session, lands in whichever CDPATH folder holds NAME first: where it goes is not known here.
   */
  private searchesCdpath(command: SimpleCommand, target: string): boolean {
    if (/^(?:[/~]|\.{1,2}(?:\/|$))/.test(target)) return false;
    if (command.via.some((v) => /(?:^|\s)CDPATH=/.test(v))) return true;
    return this.unknowns.has('CDPATH') || this.valuesOf('CDPATH').some((v) => v !== '');
  }

  /** Runs `body` with the directory restored afterwards: subshells and substitutions keep their `cd` to themselves. */
  inSubshell<T>(body: () => T): T {
    const saved = this.cwd;
    const stack = [...this.dirStack];
    try {
      return body();
    } finally {
      this.cwd = saved;
      this.dirStack = stack;
    }
  }

  /** Paths as written and as `cd` would resolve them name the same file ('./x.sh', 'x.sh', '/tmp/x.sh' after cd /tmp). */
  private key(path: string): string {
    const bare = path.replace(/^(?:\.\/)+/, '');
    if (bare.startsWith('/')) return normalizePath(bare);
    return this.cwd?.startsWith('/') ? normalizePath(`${this.cwd}/${bare}`) : bare;
  }
}
