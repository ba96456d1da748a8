/**
 * The identity of an action for grants and the allowlist: the same tool with the same command line (or the
 * same arguments) is the same action. Anything else — one more flag, another path — is a different action.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from '../encoding/canonicalJson.ts';

// One-shot `hash` (Node ≥ 20.12) is the same SHA-256 as createHash(…).update(…).digest('hex'), at under half the cost.
export const actionFingerprint = (tool: string, action: { commandLine: string } | { args: unknown }): string =>
  hash('sha256', 'commandLine' in action ? commandLineText(tool, action.commandLine) : canonicalJson({ tool, args: action.args }), 'hex');

/** canonicalJson({ tool, commandLine }), spelled out: two strings, keys already in order, on every call. */
const commandLineText = (tool: string, commandLine: string): string => `{"commandLine":${JSON.stringify(commandLine)},"tool":${JSON.stringify(tool)}}`;
