/**
 * The identity of an action for grants and the allowlist: the same tool with the same command line (or the
 * same arguments) is the same action. Anything else — one more flag, another path — is a different action.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../encoding/canonicalJson.ts';

export const actionFingerprint = (tool: string, action: { commandLine: string } | { args: unknown }): string =>
  createHash('sha256')
    .update(canonicalJson('commandLine' in action ? { tool, commandLine: action.commandLine } : { tool, args: action.args }))
    .digest('hex');
