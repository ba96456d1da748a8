/**
 * Walks a tree-sitter-bash syntax tree and collects every simple command that would run: through lists,
 * pipelines, subshells, groups, control flow, function bodies, command and process substitutions, and the code
 * that other commands run (`bash -c`, `eval`, `xargs`, `find -exec`, a heredoc fed to a shell). Quoted text and
 * heredoc bodies stay data unless a shell reads them as code. One extractor serves one line.
 */
import type { Node, Parser } from 'web-tree-sitter';
import type { Redirect, SimpleCommand } from '../../domain/shell/shellAnalysis.ts';
import { programName } from '../../domain/shell/programName.ts';
import { isShell, shellMode } from '../../domain/shell/shellInvocation.ts';
import { describeInvocation } from './commandWrappers.ts';
import { splitOnIfs, wordValue } from './shellWords.ts';
import { staticOutput } from './staticOutput.ts';
import { byteOffset, isReparsedBackticks, syntaxProblems } from './syntaxProblems.ts';

/** Nesting of substitutions, nested shells, function bodies and xargs/find commands before we give up. */
export const maxNestingDepth = 16;
/** Syntax-tree depth walked before giving up (guards the JavaScript stack against `((((...))))`). */
const maxTreeLevel = 400;
/** Wrappers peeled from one command (`sudo nice nohup ...`). */
const maxWrappers = 32;
/** Commands reported for one line. */
const maxCommands = 5000;

/** Text known to reach a command's standard input, and how it got there ('<<', '<<<', 'echo |'). */
interface Feed {
  readonly text: string;
  readonly label: string;
}

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

interface ReadRedirect {
  readonly redirect: Redirect;
  readonly feed?: Feed;
  readonly extraArgs: readonly string[];
  /** Pipeline stages after a heredoc start (`cat <<EOF | bash`): the grammar nests them in the redirect. */
  readonly pipeTo: readonly Node[];
  /** Statements after a heredoc start joined by && or || (`cat <<EOF && rm x`). */
  readonly then: readonly Node[];
}

const redirectTypes = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);
const compoundTypes = new Set([
  'subshell', 'compound_statement', 'if_statement', 'while_statement', 'for_statement', 'c_style_for_statement',
  'case_statement', 'do_group', 'else_clause', 'elif_clause',
]);

export class CommandExtractor {
  readonly commands: SimpleCommand[] = [];
  readonly problems: string[] = [];

  constructor(
    private readonly parser: Parser,
    private readonly line: string,
  ) {}

  run(): void {
    const nul = this.line.indexOf('\0');
    if (nul >= 0) this.problems.push(`NUL byte at byte ${byteOffset(this.line, nul)}: the command cannot be passed to a shell intact`);
    this.parseAndVisit(this.line, {
      source: this.line, via: [], depth: 0, pipedFrom: [], redirects: [], background: false, stdin: undefined,
      where: '', anchor: 0,
    });
  }

  private parseAndVisit(source: string, scope: Scope): void {
    const tree = this.parser.parse(source);
    if (!tree) {
      this.problem('the parser returned no tree', 0, scope);
      return;
    }
    try {
      const root = tree.rootNode;
      if (root.hasError) for (const found of syntaxProblems(root, source)) this.problem(found.what, found.index, scope);
      this.visit(root, scope, 0);
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

  /** Walks one node; returns the simple command it is, when it is one (a pipeline stage's output source). */
  private visit(node: Node, scope: Scope, level: number, tail: Tail = noTail): SimpleCommand | undefined {
    if (level > maxTreeLevel) {
      this.problem(`nesting deeper than ${maxTreeLevel} syntax levels`, node.startIndex, scope);
      return undefined;
    }
    switch (node.type) {
      case 'command':
        return this.command(node, scope, level, tail);
      case 'redirected_statement':
        return this.redirectedStatement(node, scope, level, tail);
      case 'pipeline':
        this.pipeline(pipelineStages(node).map(this.nodeStage), scope, level, tail);
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
      case 'command_substitution':
      case 'process_substitution': {
        const opener = scope.source.slice(node.startIndex, node.startIndex + 2);
        const label = opener === '$(' ? '$(...)' : opener.startsWith('`') ? '`...`' : `${opener}...)`;
        if (isReparsedBackticks(node, scope.source)) {
          const body = scope.source.slice(node.startIndex + 1, node.endIndex - 1);
          // Inside backticks \` \$ and \\ are unescaped before the body is parsed, which is how backticks
          // nest; the grammar does not do that, so the body is parsed again as its own script.
          this.script(body.replace(/\\([\\`$])/g, '$1'), scope, label, undefined, node.startIndex, { pipedFrom: [], redirects: [], background: false });
          return undefined;
        }
        const inner = this.nested(scope, label, node.startIndex);
        if (inner) this.visitChildren(node, inner, level);
        return undefined;
      }
      default:
        if (tail !== noTail && compoundTypes.has(node.type)) {
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
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      if (!child.isNamed) continue;
      const background = !scope.background && children[i + 1]?.type === '&';
      this.visit(child, background ? { ...scope, background: true } : scope, level + 1);
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
    stages.forEach((stage, i) => {
      const first = this.commands.length;
      const stageScope: Scope = { ...scope, pipedFrom: [...upstream], stdin: feed };
      const primary = stage(stageScope, level + 1, i === stages.length - 1 ? tail : noTail);
      for (let k = first; k < this.commands.length; k++) {
        const program = this.commands[k]!.program;
        if (!upstream.includes(program)) upstream.push(program);
      }
      const output = primary && staticOutput(primary);
      feed = output === undefined ? undefined : { text: output, label: `${primary!.program} |` };
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
      if (redirectTypes.has(child.type)) {
        const read = this.redirect(child, scope, level);
        redirects.push(read.redirect);
        extraArgs.push(...read.extraArgs);
        pipeTo.push(...read.pipeTo);
        then.push(...read.then);
        feed = read.feed ?? feed;
      } else if (body === undefined && child.type !== 'ERROR') {
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
      const stages: Stage[] = [(s, l) => runBody(s, l, ownTail), ...pipeTo.flatMap(pipelineStages).map(this.nodeStage)];
      this.pipeline(stages, scope, level, tail);
    } else {
      primary = runBody(scope, level + 1, ownTail);
    }
    for (const statement of then) this.visit(statement, scope, level + 1);
    return primary;
  }

  private readonly nodeStage = (node: Node): Stage => (scope, level, tail) => this.visit(node, scope, level, tail);

  /** `> file` alone truncates the file: reported as the null command `:` with that redirection. */
  private bareRedirection(node: Node, scope: Scope, tail: Tail): SimpleCommand {
    return this.report(
      [':'],
      { ...scope, redirects: [...tail.redirects, ...scope.redirects] },
      scope.source.slice(node.startIndex, node.endIndex),
      tail.stdin,
    );
  }

  private redirect(node: Node, scope: Scope, level: number): ReadRedirect {
    const source = scope.source;
    const children = node.children;
    let descriptor = '';
    let operator = '';
    const targets: Node[] = [];
    const pipeTo: Node[] = [];
    const then: Node[] = [];
    let heredocStart: Node | undefined;
    let heredocBody: Node | undefined;
    const nestedRedirects: ReadRedirect[] = [];
    for (let i = 0; i < children.length; i++) {
      const child = children[i]!;
      const type = child.type;
      if (!child.isNamed) {
        if (operator === '') operator = type;
        else if (type === '&&' || type === '||' || type === ';') {
          const right = children[i + 1];
          if (right?.isNamed) then.push(right), i++;
        }
        continue;
      }
      if (type === 'file_descriptor') descriptor = source.slice(child.startIndex, child.endIndex);
      else if (type === 'heredoc_start') heredocStart = child;
      else if (type === 'heredoc_body') heredocBody = child;
      else if (type === 'heredoc_end') continue;
      else if (node.type === 'heredoc_redirect') {
        if (type === 'pipeline' && child.child(0)?.isNamed === false) pipeTo.push(child);
        else if (redirectTypes.has(type)) nestedRedirects.push(this.redirect(child, scope, level));
        else if (type === 'ERROR') this.visit(child, scope, level + 1);
        else then.push(child);
      } else {
        targets.push(child);
      }
    }
    for (const target of targets) if (target.childCount > 0) this.visit(target, scope, level + 1);
    const values = targets.map((target) => wordValue(target, source));
    const extra = nestedRedirects.flatMap((read) => read.extraArgs);
    if (node.type === 'heredoc_redirect') {
      const delimiter = heredocStart ? source.slice(heredocStart.startIndex, heredocStart.endIndex) : '';
      if (heredocBody && heredocBody.childCount > 0) this.visit(heredocBody, scope, level + 1);
      let body = heredocBody ? source.slice(heredocBody.startIndex, heredocBody.endIndex) : '';
      if (operator === '<<-') body = body.replace(/^\t+/gm, '');
      return {
        redirect: { op: descriptor + operator, target: delimiter.replace(/['"\\]/g, '') },
        feed: { text: body, label: operator },
        extraArgs: extra,
        pipeTo: [...pipeTo, ...nestedRedirects.flatMap((read) => read.pipeTo)],
        then: [...then, ...nestedRedirects.flatMap((read) => read.then)],
      };
    }
    if (node.type === 'herestring_redirect') {
      const text = values.join(' ');
      return { redirect: { op: descriptor + '<<<', target: text }, feed: { text: text + '\n', label: '<<<' }, extraArgs: [], pipeTo: [], then: [] };
    }
    const [first = '', ...rest] = values;
    const duplicates = (operator === '>&' || operator === '<&') && /^(?:\d+|-)$/.test(first);
    return {
      redirect: duplicates ? { op: descriptor + operator[0], target: '&' + first } : { op: descriptor + operator, target: first },
      extraArgs: rest,
      pipeTo: [],
      then: [],
    };
  }

  private command(node: Node, scope: Scope, level: number, tail: Tail): SimpleCommand | undefined {
    const source = scope.source;
    const words: string[] = [];
    const assignments: string[] = [];
    const redirects: Redirect[] = [];
    let feed: Feed | undefined;
    let lastEnd = -1;
    for (const child of node.children) {
      const type = child.type;
      if (!child.isNamed) continue; // includes the '$' of a translated string `$"..."`, which reads as the string

      if (type === 'variable_assignment') {
        assignments.push(source.slice(child.startIndex, child.endIndex));
        if (child.childCount > 0) this.visit(child, scope, level + 1);
      } else if (redirectTypes.has(type)) {
        const read = this.redirect(child, scope, level);
        redirects.push(read.redirect);
        words.push(...read.extraArgs);
        feed = read.feed ?? feed;
        for (const statement of [...read.pipeTo, ...read.then]) this.visit(statement, scope, level + 1);
      } else if (type === 'ERROR' || type === 'comment') {
        this.visit(child, scope, level + 1);
      } else {
        const word = type === 'command_name' ? (child.firstNamedChild ?? child) : child;
        const value = wordValue(word, source);
        if (word.childCount > 0) this.visit(word, scope, level + 1);
        // Nodes with no space between them are one shell word.
        if (child.startIndex === lastEnd && words.length > 0) words[words.length - 1] += value;
        else words.push(value);
        lastEnd = child.endIndex;
      }
    }
    if (words.length === 0) return undefined;
    words.push(...tail.extraArgs);
    const commandScope: Scope = {
      ...scope,
      via: assignments.length > 0 ? [...scope.via, assignments.join(' ')] : scope.via,
      redirects: [...redirects, ...tail.redirects, ...scope.redirects],
      anchor: scope.where === '' ? node.startIndex : scope.anchor,
    };
    return this.emit(splitOnIfs(words), commandScope, source.slice(node.startIndex, node.endIndex), feed ?? tail.stdin ?? scope.stdin, node.startIndex);
  }

  /** Peels wrappers, reports the command, then follows what it runs. Returns the reported command. */
  private emit(words: readonly string[], scope: Scope, text: string, feed: Feed | undefined, index: number): SimpleCommand | undefined {
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
      if (inner) this.emit(run.words, inner, text, undefined, index);
    }
    for (const script of invocation.scripts) this.script(script.source, here, script.via, feed, index);
    if (reported && feed && isShell(reported.program) && shellMode(reported.args).kind === 'stdin') {
      // The shell reads its code from standard input: that input is consumed as code, not passed on.
      const label = feed.label.endsWith('|') ? `${feed.label} ${reported.program}` : `${reported.program} ${feed.label}`;
      const redirects = here.redirects.filter((redirect) => !redirect.op.includes('<'));
      this.script(feed.text, { ...here, redirects }, label, undefined, index);
    }
    return reported;
  }

  /** Shell code run by a command: parsed and walked like the line, one level down. */
  private script(source: string, scope: Scope, label: string, feed: Feed | undefined, index: number, keep?: Partial<Scope>): void {
    const inner = this.nested(scope, label, index, {
      source, pipedFrom: scope.pipedFrom, redirects: scope.redirects, background: scope.background, stdin: feed,
      where: `'${label}' string`, anchor: scope.where === '' ? index : scope.anchor, ...keep,
    });
    if (inner) this.parseAndVisit(source, inner);
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
    };
    if (this.commands.length < maxCommands) this.commands.push(command);
    else if (this.commands.length === maxCommands) this.problem(`more than ${maxCommands} commands`, 0, scope);
    return command;
  }

  private functionDefinition(node: Node, scope: Scope, level: number): void {
    const name = node.childForFieldName('name');
    const label = `function ${name ? wordValue(name, scope.source) : '?'}`;
    const inner = this.nested(scope, label, node.startIndex);
    if (!inner) return;
    for (const child of node.namedChildren) if (child.type !== 'word') this.visit(child, inner, level + 1);
  }
}

type Stage = (scope: Scope, level: number, tail: Tail) => SimpleCommand | undefined;

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
