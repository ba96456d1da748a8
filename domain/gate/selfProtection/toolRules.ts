/**
 * Self-protection for the file tools and code cells: `write_file`, `patch` (and the Claude Code tools mapped
 * onto them), `read_file` and `search_files` on secrets, and Python given to `execute_code`; the paths and URLs
 * of Hermes' other tools are toolPaths.ts'. Command lines are judged by shellRules.ts.
 */
import { containsProtected, resolvePath, type PathContext, type PathHit, type ProtectionIndex } from './protectedPaths.ts';
import { patchTargets } from './patchTargets.ts';
import { toolPathFindings } from './toolPaths.ts';
import { isPlainRead, pythonStringLiterals } from './pythonCode.ts';
import { hitInText, hitOf } from './shellScope.ts';
import type { SelfProtectionId } from './shellRules.ts';

export interface ToolFinding {
  readonly id: SelfProtectionId;
  readonly verdict: 'block' | 'ask';
  readonly what: string;
}

const writeTools = new Set(['write_file', 'patch']);
const readTools = new Set(['read_file', 'search_files']);

export const toolFindings = (tool: string, args: Readonly<Record<string, unknown>>, index: ProtectionIndex, cwd: string | null = null, lost = false): ToolFinding[] => {
  const context: PathContext = { home: index.facts.home, hermesHome: index.facts.hermesHome, cwd, lost };
  const findings: ToolFinding[] = [];
  if (writeTools.has(tool)) {
    const targets = tool === 'patch' ? patchTargets(args) : { paths: stringArgs(args, ['path', 'file_path']), moved: [], unreadable: false };
    for (const path of targets.paths) {
      const hit = hitOf(path, context, index);
      if (hit !== null) findings.push(writeFinding(hit));
    }
    // `Move File: data -> /tmp/d`, or a folder above a protected path: everything below it moves too.
    for (const path of targets.moved) {
      const inside = treeHit(path, context, index);
      if (inside !== null) findings.push({ id: 'write-protected-path', verdict: 'block', what: inside.what });
    }
    if (targets.unreadable) {
      const text = typeof args['patch'] === 'string' ? args['patch'] : '';
      const hit = hitInText(text, context, index);
      if (hit !== null) findings.push({ id: 'write-protected-path', verdict: 'block', what: hit.what });
    }
    // A script that talks to tollgate's socket or port, written now to be run later.
    const content = [args['content'], args['new_string'], args['patch']].filter((v): v is string => typeof v === 'string').join('\n');
    const named = content === '' ? null : socketInText(content, index);
    if (named !== null) findings.push({ id: 'socket-client', verdict: 'block', what: named });
    if (args['cross_profile'] === true) findings.push({ id: 'hermes-home-change', verdict: 'ask', what: 'another Hermes profile' });
  }
  if (readTools.has(tool)) {
    for (const path of stringArgs(args, ['path', 'file_path'])) {
      const hit = hitOf(path, context, index);
      if (hit?.kind === 'secret') findings.push({ id: 'read-secret', verdict: 'block', what: hit.what });
    }
    // search_files looks inside every file below its path (default '.', target 'content'): a folder holding the keys.
    if (tool === 'search_files' && args['target'] !== 'files' && !findings.some((f) => f.id === 'read-secret')) {
      const path = typeof args['path'] === 'string' && args['path'] !== '' ? args['path'] : '.';
      const inside = treeHit(path, context, index, true);
      if (inside !== null) findings.push({ id: 'read-secret', verdict: 'block', what: inside.what });
    }
  }
  if (tool === 'execute_code' && typeof args['code'] === 'string') findings.push(...codeFindings(args['code'], index, context));
  // Every other tool argument that names a file written or read, a URL, or code run elsewhere (toolPaths.ts).
  findings.push(...toolPathFindings(tool, args, index, context));
  return findings;
};

const socketInText = (text: string, index: ProtectionIndex): string | null => {
  for (const socket of index.sockets) if (text.includes(socket)) return socket;
  const port = index.facts.httpPort;
  return port !== null && new RegExp(`(?:127\\.0\\.0\\.1|localhost|\\[::1\\]):${port}(?![0-9])`).test(text) ? `127.0.0.1:${port}` : null;
};

const writeFinding = (hit: PathHit): ToolFinding =>
  hit.kind === 'hermes-home' ? { id: 'hermes-home-change', verdict: 'ask', what: hit.what } : { id: 'write-protected-path', verdict: 'block', what: hit.what };

const stringArgs = (args: Readonly<Record<string, unknown>>, keys: readonly string[]): string[] =>
  keys.map((k) => args[k]).filter((v): v is string => typeof v === 'string');

/** A code cell that names a protected path, the socket or the HTTP port; only a plain read of a non-secret passes. */
const codeFindings = (code: string, index: ProtectionIndex, context: PathContext): ToolFinding[] => {
  const plainRead = isPlainRead(code);
  const findings: ToolFinding[] = [];
  const removesTrees = treeChanging.test(code);
  const readsTrees = treeReading.test(code);
  for (const text of pythonStringLiterals(code)) {
    // `shutil.rmtree('.')`, `os.walk('data')`: a folder above a protected path, removed, moved or read whole.
    if (removesTrees || readsTrees) {
      const secret = readsTrees ? treeHit(text, context, index, true) : null;
      if (secret !== null) findings.push({ id: 'read-secret', verdict: 'block', what: secret.what });
      const inside = removesTrees ? treeHit(text, context, index) : null;
      if (inside !== null) findings.push({ id: 'write-protected-path', verdict: 'block', what: inside.what });
    }
    const hit = hitOf(text, context, index) ?? hitInText(text, context, index) ?? namesHermesHome(text);
    if (hit === null) continue;
    if (hit.kind === 'secret') findings.push({ id: 'read-secret', verdict: 'block', what: hit.what });
    else if (hit.kind === 'socket' || hit.kind === 'socket-dir') findings.push({ id: 'socket-client', verdict: 'block', what: hit.what });
    else if (!plainRead) findings.push(writeFinding(hit.kind === 'hermes-home' ? { ...hit, kind: 'hermes-file' } : hit));
  }
  const port = index.facts.httpPort;
  if (port !== null && new RegExp(`(?<![0-9])${port}(?![0-9])`).test(code) && /127\.0\.0\.1|localhost|::1|0\.0\.0\.0/.test(code))
    findings.push({ id: 'socket-client', verdict: 'block', what: `127.0.0.1:${port}` });
  return findings;
};

/** Calls that remove, move, re-own or link a whole folder, and calls that read one whole. */
const treeChanging = /\b(?:rmtree|removedirs|rename|renames|chmod|chown|lchown|symlink|copytree|os\.replace|shutil\.move)\b/;
const treeReading = /\b(?:walk|rglob|copytree|make_archive|tarfile|zipfile)\b/;

/** The protected path below (or at) a folder a path word names, once it resolves to an absolute path. */
const treeHit = (word: string, context: PathContext, index: ProtectionIndex, secretsOnly = false): PathHit | null => {
  if (word === '' || /\s/.test(word)) return null;
  const resolved = resolvePath(word, context);
  return resolved?.absolute == null ? null : containsProtected(resolved.absolute, index, secretsOnly);
};

/** `os.path.join(home, '.hermes', 'config.yaml')`: a literal that is a Hermes home's name or its variable. */
const namesHermesHome = (text: string): PathHit | null =>
  text === '.hermes' || text === 'HERMES_HOME' || text.startsWith('.hermes/') ? { kind: 'hermes-file', what: text } : null;
