/**
 * Self-protection for the file tools and code cells: `write_file`, `patch` (and the Claude Code tools mapped
 * onto them), `read_file` and `search_files` on secrets, and Python given to `execute_code`. Command lines are
 * judged by shellRules.ts.
 */
import type { PathHit, ProtectionIndex } from './protectedPaths.ts';
import { patchTargets } from './patchTargets.ts';
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

export const toolFindings = (tool: string, args: Readonly<Record<string, unknown>>, index: ProtectionIndex): ToolFinding[] => {
  const context = { home: index.facts.home, hermesHome: index.facts.hermesHome, cwd: null };
  const findings: ToolFinding[] = [];
  if (writeTools.has(tool)) {
    const targets = tool === 'patch' ? patchTargets(args) : { paths: stringArgs(args, ['path', 'file_path']), unreadable: false };
    for (const path of targets.paths) {
      const hit = hitOf(path, context, index);
      if (hit !== null) findings.push(writeFinding(hit));
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
  }
  if (tool === 'execute_code' && typeof args['code'] === 'string') findings.push(...codeFindings(args['code'], index));
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
const codeFindings = (code: string, index: ProtectionIndex): ToolFinding[] => {
  const context = { home: index.facts.home, hermesHome: index.facts.hermesHome, cwd: null };
  const plainRead = isPlainRead(code);
  const findings: ToolFinding[] = [];
  for (const text of pythonStringLiterals(code)) {
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

/** `os.path.join(home, '.hermes', 'config.yaml')`: a literal that is a Hermes home's name or its variable. */
const namesHermesHome = (text: string): PathHit | null =>
  text === '.hermes' || text === 'HERMES_HOME' || text.startsWith('.hermes/') ? { kind: 'hermes-file', what: text } : null;
