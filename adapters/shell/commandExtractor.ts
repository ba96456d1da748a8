/**
 * Walks a tree-sitter-bash syntax tree and collects every simple command that would run: through lists,
 * pipelines, subshells, groups, control flow, function bodies, command and process substitutions, and the code
 * that other commands run (`bash -c`, `eval`, `xargs`, `find -exec`, a heredoc fed to a shell). Quoted text and
 * heredoc bodies stay data unless a shell reads them as code. One extractor serves one line.
 */
import type { Node, Parser } from 'web-tree-sitter';
import type { Redirect, SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { programName } from '../../domain/shell/programName.ts';
import { isShell, shellMode, stdinPaths } from '../../domain/shell/shellInvocation.ts';
import * as plumbing from './shellPlumbing.ts';
import { builtinOptions } from './builtinOptions.ts';
import { builtinValues } from './builtinValues.ts';
import { describeInvocation } from './commandWrappers.ts';
import { deferredTexts, mayDeferCode } from './deferredCode.ts';
import { candidatesFor } from './programCandidates.ts';
import { LineState } from './lineState.ts';
import { kindOf } from './nodeKind.ts';
import { isShellScript, scriptFile } from './scriptFiles.ts';
import { readRedirect, redirectTypes, type Feed, type ReadRedirect } from './redirects.ts';
import { expandBraces, expandedVariable, listWords, splitOnIfs, wordValue } from './shellWords.ts';
import { staticOutput } from './staticOutput.ts';
import { byteOffset, isReparsedBackticks, syntaxProblems } from './syntaxProblems.ts';

/** Nesting of substitutions, nested shells, function bodies and xargs/find commands before we give up. */
export const maxNestingDepth = 16;
/** Syntax-tree depth walked before giving up (guards the JavaScript stack against `((((...))))`). */
const maxTreeLevel = 400;
/** Wrappers peeled from one command (`sudo nice nohup ...`). */
const maxWrappers = 32;
/** Functions remembered for their calls, and calls walked again with their arguments, per line. */
const maxFunctions = 32;
const maxFunctionCalls = 16;
/** Commands reported for one line. */
const maxCommands = 5000;

interface Scope {
  /** The text of the tree being walked (the line, or a nested shell string). */
  readonly source: string;
  readonly via: readonly string[];
  readonly depth: number;
  readonly pipedFrom: readonly string[];
  /** Redirections that apply to every command in this scope (from a wrapper, a group, an outer shell). */
  readonly redirects: readonly Redirect[];
  readonly background: boolean;
  readonly stdin: Feed | undefined;
  /** The file an earlier stage `cat`s into this one when its text is not known yet (`cat fifo | sh`). */
  readonly pipedFile?: string;
  /** Patterns for the names an earlier stage lists (`find DIR`, `ls PATTERN`): a `read` there takes one of them. */
  readonly pipedListing?: readonly string[];
  /** '' on the line itself; else which nested string we are in, for problem messages. */
  readonly where: string;
  /** Index in the line of the top-level command that carried a nested string. */
  readonly anchor: number;
}

/** Redirections and input that apply to the last command of a statement (`a && b > f` redirects b). */
interface Tail {
  readonly redirects: readonly Redirect[];
  readonly stdin: Feed | undefined;
  /** Words the grammar read as extra redirect targets (`echo a > f b`: 'b' is an argument of echo). */
  readonly extraArgs: readonly string[];
}

const noTail: Tail = { redirects: [], stdin: undefined, extraArgs: [] };

/** Named nodes that never contain anything to walk. */
const leafTypes = new Set([
  'word', 'raw_string', 'ansi_c_string', 'number', 'variable_name', 'string_content', 'heredoc_content', 'heredoc_start',
  'heredoc_end', 'file_descriptor', 'test_operator', 'special_variable_name', 'extglob_pattern', 'comment', 'regex',
]);
const compoundTypes = new Set([
  'subshell', 'compound_statement', 'if_statement', 'while_statement', 'for_statement', 'c_style_for_statement',
  'case_statement', 'do_group', 'else_clause', 'elif_clause',
]);

export class CommandExtractor {
  readonly commands: SimpleCommand[] = [];
  readonly problems: string[] = [];
  /** Variables, working directory and files that earlier commands of the line left behind. */
  private readonly state: LineState;

  constructor(
    private readonly parser: Parser,
    private readonly line: string,
    private readonly environment: Readonly<Record<string, string>> = {},
  ) {
    this.state = new LineState(environment);
  }

  // The line's text is read for these once; exports(), touched() and unsets() all ask.
  private assignedNames: string[] | undefined;
  private exportedByName: ReadonlyMap<string, 'export' | 'unset'> | undefined;
  private assigned(): string[] {
    return this.assignedNames ??= touchedNames(this.line);
  }
  private exported(): ReadonlyMap<string, 'export' | 'unset'> {
    return this.exportedByName ??= exportedNames(this.line);
  }

  // Names that commands the walk reported assign or export (`"read" D`, `\export D=…`, `printf -v "$X"`), which the
  // text readings below do not see.
  private walkedTouched: Set<string> | undefined;
  private walkedExports: Set<string> | undefined;

  /** The variables the line exports or unsets, with the value it leaves when that is one known text. */
  exports(): Record<string, string | null> | undefined {
    // Without one of these words nothing below can export a name (the common line).
    if (!/\b(?:export|declare|typeset|local|readonly|unset|set)\b/.test(this.line)) return undefined;
    const names = new Map(this.exported());
    const unsure = new Set<string>();
    // `set -a`: every name the line assigns is exported.
    if (/\bset\s+(?:-[a-zA-Z]*a|-o\s+allexport)\b/.test(this.line)) for (const name of this.assigned()) if (!names.has(name)) names.set(name, 'export');
    // An export whose words the text reading above could not split (`export A=$(x y) B=…`): every name the line
    // assigns may be exported, with a value not known.
    if (/\b(?:export|declare|typeset|local|readonly)\b/.test(this.line)) {
      for (const name of this.assigned()) if (!names.has(name)) { names.set(name, 'export'); unsure.add(name); }
    }
    if (names.size === 0) return undefined;
    // A value is known only on a straight line that assigns the name once: a branch, a subshell, a function, a
    // pipeline stage or a later plain assignment may leave another value behind (red team 4).
    const straight = !unclearExportSyntax.test(this.line);
    const out: Record<string, string | null> = {};
    for (const [name, how] of names) {
      if (how === 'unset') { out[name] = null; continue; }
      const once = assignmentCount(this.line, name) <= 1;
      out[name] = straight && once && !unsure.has(name) ? this.state.lookup(name) ?? null : null;
    }
    return out;
  }

  /** Names the line assigns or unsets in any way (a name the session exported keeps whatever it is given). */
  touched(): string[] | undefined {
    const names = [...new Set([...this.assigned(), ...this.exported().keys()])];
    return names.length === 0 ? undefined : names;
  }

  /** Names the walk saw assigned or exported that the text readings may miss (see ShellAnalysis.walked). */
  walked(): { touched: string[]; exported: string[] } | undefined {
    const hidden = this.state.hiddenAssignments();
    if (this.walkedTouched === undefined && this.walkedExports === undefined && hidden !== undefined && hidden.size === 0) return undefined;
    // A reference to a variable not known was assigned through: every variable the line started with may have changed.
    const every = hidden === undefined ? Object.keys(this.environment) : [];
    return { touched: [...new Set([...(this.walkedTouched ?? []), ...(hidden ?? []), ...every])], exported: [...(this.walkedExports ?? [])] };
  }

  /** Names the line makes read-only (`readonly D`, `declare -r D`): later assignments to them fail, silently. */
  readonlyNames(): string[] | undefined {
    const names = new Set<string>();
    if (!this.line.includes('readonly') && !this.line.includes('declare') && !this.line.includes('typeset') && !this.line.includes('local')) return undefined;
    for (const m of this.line.matchAll(/(?:^|[\s;&|(){}`])(?:readonly|(?:declare|typeset|local)\s+(?:-[a-zA-Z]*\s+)*-[a-zA-Z]*r[a-zA-Z]*)((?:\s+-[a-zA-Z]+)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*(?:=\S*)?)+)/g))
      for (const word of m[2]!.trim().split(/\s+/)) { const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word)?.[0]; if (name !== undefined) names.add(name); }
    return names.size === 0 ? undefined : [...names];
  }

  /** Names a straight line unsets (their value is then gone, not unknown; elsewhere an unset may not run). */
  unsets(): string[] | undefined {
    const names = [...this.exported()].filter(([, how]) => how === 'unset').map(([name]) => name);
    return names.length === 0 || unclearExportSyntax.test(this.line) ? undefined : names;
  }

  run(): void {
    const nul = this.line.indexOf('\0');
    if (nul >= 0) this.problems.push(`NUL byte at byte ${byteOffset(this.line, nul)}: the command cannot be passed to a shell intact`);
    this.parseAndVisit(this.line, {
      source: this.line, via: [], depth: 0, pipedFrom: [], redirects: [], background: false, stdin: undefined,
      where: '', anchor: 0,
    }, 0);
    this.feedPendingReaders();
  }

  /** `level` carries on from the enclosing tree, so nested strings cannot multiply the stack depth. */
  private parseAndVisit(source: string, scope: Scope, level: number): void {
    const tree = this.parser.parse(source);
    if (!tree) {
      this.problem('the parser returned no tree', 0, scope);
      return;
    }
    try {
      const root = tree.rootNode;
      if (root.hasError) for (const found of syntaxProblems(root, source)) this.problem(found.what, found.index, scope);
      this.visit(root, scope, level);
    } finally {
      tree.delete();
    }
  }

  private problem(what: string, index: number, scope: Scope): void {
    if (this.problems.length >= 20) return;
    this.problems.push(
      scope.where === ''
        ? `${what} at byte ${byteOffset(this.line, index)}`
        : `${what} at byte ${byteOffset(scope.source, index)} of the ${scope.where} (command at byte ${byteOffset(this.line, scope.anchor)})`,
    );
  }

  private capped = false;

  private tooManyCommands(scope: Scope): void {
    if (!this.capped) this.problem(`more than ${maxCommands} commands`, 0, scope);
    this.capped = true;
  }

  /** Walks one node; returns the simple command it is, when it is one (a pipeline stage's output source). */
  private visit(node: Node, scope: Scope, level: number, tail: Tail = noTail, type = kindOf(node).type): SimpleCommand | undefined {
    if (this.capped) return undefined;
    if (level > maxTreeLevel) {
      this.problem(`nesting deeper than ${maxTreeLevel} syntax levels`, node.startIndex, scope);
      return undefined;
    }
    switch (type) {
      case 'command':
        return this.command(node, scope, level, tail);
      case 'redirected_statement':
        return this.redirectedStatement(node, scope, level, tail);
      case 'pipeline':
        this.pipeline(pipelineStages(node).map((n) => this.nodeStage(n)), scope, level, tail);
        return undefined;
      case 'list': {
        const statements = listStatements(node);
        statements.forEach((statement, i) => this.visit(statement, scope, level + 1, i === statements.length - 1 ? tail : noTail));
        return undefined;
      }
      case 'negated_command':
        for (const child of node.namedChildren) this.visit(child, scope, level + 1, tail);
        return undefined;
      case 'function_definition':
        this.functionDefinition(node, scope, level);
        return undefined;
      case 'variable_assignment': {
        const first = this.commands.length;
        this.visitChildren(node, scope, level);
        this.assign(node, scope, first, level);
        return undefined;
      }
      case 'expansion': {
        // `${P:=x}` / `${P=x}` assign P when it is empty / unset: a P known to be empty is then no longer known.
        const match = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(:?)=/.exec(scope.source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 260)));
        if (match) {
          const current = this.state.lookup(match[1]!);
          if (current === undefined || (current === '' && match[2] === ':')) this.state.untrack(match[1]!);
        }
        if (node.childCount > 0) this.visitChildren(node, scope, level);
        return undefined;
      }
      case 'declaration_command':
      case 'unset_command': {
        // `declare -n P=Q`, `declare -u P`, `readonly P`, `unset P`: read as the builtin run with these words.
        const verb = scope.source.slice(node.startIndex, node.firstChild?.endIndex ?? node.startIndex);
        const args = node.namedChildren.map((child) => this.declarationWord(child, scope));
        // `unset 'a[$(…)]'`, `declare -p 'a[$(…)]'`: a name's subscript is expanded when the builtin runs.
        node.namedChildren.forEach((child, i) => {
          if (kindOf(child).type !== 'variable_assignment' && mayDeferCode(args[i]!)) this.walkDeferred(args[i]!, undefined, scope, child.startIndex, level);
        });
        const references = type === 'declaration_command' && args.some((arg) => /^-[a-zA-Z]*n/.test(arg));
        this.declareBefore(verb, args);
        const children = node.namedChildren;
        for (const child of children) {
          // A reference's assignment names a variable rather than giving one a value: only its substitutions run.
          if (references && kindOf(child).type === 'variable_assignment') this.visitChildren(child, scope, level + 1);
          else this.visit(child, scope, level + 1);
        }
        // `declare "$X=v"`: a word the grammar did not read as an assignment still assigns what it spells.
        children.forEach((child, i) => {
          if (kindOf(child).type === 'variable_assignment' || kindOf(child).type === 'variable_name' || !args[i]!.includes('=')) return;
          this.declaredByCommand(verb, [...args.filter((arg) => /^[-+]/.test(arg)), args[i]!], false);
        });
        this.declareAfter(verb, args);
        return undefined;
      }
      case 'for_statement':
        this.loopVariable(node, scope);
        this.visitChildren(node, tail === noTail ? scope : withTail(scope, tail), level);
        return undefined;
      case 'command_substitution':
      case 'process_substitution': {
        const opener = scope.source.slice(node.startIndex, node.startIndex + 2);
        const label = opener === '$(' ? '$(...)' : opener.startsWith('`') ? '`...`' : `${opener}...)`;
        if (isReparsedBackticks(node, scope.source)) {
          const body = scope.source.slice(node.startIndex + 1, node.endIndex - 1);
          // Inside backticks \` \$ and \\ are unescaped before the body is parsed, which is how backticks
          // nest; the grammar does not do that, so the body is parsed again as its own script.
          this.script(body.replace(/\\([\\`$])/g, '$1'), scope, label, undefined, node.startIndex, level, { pipedFrom: [], redirects: [], background: false });
          return undefined;
        }
        // A command substitution reads the shell's own stdin (`sh -c 'eval "$(cat)"'` run on piped text).
        const inner = this.nested(scope, label, node.startIndex, type === 'command_substitution' && scope.stdin !== undefined ? { stdin: scope.stdin } : undefined);
        if (!inner) return undefined;
        const first = this.commands.length;
        this.state.inSubshell(() => this.visitChildren(node, inner, level));
        // `bash <(echo '...')` runs what the substitution prints: remember it as the content of that "file".
        // (`cat f` of a file written earlier on the line counts here, where the plumbing reads a shell's input.)
        const output = this.substitutionOutput(first) ?? (this.commands.length === first + 1 ? plumbing.catOutput(this.commands[first]!, (path) => this.state.fileContent(path)) : undefined);
        if (type === 'process_substitution' && output !== undefined) this.state.rememberFile(textOf(scope, node), output);
        return undefined;
      }
      case 'test_command': {
        // `[[ -v 'a[$(…)]' ]]`, `[ -v 'a[…]' ]`: a quoted name's subscript is expanded when the test runs.
        if (node.childCount > 0) this.visitChildren(node, scope, level);
        if (mayDeferCode(textOf(scope, node))) for (const quoted of quotedDescendants(node)) this.walkDeferred(wordValue(quoted, scope.source, this.state.lookup), undefined, scope, quoted.startIndex, level);
        return undefined;
      }
      case 'subshell':
        this.state.inSubshell(() => this.visitChildren(node, tail === noTail ? scope : withTail(scope, tail), level));
        return undefined;
      default:
        if (tail !== noTail && compoundTypes.has(type)) {
          this.visitChildren(node, withTail(scope, tail), level);
          return undefined;
        }
        if (node.childCount > 0) this.visitChildren(node, scope, level);
        return undefined;
    }
  }

  /** Named children in order; a child followed by '&' runs in the background. */
  private visitChildren(node: Node, scope: Scope, level: number): void {
    const children = node.children;
    const kinds = children.map(kindOf);
    for (let i = 0; i < children.length; i++) {
      const { type, named } = kinds[i]!;
      if (!named || leafTypes.has(type)) continue;
      const background = !scope.background && kinds[i + 1]?.type === '&';
      this.visit(children[i]!, background ? { ...scope, background: true } : scope, level + 1, noTail, type);
    }
  }

  /** A scope one nesting level down (substitution, nested shell, function body), or undefined past the cap. */
  private nested(scope: Scope, label: string, index: number, keep?: Partial<Scope>): Scope | undefined {
    if (scope.depth + 1 > maxNestingDepth) {
      this.problem(`nesting deeper than ${maxNestingDepth} levels (${[...scope.via, label].join(' > ')})`, index, scope);
      return undefined;
    }
    return {
      ...scope, via: [...scope.via, label], depth: scope.depth + 1, pipedFrom: [], redirects: [], background: false,
      stdin: undefined, ...keep,
    };
  }

  private pipeline(stages: readonly Stage[], scope: Scope, level: number, tail: Tail): void {
    const upstream = [...scope.pipedFrom];
    let feed = scope.stdin;
    let pipedFile: string | undefined;
    let pipedListing: readonly string[] | undefined;
    stages.forEach((stage, i) => {
      const first = this.commands.length;
      const stageScope: Scope = { ...scope, pipedFrom: [...upstream], stdin: feed, pipedFile, pipedListing };
      const primary = stage(stageScope, level + 1, i === stages.length - 1 ? tail : noTail);
      for (let k = first; k < this.commands.length; k++) {
        const program = this.commands[k]!.program;
        if (!upstream.includes(program)) upstream.push(program);
      }
      const output = plumbing.stageOutput(this.commands.slice(first), primary);
      feed = output === undefined ? undefined : { text: output, label: `${primary?.program ?? '{ … }'} |` };
      pipedFile = output === undefined && primary?.program === 'cat' && primary.args.length === 1 ? primary.args[0] : undefined;
      pipedListing = output === undefined && primary !== undefined ? listedPatterns(primary) : undefined;
    });
  }

  private redirectedStatement(node: Node, scope: Scope, level: number, tail: Tail): SimpleCommand | undefined {
    let body: Node | undefined;
    const redirects: Redirect[] = [];
    const extraArgs: string[] = [];
    const pipeTo: Node[] = [];
    const then: Node[] = [];
    let feed: Feed | undefined;
    for (const child of node.namedChildren) {
      const type = kindOf(child).type;
      if (redirectTypes.has(type)) {
        const read = this.redirect(child, scope, level);
        redirects.push(...read.redirects);
        extraArgs.push(...read.extraArgs);
        pipeTo.push(...read.pipeTo);
        then.push(...read.then);
        feed = read.feed ?? feed;
      } else if (body === undefined && type !== 'ERROR') {
        body = child;
      } else {
        this.visit(child, scope, level + 1);
      }
    }
    const ownTail: Tail = {
      redirects: [...redirects, ...tail.redirects],
      stdin: feed ?? tail.stdin,
      extraArgs: [...extraArgs, ...tail.extraArgs],
    };
    let primary: SimpleCommand | undefined;
    const runBody = (bodyScope: Scope, bodyLevel: number, bodyTail: Tail): SimpleCommand | undefined =>
      body ? this.visit(body, bodyScope, bodyLevel, bodyTail) : this.bareRedirection(node, bodyScope, bodyTail);
    if (pipeTo.length > 0) {
      const stages: Stage[] = [(s, l) => runBody(s, l, ownTail), ...pipeTo.flatMap(pipelineStages).map((n) => this.nodeStage(n))];
      this.pipeline(stages, scope, level, tail);
    } else {
      primary = runBody(scope, level + 1, ownTail);
    }
    for (const statement of then) this.visit(statement, scope, level + 1);
    return primary;
  }

  private nodeStage(node: Node): Stage {
    return (scope, level, tail) => this.visit(node, scope, level, tail);
  }

  /** `> file` alone truncates the file: reported as the null command `:` with that redirection. */
  private bareRedirection(node: Node, scope: Scope, tail: Tail): SimpleCommand {
    return this.report(
      [':'],
      { ...scope, redirects: [...tail.redirects, ...scope.redirects] },
      scope.source.slice(node.startIndex, node.endIndex),
      tail.stdin,
    );
  }

  /** Reads one redirection; substitutions in its target or heredoc body are walked as they run. */
  private redirect(node: Node, scope: Scope, level: number): ReadRedirect {
    const firsts = new Map<number, number>();
    return readRedirect(node, scope.source, this.state.lookup, (inner) => { firsts.set(inner.startIndex, this.commands.length); this.visit(inner, scope, level + 1); },
      (code) => this.script(code, scope, '`...`', undefined, node.startIndex, level),
      (target) => {
        const first = firsts.get(target.startIndex);
        if (first === undefined) return undefined;
        const whole = this.wholeSubstitution(target, scope, first);
        const type = kindOf(target).type;
        return whole ?? (type === 'string' || type === 'concatenation' ? this.withSubstitution(target, scope.source, first, wordValue(target, scope.source, this.state.lookup)) : undefined);
      });
  }

  private command(node: Node, scope: Scope, level: number, tail: Tail): SimpleCommand | undefined {
    const source = scope.source;
    const words: string[] = [];
    const assignments: string[] = [];
    const redirects: Redirect[] = [];
    let feed: Feed | undefined;
    let programChoices: string[][] | undefined;
    let programNode: Node | undefined;
    let lastEnd = -1;
    for (const child of node.children) {
      const { type, named } = kindOf(child);
      if (!named) continue; // includes the '$' of a translated string `$"..."`, which reads as the string

      if (type === 'variable_assignment') {
        // A prefix assignment only sets the command's environment: visited for substitutions, not recorded.
        assignments.push(source.slice(child.startIndex, child.endIndex));
        if (child.childCount > 0) this.visitChildren(child, scope, level + 1);
        const prefixName = child.childForFieldName('name');
        const prefixValue = child.childForFieldName('value');
        if (prefixName && prefixValue) {
          const text = wordValue(prefixValue, source, this.state.lookup);
          if (mayDeferCode(text)) this.walkDeferred(text, textOf(scope, prefixName), scope, child.startIndex, level);
        }
      } else if (redirectTypes.has(type)) {
        const read = this.redirect(child, scope, level);
        redirects.push(...read.redirects);
        words.push(...read.extraArgs);
        feed = read.feed ?? feed;
        for (const statement of [...read.pipeTo, ...read.then]) this.visit(statement, scope, level + 1);
      } else if (type === 'ERROR' || type === 'comment') {
        this.visit(child, scope, level + 1);
      } else {
        const word = type === 'command_name' ? (child.firstNamedChild ?? child) : child;
        const before = this.commands.length;
        if (word.childCount > 0) this.visit(word, scope, level + 1);
        if (type === 'command_name') { programChoices = this.programChoices(word, source, before, scope); programNode = word; }
        // An unquoted expansion in command position splits too (`mapfile a <<< x; ${a[0]} …`), unless it named choices.
        const values = this.argumentValues(word, source, before, type !== 'command_name' || programChoices === undefined, scope);
        if (quotedTypes.has(kindOf(word).type)) for (const value of values) if (mayDeferCode(value)) this.walkDeferred(value, undefined, scope, child.startIndex, level);
        // Nodes with no space between them are one shell word.
        if (child.startIndex === lastEnd && words.length > 0 && values.length === 1) words[words.length - 1] += values[0]!;
        else words.push(...values);
        lastEnd = child.endIndex;
      }
    }
    if (words.length === 0) return undefined;
    words.push(...tail.extraArgs);
    const home = this.changedHome(scope);
    if (home !== undefined) for (let i = 0; i < words.length; i++) words[i] = plumbing.withHome(words[i]!, home);
    // A bare `cd` goes to HOME: the one the line set.
    if (home !== undefined && words.length === 1 && words[0] === 'cd') words.push(plumbing.withHome('~', home));
    const commandScope: Scope = {
      ...scope,
      via: assignments.length > 0 ? [...scope.via, assignments.join(' ')] : scope.via,
      redirects: home === undefined ? [...redirects, ...tail.redirects, ...scope.redirects] : [...redirects, ...tail.redirects, ...scope.redirects].map((r) => ({ ...r, target: plumbing.withHome(r.target, home) })),
      anchor: scope.where === '' ? node.startIndex : scope.anchor,
    };
    const text = source.slice(node.startIndex, node.endIndex);
    const stdin = feed ?? tail.stdin ?? scope.stdin;
    if (!programChoices) {
      const split = splitOnIfs(words);
      const reported = this.emit(split, commandScope, text, stdin, node.startIndex, level);
      // A program word the line does not determine is also judged as each guard program its arguments would reach.
      const unquotedGlob = () => programNode !== undefined && !/['"\\]/.test(textOf(scope, programNode));
      for (const candidate of candidatesFor(split[0]!, unquotedGlob, split.slice(1)))
        this.emit([candidate, ...split.slice(1)], { ...commandScope, via: [...commandScope.via, `candidate ${candidate} for ${split[0]}`] }, text, stdin, node.startIndex, level);
      // `for f in /tmp/a ~/.hermes/.env; do rm "$f"; done`: an argument or target whose variable holds one of
      // several values the line gave is judged under each of them.
      for (const [name, value] of this.severalValues(split, commandScope.redirects)) {
        const put = (word: string) => word.split(`\${${name}}`).join(value).split(new RegExp(`\\$${name}(?![A-Za-z0-9_])`)).join(value);
        this.emit(split.map(put), { ...commandScope, redirects: commandScope.redirects.map((r) => ({ ...r, target: put(r.target) })), via: [...commandScope.via, `$${name} as ${value}`] }, text, stdin, node.startIndex, level);
      }
      return reported;
    }
    // The program is named at run time from values seen earlier in the line: each of them may run.
    const args = splitOnIfs(words.slice(1));
    const reported = programChoices.map((program) => this.emit([...program, ...args], commandScope, text, stdin, node.startIndex, level))[0];
    // A variable that may also hold a value the walk lost (`c=ls; read -u 3 c; $c …`) is an unknown program too.
    const name = programNode === undefined ? undefined : expandedVariable(programNode, source);
    if (name !== undefined && this.state.mayBeUnknown(name))
      for (const candidate of candidatesFor('$' + name, () => false, args))
        this.emit([candidate, ...args], { ...commandScope, via: [...commandScope.via, `candidate ${candidate} for $${name}`] }, text, stdin, node.startIndex, level);
    return reported;
  }

  /** Each (name, value) for variables the words use that hold 2 to 8 values the line gave, 8 at the most in all. */
  private severalValues(words: readonly string[], redirects: readonly Redirect[]): [string, string][] {
    const out: [string, string][] = [];
    // Most commands use no variable: nothing is built for them.
    if (!words.some((w) => w.includes('$')) && !redirects.some((r) => r.target.includes('$'))) return out;
    const text = [...words, ...redirects.map((r) => r.target)].join(' ');
    for (const m of new Set([...text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g)].map((m) => m[1]!))) {
      const values = this.state.valuesOf(m);
      if (values.length < 2 || values.length > 8) continue;
      for (const value of values) if (out.length < 8) out.push([m, value]);
    }
    return out;
  }

  /**
   * The words one argument node becomes: `$(echo /)` becomes what echo prints, split as the shell splits an
   * unquoted substitution; an unquoted `{a,b}` becomes both words. Anything else is one word.
   */
  private argumentValues(word: Node, source: string, firstCommand: number, split = true, scope?: Scope): string[] {
    const type = kindOf(word).type;
    const opening = source[word.startIndex];
    const positional = scope && (opening === '$' || opening === '"') ? this.positionalChoices(source.slice(word.startIndex, word.endIndex), scope) : undefined;
    if (positional?.length === 1) return positional[0]!;
    if (type === 'command_substitution') {
      const output = this.substitutionOutput(firstCommand);
      if (output !== undefined) return output.split(/[ \t\n]+/).filter((part) => part !== '');
    }
    // `"$(rev <<< …)"`: a quoted substitution is one word, its trailing newlines dropped.
    const quoted = type === 'string' && scope !== undefined ? this.wholeSubstitution(word, scope, firstCommand) : undefined;
    if (quoted !== undefined) return [quoted];
    // `"${a[@]}"`: one word per element of an array known on the line.
    const listed = type === 'expansion' || type === 'string' ? listWords(word, source, this.state.lookup) : undefined;
    if (listed !== undefined) return listed;
    const value = wordValue(word, source, this.state.lookup);
    // An unquoted `$P` whose known value has blanks is split into words, as the shell splits it.
    if (split && (type === 'simple_expansion' || type === 'expansion') && /[ \t\n]/.test(value) && !value.includes('$') && this.state.defaultIfs())
      return value.split(/[ \t\n]+/).filter((part) => part !== '');
    if ((type === 'word' || type === 'concatenation') && value.includes(',') && !/['"$`]/.test(source.slice(word.startIndex, word.endIndex)))
      return expandBraces(value);
    return [type === 'string' || type === 'concatenation' ? this.withSubstitution(word, source, firstCommand, value) : value];
  }

  /**
   * `"$HOME/$(rev <<< semreh.)"`, `~/"$(echo … | base64 -d)"`: a word holding one substitution whose output the
   * line determines holds that output (red team 8), where it ends the word or a folder of it. Output with blanks is
   * left alone: unquoted, it would split.
   */
  private withSubstitution(word: Node, source: string, firstCommand: number, value: string): string {
    if (!value.includes('$(')) return value;
    const inner = word.descendantsOfType('command_substitution');
    if (inner.length !== 1) return value;
    const output = this.substitutionOutput(firstCommand)?.replace(/\n+$/, '');
    const spelled = source.slice(inner[0]!.startIndex, inner[0]!.endIndex);
    // Glued to a literal after it (`"$(echo /a)"plugins`), the word stays unknown and is judged by that tail, as before.
    const at = value.indexOf(spelled);
    const after = at < 0 ? '' : value[at + spelled.length] ?? '';
    return output === undefined || /\s/.test(output) || at < 0 || (after !== '' && after !== '/') ? value : value.replace(spelled, () => output);
  }

  /**
   * The programs an unquoted `$NAME` or `$(echo NAME)` in command position may name, split into words as the
   * shell would (`X='rm -rf'; $X /`); undefined when it is not such a word or nothing is known about it.
   */
  private programChoices(word: Node, source: string, firstCommand: number, scope: Scope): string[][] | undefined {
    let values: readonly string[] = [];
    const type = kindOf(word).type;
    const positional = this.positionalChoices(source.slice(word.startIndex, word.endIndex), scope)?.filter((choice) => choice.length > 0);
    if (positional !== undefined && positional.length > 1) return positional.slice(0, 16);
    if (type === 'simple_expansion' || type === 'expansion') {
      const name = expandedVariable(word, source);
      values = name === undefined ? [] : this.state.valuesOf(name);
    } else if (type === 'command_substitution') {
      const output = this.substitutionOutput(firstCommand);
      values = output === undefined ? [] : [output];
    }
    const choices = values.map((value) => value.split(/[ \t\n]+/).filter((part) => part !== '')).filter((choice) => choice.length > 0);
    return choices.length > 0 ? choices.slice(0, 16) : undefined;
  }

  /**
   * Records `NAME=value` (also under export/local/declare) when the value is known text, `a=(x y)` with its
   * elements, and follows `NAME+=x`, `a+=(z)` and `a[1]=v` on a line that runs straight.
   */
  private assign(node: Node, scope: Scope, firstCommand = this.commands.length, level = 0): void {
    const name = node.childForFieldName('name');
    const value = node.childForFieldName('value');
    if (!name) return;
    const appends = textOf(scope, node)[name.endIndex - node.startIndex] === '+';
    if (name.type === 'subscript') {
      // `BASH_ALIASES[x]='…'` defines an alias: its text runs wherever x is typed later, so it is walked as code.
      const array = name.childForFieldName('name') ?? name.namedChildren[0];
      if (array && value && textOf(scope, array) === 'BASH_ALIASES') this.script(wordValue(value, scope.source, this.state.lookup), scope, 'BASH_ALIASES', undefined, node.startIndex, level);
      this.assignElement(name, value, scope);
      return;
    }
    if (name.type !== 'variable_name') return;
    const variable = textOf(scope, name);
    if (value?.type === 'array') {
      const elements = this.arrayElements(value, scope);
      if (appends) this.state.appendArray(variable, elements, this.straight());
      else this.state.assignArray(variable, elements, this.straight());
      return;
    }
    const text = value ? this.substitutedValue(value, scope, firstCommand) ?? wordValue(value, scope.source, this.state.lookup) : '';
    if (mayDeferCode(text)) this.walkDeferred(text, variable, scope, node.startIndex, level);
    if (appends) { this.state.appendScalar(variable, /[$`]/.test(text) ? null : text, this.straight()); return; }
    if (/[$`]/.test(text)) { this.state.assignedUnknown(variable); return; }
    this.state.remember(variable, text);
  }

  /**
   * `c=$(printf '\x68ermes')`: a value that is the whole output of one command whose output the line determines
   * (echo, printf, cat of a heredoc), trailing newlines dropped as the shell drops them.
   */
  private substitutedValue(value: Node, scope: Scope, firstCommand: number): string | undefined {
    return this.wholeSubstitution(value, scope, firstCommand);
  }

  /** A word that is one substitution (bare or in double quotes) whose output is known: that output, trailing newlines dropped. */
  private wholeSubstitution(value: Node, scope: Scope, firstCommand: number): string | undefined {
    const type = kindOf(value).type;
    const inner = type === 'string' && value.namedChildren.length === 1 && textOf(scope, value) === `"${textOf(scope, value.namedChildren[0]!)}"` ? value.namedChildren[0]! : value;
    if (kindOf(inner).type !== 'command_substitution') return undefined;
    return this.substitutionOutput(firstCommand)?.replace(/\n+$/, '');
  }

  /**
   * What a substitution whose commands start at `first` prints, when the line determines it: one command's known
   * output, or the last stage's of one pipeline (`echo … | base64 -d`, red team 8).
   */
  private substitutionOutput(first: number): string | undefined {
    const count = this.commands.length - first;
    if (count === 1) return staticOutput(this.commands[first]!);
    if (count < 2 || count > 4) return undefined;
    // Every later command a later stage of the first one's pipeline: a `;` or `&&` starts another output.
    const head = this.commands[first]!.pipedFrom.length;
    for (let k = first + 1; k < this.commands.length; k++) if (this.commands[k]!.pipedFrom.length <= head) return undefined;
    return staticOutput(this.commands[this.commands.length - 1]!);
  }

  /** `a[1]=v`: the array's element when everything is known, else the array (and `$a`) becomes unknown. */
  private assignElement(subscript: Node, value: Node | null, scope: Scope): void {
    const array = subscript.childForFieldName('name') ?? subscript.namedChildren[0];
    const index = subscript.childForFieldName('index');
    if (!array || kindOf(array).type !== 'variable_name') return;
    const text = value ? wordValue(value, scope.source, this.state.lookup) : '';
    const known = index !== null && kindOf(index).type === 'number' && (value === null || value.type !== 'array') && !/[$`]/.test(text);
    const appends = textOf(scope, subscript.parent ?? subscript)[subscript.endIndex - (subscript.parent ?? subscript).startIndex] === '+';
    this.state.setElement(textOf(scope, array), known && !appends ? textOf(scope, index) : '', known && !appends ? text : null, this.straight());
  }

  /** The elements of `(x 'y z')` when each is plain text (no expansion, glob, brace, key or tilde); else null. */
  private arrayElements(node: Node, scope: Scope): string[] | null {
    const elements: string[] = [];
    for (const child of node.namedChildren) {
      const type = kindOf(child).type;
      if (type === 'comment') continue;
      // A leading `~/` stays in the element as written: the floor reads it as the home, as the shell expands it.
      if (type === 'ERROR' || /[$`*?[{]|(?!^)~|^~(?!\/|$)/.test(textOf(scope, child))) return null;
      elements.push(wordValue(child, scope.source, this.state.lookup));
    }
    return elements;
  }

  // Whether the line runs straight through (no branch, loop, pipeline, subshell, group or background job), so
  // that one assignment after another replaces it; read from the text once, when an array or `+=` asks.
  private straightLine: boolean | undefined;
  private straight(): boolean {
    return this.straightLine ??= !branchingSyntax.test(this.line.replace(/\+?=\(/g, '='));
  }

  /** A declaration's word as the builtin receives it (`P=value` with the value's quotes removed). */
  private declarationWord(child: Node, scope: Scope): string {
    if (kindOf(child).type !== 'variable_assignment') return wordValue(child, scope.source, this.state.lookup);
    const name = child.childForFieldName('name');
    const value = child.childForFieldName('value');
    if (!name) return textOf(scope, child);
    const head = scope.source.slice(child.startIndex, value ? value.startIndex : child.endIndex);
    return head + (value ? wordValue(value, scope.source, this.state.lookup) : '');
  }

  /**
   * What `declare`/`local`/`typeset`/`export`/`readonly` flags do before their assignments run: `-u`, `-l`, `-c`,
   * `-i`, `-A` change what later assignments store; `-n` makes each name stand for another variable.
   */
  private declareBefore(verb: string, args: readonly string[]): void {
    if (verb === 'unset' || verb === 'readonly') return;
    const flags = args.filter((arg) => /^[-+][a-zA-Z]/.test(arg)).join('');
    const entries = declaredEntries(args);
    if (/-[a-zA-Z]*[ulciA]/.test(flags)) for (const { name } of entries) this.state.transformsAssignments(name);
    if (/-[a-zA-Z]*n/.test(flags)) {
      for (const { name, value } of entries) {
        // Without a value the name's own value is what it stands for; bash refuses one that is no variable name.
        const target = value ?? this.state.lookup(name) ?? null;
        if (target !== null && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(target) && value === undefined) continue;
        this.state.refer(name, target !== null && /[$`]/.test(target) ? null : target);
      }
    } else if (/\+[a-zA-Z]*n/.test(flags)) for (const { name } of entries) this.state.untrack(name);
  }

  /** `\export D=x`, `command declare -x D`, `builtin unset D`: what the declaration keywords do, seen as a command. */
  private declaredByCommand(program: string, args: readonly string[], attributes = true): void {
    if (attributes) this.declareBefore(program, args);
    const exporting = program === 'export' || args.some((arg) => /^-[a-zA-Z]*x/.test(arg));
    for (const { name, value } of declaredEntries(args)) {
      if (value !== undefined && program !== 'unset') this.state.untrack(name);
      (this.walkedTouched ??= new Set()).add(name);
      if (exporting) (this.walkedExports ??= new Set()).add(name);
    }
    if (attributes) this.declareAfter(program, args);
  }

  /** `readonly P`, `declare -r P`: later assignments fail; `unset P` empties P. */
  private declareAfter(verb: string, args: readonly string[]): void {
    if (verb === 'unset') {
      const flags = args.filter((arg) => arg.startsWith('-')).join('');
      if (flags.includes('f')) return;
      for (const arg of args) if (!arg.startsWith('-')) { const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(arg)?.[0]; if (name !== undefined) this.state.unset(name, this.straight()); }
      return;
    }
    const flags = args.filter((arg) => /^-[a-zA-Z]/.test(arg)).join('');
    if (verb === 'readonly' || flags.includes('r')) for (const { name } of declaredEntries(args)) this.state.makeReadonly(name);
  }

  /** `for NAME in a b c`: NAME may hold each of the listed words. */
  private loopVariable(node: Node, scope: Scope): void {
    const name = node.childForFieldName('variable');
    if (!name) return;
    for (const value of node.childrenForFieldName('value')) {
      const listed = listWords(value, scope.source, this.state.lookup);
      const text = listed === undefined ? wordValue(value, scope.source, this.state.lookup) : '';
      // An unquoted `$P` in the list is split into words, as the shell splits it.
      const unquoted = listed === undefined && (value.type === 'simple_expansion' || value.type === 'expansion') && this.state.defaultIfs();
      // A glob (`for f in ~/.hermes/*`) is kept as the pattern: NAME holds each name it matches, and the floor
      // matches patterns against what it protects.
      for (const word of listed ?? (unquoted ? text.split(/[ \t\n]+/).filter((part) => part !== '') : [text]))
        // (Not a /proc glob: its names are process ids, which the kill rules judge as unknown.)
        if (!/[$`]/.test(word) && !(/[*?[]/.test(word) && word.startsWith('/proc/'))) this.state.remember(textOf(scope, name), word);
    }
  }

  /** Peels wrappers, reports the command, then follows what it runs. Returns the reported command. */
  private emit(
    words: readonly string[],
    scope: Scope,
    text: string,
    feed: Feed | undefined,
    index: number,
    level: number,
  ): SimpleCommand | undefined {
    let current = words;
    let via = scope.via;
    let invocation = describeInvocation(current);
    for (let peeled = 0; !invocation.reportSelf && invocation.runs.length === 1 && invocation.scripts.length === 0; peeled++) {
      if (peeled >= maxWrappers) {
        this.problem(`more than ${maxWrappers} wrapper commands`, index, scope);
        return undefined;
      }
      via = [...via, invocation.runs[0]!.via];
      current = invocation.runs[0]!.words;
      invocation = describeInvocation(current);
    }
    const here: Scope = { ...scope, via };
    const reported = invocation.reportSelf ? this.report(current, here, text, feed) : undefined;
    for (const run of invocation.runs) {
      const inner = this.nested(here, run.via, index, { pipedFrom: here.pipedFrom, redirects: here.redirects, background: here.background });
      if (inner) this.emit(run.words, inner, text, undefined, index, level + 1);
    }
    // `echo approve a1 | xargs tollgate`: the commands xargs makes of its known input.
    if (invocation.reportSelf && invocation.runs.length === 1 && invocation.runs[0]!.via.startsWith('xargs')) {
      for (const words of plumbing.xargsCommands(current, feed?.text, (path) => this.state.fileContent(path))) {
        const inner = this.nested(here, 'xargs (input)', index, { pipedFrom: here.pipedFrom, redirects: here.redirects, background: here.background });
        if (inner) this.emit(words, inner, text, undefined, index, level + 1);
      }
    }
    for (const script of invocation.scripts) {
      // `sh -c '"$@"' _ tollgate approve …`: the words after the command string are its positional parameters.
      const positional = plumbing.commandStringArgs(current, script.source);
      if (positional === undefined) this.script(script.source, here, script.via, feed, index, level);
      else this.state.withPositional(positional, () => this.script(script.source, here, script.via, feed, index, level));
    }
    if (reported) this.followEffects(reported, here, feed, index, level);
    if (reported && this.functionBodies.size > 0) this.callFunction(reported, here, index, level);
    return reported;
  }

  /** What a reported command does to the rest of the line, and the code it reads from stdin or a file. */
  private followEffects(command: SimpleCommand, scope: Scope, feed: Feed | undefined, index: number, level: number): void {
    const { program, args } = command;
    if (program === 'cd' || program === 'pushd' || program === 'popd') this.state.changeDirectory(command);
    else if (program === 'set' || program === 'shift') this.followPositional(command, scope);
    else if (program === 'shopt') this.state.shopt(args, this.straight());
    // `read P`, `printf -v P`, `mapfile a`, `let P=1`: the value the line determines (`read -r P <<< x`), else
    // one not followed; the old one is gone.
    if (settingPrograms.has(program)) {
      const known = program === 'printf' || this.state.defaultIfs() ? builtinValues(program, args, command.stdin) : undefined;
      for (const name of assignedBy(program, args)) {
        (this.walkedTouched ??= new Set()).add(name);
        const scalar = known?.scalars.get(name);
        const elements = known?.arrays.get(name);
        if (scalar !== undefined) this.state.assignByBuiltin(name, scalar, this.straight());
        else if (elements !== undefined) this.state.assignArray(name, [...elements], this.straight());
        // `find ~/.hermes | while read f; do : > "$f"; done`: f is one of the names listed.
        else if (program === 'read' && scope.pipedListing !== undefined && scope.pipedListing.length > 0) for (const pattern of scope.pipedListing) this.state.remember(name, pattern);
        else this.state.untrack(name);
      }
    }
    // The same builtins reached through `command` / `builtin`, or named by a word the grammar did not take for them.
    if (declaringPrograms.has(program)) this.declaredByCommand(program, args);
    // `mapfile -C CODE -c 1 a`: bash evaluates CODE for every line it reads.
    if ((program === 'mapfile' || program === 'readarray') && args.some((arg) => /^-[a-zA-Z]*C/.test(arg)))
      for (const code of mapfileCallbacks(args)) this.script(code, scope, `${program} -C`, undefined, index, level);
    this.state.recordWrites(command);
    if (this.followPlumbing(command, scope, feed, index, level)) return;
    // at and batch read the commands they run later from standard input (unless -f names a file, or they only list or remove jobs).
    const atReads = (program === 'at' || program === 'batch') && !args.some((a) => /^-[a-zA-Z]*[flrdc]/.test(a));
    const readsStdin = isShell(program) ? shellMode(args).kind === 'stdin' : ((program === 'source' || program === '.') && stdinPaths.has(args[0] ?? '')) || atReads;
    if (feed && readsStdin) {
      // The shell reads its code from standard input: that input is consumed as code, not passed on.
      const label = feed.label.endsWith('|') ? `${feed.label} ${program}` : `${program} ${feed.label}`;
      const redirects = scope.redirects.filter((redirect) => !redirect.op.includes('<'));
      this.script(feed.text, { ...scope, redirects }, label, undefined, index, level);
      return;
    }
    const file = scriptFile(command);
    const content = file === undefined ? undefined : this.state.fileContent(file.path);
    if (file && content !== undefined && (!file.direct || isShellScript(content)))
      this.script(content, scope, file.label, feed, index, level);
  }

  /** `set -- a b`, `set x y`, `shift 2`: the positional parameters a later `"$@"` or `$1` expands to. */
  private followPositional(command: SimpleCommand, scope: Scope): void {
    // Inside a function they are the function's own arguments.
    if (inFunction(scope)) return;
    const { program, args } = command;
    if (program === 'shift') {
      const count = args.length === 0 ? 1 : /^[0-9]{1,3}$/.test(args[0]!) ? Number(args[0]) : null;
      this.state.shiftPositional(count, this.straight());
      return;
    }
    const words = positionalWords(args);
    if (words !== undefined) this.state.setPositional(words.some((word) => /[$`]/.test(word)) ? null : [...words], this.straight());
  }

  /** The words `"$@"`, `$*`, `$1` … stand for outside functions, when the line set them: each list they may be. */
  private positionalChoices(text: string, scope: Scope): string[][] | undefined {
    const match = /^("?)\$(?:\{([@*1-9])\}|([@*1-9]))\1$/.exec(text);
    const lists = match && !inFunction(scope) ? this.state.positional() : undefined;
    if (!match || lists === undefined) return undefined;
    const which = match[2] ?? match[3]!;
    const quoted = match[1] === '"';
    return lists.map((list) => {
      if (/[1-9]/.test(which)) return [list[Number(which) - 1] ?? ''];
      if (quoted) return which === '@' ? [...list] : [list.join(' ')];
      return list.flatMap((word) => word.split(/[ \t\n]+/)).filter((part) => part !== '');
    });
  }

  /**
   * Text the shell expands as code later (a prompt, a subscript; see deferredCode.ts): its substitutions are walked
   * as an unquoted heredoc body is, since they expand the same way.
   */
  private walkDeferred(text: string, assignedTo: string | undefined, scope: Scope, index: number, level: number): void {
    for (const found of deferredTexts(text, assignedTo)) {
      if (found.text.includes(deferredEnd)) { this.problem(`${found.source} text that cannot be read`, index, scope); continue; }
      this.script(`: <<${deferredEnd}\n${found.text}\n${deferredEnd}\n`, scope, `${found.source} expanded later`, undefined, index, level);
    }
  }

  /** HOME's value once the line changed it (null: to one not known); undefined while it is the session's. */
  private changedHome(scope: Scope): string | null | undefined {
    if (!this.line.includes('HOME')) return undefined;
    const prefixed = plumbing.homeFromPrefix(scope.via);
    if (prefixed !== undefined) return prefixed;
    if (this.state.valuesOf('HOME').length === 0 && !this.state.mayBeUnknown('HOME')) return undefined;
    return this.state.lookup('HOME') ?? null;
  }

  /** The text a file holds as the line left it, made once per line: followPlumbing runs for every command. */
  private readonly fileContentOf = (path: string): string | undefined => this.state.fileContent(path);

  /** Readers whose input the rest of the line writes (a fifo, `exec > >(sh)`, a coprocess), fed once the walk is done. */
  private readonly pendingReaders: { channel: plumbing.Channel; run: (text: string) => void }[] = [];

  /**
   * Code reaching a shell through plumbing (shellPlumbing.ts): `sh < <(…)`, `bash /dev/fd/3 3<<EOF`, `tee >(sh)`,
   * `exec > >(sh)`, `coproc sh`, `sh < fifo`. True when the command's own code was walked here.
   */
  private followPlumbing(command: SimpleCommand, scope: Scope, feed: Feed | undefined, index: number, level: number): boolean {
    const fileContent = this.fileContentOf;
    for (const { body, text } of plumbing.outputSubstitutions(command))
      if (text !== undefined) this.script(body, scope, `${command.program} >(...)`, { text, label: `${command.program} >` }, index, level, { redirects: [] });
    const at = this.commands.length - 1;
    // `exec 3<<EOF … EOF; bash /dev/fd/3`, `exec 3< f; sh <&3`: what the descriptor holds for the rest of the line.
    for (const { fd, text } of plumbing.execInputs(command, feed?.text, fileContent))
      for (const name of [`/dev/fd/${fd}`, `/proc/self/fd/${fd}`, `&${fd}`]) this.state.rememberFile(name, text);
    for (const { body, fd } of plumbing.execSubstitutions(command))
      this.pendingReaders.push({ channel: { kind: 'descriptor', fd, after: at }, run: (text) => this.script(body, scope, 'exec >(...)', { text, label: 'exec >' }, index, level, { redirects: [] }) });
    const fd = plumbing.codeDescriptor(command);
    if (fd === null && plumbing.codeFile(command, null) === undefined) return false;
    const code = fd === null ? undefined : fd === 0 && feed ? undefined : plumbing.descriptorText(command, fd, feed?.text, fileContent);
    const redirects = scope.redirects.filter((redirect) => !redirect.op.includes('<'));
    const label = `${command.program} ${fd === 0 ? 'stdin' : `/dev/fd/${fd}`}`;
    if (code !== undefined) { this.script(code, { ...scope, redirects }, label, undefined, index, level); return true; }
    if (fd === 0 && feed) {
      if (plumbing.startsStdinShell(command)) this.script(feed.text, { ...scope, redirects }, `${command.program} (stdin)`, undefined, index, level);
      return false;
    }
    const runCode = (text: string) => this.script(text, { ...scope, redirects }, `${label} (written later)`, undefined, index, level);
    const coprocess = fd === 0 ? plumbing.coprocessName(command) : null;
    if (coprocess !== null) this.pendingReaders.push({ channel: { kind: 'coprocess', name: coprocess }, run: runCode });
    const file = plumbing.codeFile(command, fd) ?? (fd === 0 ? scope.pipedFile : undefined);
    if (file !== undefined && fileContent(file) === undefined) this.pendingReaders.push({ channel: { kind: 'file', path: file }, run: runCode });
    return false;
  }

  private feedPendingReaders(): void {
    for (const { channel, run } of this.pendingReaders.splice(0)) {
      const text = plumbing.textSentTo(this.commands, channel);
      if (text !== undefined) run(text);
    }
  }

  /** Shell code run by a command: parsed and walked like the line, one level down. */
  private script(
    source: string,
    scope: Scope,
    label: string,
    feed: Feed | undefined,
    index: number,
    level: number,
    keep?: Partial<Scope>,
  ): void {
    const inner = this.nested(scope, label, index, {
      source, pipedFrom: scope.pipedFrom, redirects: scope.redirects, background: scope.background, stdin: feed,
      where: `'${label}' string`, anchor: scope.where === '' ? index : scope.anchor, ...keep,
    });
    if (!inner) return;
    // eval and source run in this shell, so their `cd` holds for what follows; other shells keep theirs.
    if (/^(?:eval|source|\.)(?: |$)/.test(label)) this.parseAndVisit(source, inner, level + 1);
    else this.state.inSubshell(() => this.parseAndVisit(source, inner, level + 1));
  }

  private report(words: readonly string[], scope: Scope, text: string, feed: Feed | undefined): SimpleCommand {
    const path = words[0]!;
    const command: SimpleCommand = {
      program: programName(path),
      programPath: path,
      args: words.slice(1),
      redirects: scope.redirects,
      pipedFrom: scope.pipedFrom,
      via: scope.via,
      text,
      ...(feed ? { stdin: feed.text } : {}),
      ...(scope.background ? { background: true } : {}),
      ...(this.state.cwd !== undefined ? { cwd: this.state.cwd } : {}),
    };
    if (this.commands.length < maxCommands) this.commands.push(command);
    else this.tooManyCommands(scope);
    return command;
  }

  private functionDefinition(node: Node, scope: Scope, level: number): void {
    const name = node.childForFieldName('name');
    const label = `function ${name ? wordValue(name, scope.source) : '?'}`;
    const inner = this.nested(scope, label, node.startIndex);
    if (!inner) return;
    for (const child of node.namedChildren) if (child.type !== 'word') this.visit(child, inner, level + 1);
    const body = node.childForFieldName('body');
    if (name && body && this.functionBodies.size < maxFunctions) this.functionBodies.set(wordValue(name, scope.source), textOf(scope, body));
  }

  /** Bodies of the functions the line defines, by name, walked again where a call gives them arguments. */
  private readonly functionBodies = new Map<string, string>();
  private functionCalls = 0;

  /**
   * `run() { $1 $2; }; run hermes plugins disable`: the body runs with the call's words as `$1`, `"$@"` …, so it is
   * walked again with them (not inside its own call, and a bounded number of times per line).
   */
  private callFunction(command: SimpleCommand, scope: Scope, index: number, level: number): void {
    const body = this.functionBodies.get(command.programPath);
    const label = `call ${command.programPath}`;
    if (body === undefined || command.args.length === 0 || scope.via.includes(label) || this.functionCalls >= maxFunctionCalls) return;
    this.functionCalls++;
    this.state.withPositional([...command.args], () => this.script(body, scope, label, undefined, index, level));
  }
}

type Stage = (scope: Scope, level: number, tail: Tail) => SimpleCommand | undefined;

/** Words whose quotes keep a substitution from running now (bash may still expand it later). */
const quotedTypes = new Set(['raw_string', 'ansi_c_string', 'string', 'concatenation']);
const deferredEnd = 'TOLLGATE_DEFERRED_TEXT_END';

/** The quoted words inside a test's expressions. */
const quotedDescendants = (node: Node, depth = 0): Node[] =>
  depth > 8 ? [] : node.namedChildren.flatMap((child) => (quotedTypes.has(kindOf(child).type) ? [child] : quotedDescendants(child, depth + 1)));

/** Inside a function's body as defined (not as a call walks it), `$1` and `"$@"` are arguments not known here. */
const inFunction = (scope: Scope): boolean => {
  for (let i = scope.via.length - 1; i >= 0; i--) {
    if (scope.via[i]!.startsWith('call ')) return false;
    if (scope.via[i]!.startsWith('function ')) return true;
  }
  return false;
};

/** The words `set` makes the positional parameters (`set -e -- a b`, `set -o pipefail x`), or undefined when it sets none. */
const positionalWords = (args: readonly string[]): readonly string[] | undefined => {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || arg === '-') return args.slice(i + 1).length > 0 || arg === '--' ? args.slice(i + 1) : undefined;
    if (/^[-+]o$/.test(arg)) { i++; continue; }
    if (/^[-+][a-zA-Z]+$/.test(arg)) continue;
    return args.slice(i);
  }
  return undefined;
};

const textOf = (scope: Scope, node: Node): string => scope.source.slice(node.startIndex, node.endIndex);

const withTail = (scope: Scope, tail: Tail): Scope => ({
  ...scope,
  redirects: [...tail.redirects, ...scope.redirects],
  stdin: tail.stdin ?? scope.stdin,
});

/** The stages of a pipeline; the grammar sometimes nests one pipeline in another. */
const pipelineStages = (node: Node): Node[] =>
  node.namedChildren.flatMap((child) => (child.type === 'pipeline' ? pipelineStages(child) : [child]));

/** `a && b || c` nests as list(list(a, b), c): flattened without recursion, so long chains cost no stack. */
const listStatements = (node: Node): Node[] => {
  const statements: Node[] = [];
  const pending: Node[] = [node];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (next.type === 'list') {
      const children = next.namedChildren;
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!);
    } else {
      statements.push(next);
    }
  }
  return statements;
};

const exportWords = /(?:^|[\s;&|(){}`])(export|declare|typeset|local|readonly|unset)((?:\s+-[a-zA-Z]+)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*(?:\+?=(?:"[^"]*"|'[^']*'|[^\s;&|)]*))?)+)/g;

/**
 * Names a line exports or unsets, read from its text: `export A=1 B`, `declare -x A`, `typeset -gx A=…`,
 * `unset A`. Best effort on the cautious side: any mention counts (an export in a branch may or may not run).
 */
const exportedNames = (line: string): Map<string, 'export' | 'unset'> => {
  const names = new Map<string, 'export' | 'unset'>();
  if (!/\b(?:export|declare|typeset|local|readonly|unset)\b/.test(line)) return names;
  for (const match of line.matchAll(exportWords)) {
    const [, verb, flags = '', rest = ''] = match;
    const exporting = verb === 'export' || (verb !== 'unset' && /-[a-zA-Z]*x/.test(flags));
    if (!exporting && verb !== 'unset') continue;
    for (const word of rest.trim().split(/\s+(?=[A-Za-z_])/)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(word)?.[0];
      if (name !== undefined) names.set(name, verb === 'unset' ? 'unset' : 'export');
    }
  }
  return names;
};

/** The callbacks of `mapfile -C CODE` / `-CCODE` (its other options take a value too). */
const mapfileCallbacks = (args: readonly string[]): string[] => {
  const codes: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--' || !/^-[a-zA-Z]/.test(arg)) break;
    for (let k = 1; k < arg.length; k++) {
      if (!'dnOsuCc'.includes(arg[k]!)) continue;
      const value = k + 1 < arg.length ? arg.slice(k + 1) : args[++i] ?? '';
      if (arg[k] === 'C') codes.push(value);
      break;
    }
  }
  return codes;
};

/** Builtins that give variables named in their arguments a value the walk does not compute. */
const settingPrograms = new Set(['read', 'mapfile', 'readarray', 'printf', 'getopts', 'let', 'wait']);
const declaringPrograms = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'unset']);

const variableName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The NAME / NAME=value words of a declaration (a subscript `a[1]=x` counts as its array). */
const declaredEntries = (args: readonly string[]): { name: string; value: string | undefined }[] => {
  const entries: { name: string; value: string | undefined }[] = [];
  for (const arg of args) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?(\+?=([\s\S]*))?$/.exec(arg);
    if (match) entries.push({ name: match[1]!, value: match[3] === undefined ? undefined : match[4]! });
  }
  return entries;
};

/** The names a builtin's `naming` option letters were given (a missing one counts as empty), and its operands. */
const builtinWords = (args: readonly string[], valued: string, naming: string): { named: string[]; operands: readonly string[] } => {
  const { letters, operands } = builtinOptions(args, valued + naming);
  return { named: letters.filter(({ letter }) => naming.includes(letter)).map(({ value }) => value ?? ''), operands };
};

/** The variables `read`, `mapfile`, `printf -v`, `getopts`, `let` and `wait -p` assign. */
const assignedBy = (program: string, args: readonly string[]): string[] => {
  let names: string[];
  if (program === 'read') { const { named, operands } = builtinWords(args, 'dinNptu', 'a'); names = [...named, ...operands, ...(operands.length === 0 && named.length === 0 ? ['REPLY'] : [])]; }
  else if (program === 'mapfile' || program === 'readarray') names = [builtinWords(args, 'dnOsuCc', '').operands[0] ?? 'MAPFILE'];
  else if (program === 'printf') names = builtinWords(args, '', 'v').named;
  else if (program === 'getopts') names = [args[1] ?? ''];
  else if (program === 'wait') names = builtinWords(args, '', 'p').named;
  else names = args.flatMap((arg) => [...arg.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*(?:(?:[-+*/%&|^]|<<|>>)?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? m[2]!));
  return names.filter((name) => variableName.test(name));
};

/** Syntax that makes a line branch, loop, fork or group (array openers `=(` are taken out before the test). */
const branchingSyntax = /&&|\|\||[|&`(]|(?<!\$)\{|\b(?:if|then|else|elif|fi|case|esac|while|until|for|do|done|select|function|eval|source|exit|return|trap)\b|(?:^|[\s;])\.\s/;

/** Syntax after which an assignment may or may not run, or runs elsewhere (a subshell, a function, a pipeline stage). */
const unclearExportSyntax = /&&|\|\||[|&()`{}]|\b(?:if|then|else|elif|fi|case|esac|while|until|for|do|done|select|function|eval|source|exit|return|builtin|command|trap|exec|readonly|read|printf|mapfile|readarray|getopts|let)\b|(?:^|[\s;])\.\s/;

const assignmentCount = (line: string, name: string): number =>
  [...line.matchAll(new RegExp(`(?:^|[^\\w$])${name}\\+?=|\\$\\{${name}:?[=]`, 'g'))].length;

/**
 * Every name the line may give a value to, read from its text: `NAME=…`, `NAME+=…`, `${NAME:=…}`, `read NAME`,
 * `printf -v NAME`, `for NAME in`, `mapfile NAME`, `getopts … NAME`, `let NAME=…`. Over-approximates (text in
 * quotes counts): a name it misses would keep a value the gate no longer has.
 */
const touchedNames = (line: string): string[] => {
  const names = new Set<string>();
  // Each pattern needs a word or sign most lines lack; the plain search skips the pattern on those.
  if (line.includes('=')) {
    for (const m of line.matchAll(/(?:^|[^\w$])([A-Za-z_][A-Za-z0-9_]*)\+?=/g)) names.add(m[1]!);
    for (const m of line.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*):?=/g)) names.add(m[1]!);
  }
  if (line.includes('read') || line.includes('mapfile')) {
    for (const m of line.matchAll(/\b(?:read|mapfile|readarray)\b((?:\s+-[a-zA-Z]+(?:\s+\S+)?)*)((?:\s+[A-Za-z_][A-Za-z0-9_]*)+)/g))
      for (const n of m[2]!.trim().split(/\s+/)) names.add(n);
  }
  if (line.includes('printf')) for (const m of line.matchAll(/\bprintf\s+(?:-[a-zA-Z]+\s+)*-v\s*([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
  if (line.includes('for') || line.includes('select')) for (const m of line.matchAll(/\b(?:for|select)\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b/g)) names.add(m[1]!);
  if (line.includes('getopts')) for (const m of line.matchAll(/\bgetopts\s+\S+\s+([A-Za-z_][A-Za-z0-9_]*)/g)) names.add(m[1]!);
  return [...names];
};

/**
 * The names a listing program prints, as patterns: `find DIR…` (every name below each DIR), `ls`/`fd`/`git ls-files`
 * operands; undefined for any other program. Options are skipped; a find expression starts at `-`, `(` or `!`.
 */
const listedPatterns = (command: SimpleCommand): string[] | undefined => {
  const { program, args } = command;
  // One pattern per folder (a name directly below it stands for the whole tree: writing it may be any file there).
  const below = (dir: string) => [`${dir.replace(/\/+$/, '')}/*`];
  if (program === 'find') {
    const roots: string[] = [];
    for (const arg of args) { if (/^[-(!]/.test(arg)) break; roots.push(arg); }
    return (roots.length === 0 ? ['.'] : roots).flatMap(below);
  }
  if (program === 'ls' || program === 'fd' || program === 'fdfind' || program === 'locate') {
    const operands = args.filter((a) => !a.startsWith('-'));
    const dirs = program === 'fd' || program === 'fdfind' ? operands.slice(1) : operands;
    return (dirs.length === 0 ? ['.'] : dirs).flatMap((d) => (/[*?[]/.test(d) ? [d] : below(d)));
  }
  return undefined;
};
