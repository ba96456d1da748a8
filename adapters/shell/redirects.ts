/**
 * One redirection node of tree-sitter-bash, read into our Redirect shape: operator with its descriptor, the
 * unquoted target, and what reaches standard input (a heredoc or here-string body). The grammar nests what
 * follows a heredoc start inside the heredoc node (`cat <<EOF > f | bash && x`): those redirections, pipeline
 * stages and statements are handed back so the caller can place them.
 */
import type { Node } from 'web-tree-sitter';
import type { Redirect } from '../../domain/shell/shellAnalysis.ts';
import { kindOf } from './nodeKind.ts';
import { wordValue, type VariableLookup } from './shellWords.ts';

/** Text known to reach a command's standard input, and how it got there ('<<', '<<<', 'echo |'). */
export interface Feed {
  readonly text: string;
  readonly label: string;
}

export interface ReadRedirect {
  readonly redirects: readonly Redirect[];
  readonly feed?: Feed;
  /** Words the grammar read as extra redirect targets (`echo a > f b`: 'b' is an argument of echo). */
  readonly extraArgs: readonly string[];
  /** Pipeline stages after a heredoc start (`cat <<EOF | bash`). */
  readonly pipeTo: readonly Node[];
  /** Statements after a heredoc start joined by && or || (`cat <<EOF && rm x`). */
  readonly then: readonly Node[];
}

export const redirectTypes: ReadonlySet<string> = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** `visitNested` walks parts that run when the redirection is set up: substitutions in targets and heredoc bodies. */
export const readRedirect = (
  node: Node, source: string, lookup: VariableLookup, visitNested: (node: Node) => void, runCode: (code: string) => void = () => {},
  substituted: (target: Node) => string | undefined = () => undefined,
): ReadRedirect => {
  const children = node.children;
  const kinds = children.map(kindOf);
  const kind = kindOf(node).type;
  let descriptor = '';
  let operator = '';
  const targets: Node[] = [];
  const pipeTo: Node[] = [];
  const then: Node[] = [];
  const nested: ReadRedirect[] = [];
  let heredocStart: Node | undefined;
  let heredocBody: Node | undefined;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    const { type, named } = kinds[i]!;
    if (!named) {
      if (operator === '') operator = type;
      else if ((type === '&&' || type === '||' || type === ';') && kinds[i + 1]?.named) then.push(children[++i]!);
      continue;
    }
    if (type === 'file_descriptor') descriptor = source.slice(child.startIndex, child.endIndex);
    else if (type === 'heredoc_start') heredocStart = child;
    else if (type === 'heredoc_body') heredocBody = child;
    else if (type === 'heredoc_end') continue;
    else if (kind !== 'heredoc_redirect') targets.push(child);
    else if (type === 'pipeline' && child.child(0)?.isNamed === false) pipeTo.push(child);
    else if (redirectTypes.has(type)) nested.push(readRedirect(child, source, lookup, visitNested, runCode, substituted));
    else if (type === 'ERROR') visitNested(child);
    else then.push(child);
  }
  for (const target of targets) if (target.childCount > 0) visitNested(target);
  // `> "$(echo … | base64 -d)"`: a target that is one substitution whose output the line determines is that output.
  const values = targets.map((target) => substituted(target) ?? wordValue(target, source, lookup));

  if (kind === 'heredoc_redirect') {
    const delimiter = heredocStart ? source.slice(heredocStart.startIndex, heredocStart.endIndex) : '';
    // An unquoted delimiter lets the shell expand the body, substitutions included.
    if (heredocBody && heredocBody.childCount > 0) visitNested(heredocBody);
    // The grammar leaves `…` in such a body as text; the shell runs it all the same.
    if (heredocBody && !/['"\\]/.test(delimiter)) for (const code of bodyBackticks(heredocBody, source)) runCode(code);
    let body = heredocBody ? source.slice(heredocBody.startIndex, heredocBody.endIndex) : '';
    if (operator === '<<-') body = body.replace(/^\t+/gm, '');
    return {
      redirects: [{ op: descriptor + operator, target: delimiter.replace(/['"\\]/g, '') }, ...nested.flatMap((read) => read.redirects)],
      feed: { text: body, label: operator },
      extraArgs: nested.flatMap((read) => read.extraArgs),
      pipeTo: [...pipeTo, ...nested.flatMap((read) => read.pipeTo)],
      then: [...then, ...nested.flatMap((read) => read.then)],
    };
  }
  if (kind === 'herestring_redirect') {
    const text = values.join(' ');
    return { redirects: [{ op: descriptor + '<<<', target: text }], feed: { text: text + '\n', label: '<<<' }, extraArgs: [], pipeTo: [], then: [] };
  }
  const [first = '', ...rest] = values;
  // `2>&1` duplicates a descriptor: the target is written '&1'.
  const duplicates = (operator === '>&' || operator === '<&') && /^(?:\d+|-)$/.test(first);
  return {
    redirects: [duplicates ? { op: descriptor + operator[0], target: '&' + first } : { op: descriptor + operator, target: first }],
    extraArgs: rest,
    pipeTo: [],
    then: [],
  };
};

/** The code of each `…` in a heredoc body that the grammar did not read as a substitution (`\\\`` is a plain backtick). */
const bodyBackticks = (body: Node, source: string): string[] => {
  const text = source.slice(body.startIndex, body.endIndex);
  if (!text.includes('`')) return [];
  const parsed = body.namedChildren.filter((child) => child.type === 'command_substitution').map((child) => [child.startIndex - body.startIndex, child.endIndex - body.startIndex] as const);
  const inside = (at: number) => parsed.some(([start, end]) => at >= start && at < end);
  const out: string[] = [];
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') { i++; continue; }
    if (text[i] !== '`' || inside(i)) continue;
    if (open < 0) open = i;
    else { out.push(text.slice(open + 1, i).replace(/\\([\\`$])/g, '$1')); open = -1; }
  }
  return out;
};
