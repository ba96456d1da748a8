/**
 * What each endpoint accepts. Keys are snake_case as runtimes send them. Unknown keys are accepted and dropped
 * (Hermes adds keyword arguments in new versions); the keys a decision depends on are required, with their types.
 */
import { z } from 'zod';

const sessionId = z.string().min(1, 'must not be empty').max(512);
const optionalId = z.string().max(512).nullish().transform((v) => (v === '' || v === undefined ? null : v));
/** The agent's working directory, for the floor to resolve relative paths; only an absolute one is used. */
const workingDirectory = z.string().max(4096).nullish().transform((v) => (typeof v === 'string' && v.startsWith('/') ? v : null));
/** Sender ids are numbers on some platforms (Telegram); they are recorded as text. */
const senderId = z.union([z.string().max(512), z.number()]).nullish().transform((v) => (v === undefined || v === null || v === '' ? null : String(v)));
const text = z.string().max(100_000_000);
const args = z.record(z.string(), z.unknown());
const resumption = z.enum(['held', 'retry']).optional();

export const hermesPreLlmCall = z.object({
  session_id: sessionId,
  /** The turn's user message as Hermes built it; only the typed words in it are recorded. */
  user_message: text,
  sender_id: senderId,
  platform: optionalId,
  parent_session_id: optionalId,
  is_first_turn: z.boolean().nullish(),
  /** The plugin sent only the head of a message too large to send whole: nothing is recorded from it. */
  user_message_truncated: z.boolean().nullish(),
});

export const hermesPreToolCall = z.object({
  session_id: sessionId,
  tool_name: z.string().min(1, 'must not be empty').max(256),
  args,
  tool_call_id: optionalId,
  parent_session_id: optionalId,
  resumption,
  cwd: workingDirectory,
  /**
   * Whether this Hermes understands `{"action": "approve"}` (newer versions). Hermes 0.18/0.19 ignore an unknown
   * action and run the call, so a plugin on those sends false: an ask is then answered with a block, and the
   * agent retries after a human approved (resumption `retry`). @defaultValue true
   */
  approve_directive: z.boolean().optional(),
});

export const hermesTransformLlmOutput = z.object({
  session_id: sessionId,
  response_text: text,
});

export const hermesPostToolCall = z.object({
  session_id: sessionId,
  tool_name: z.string().min(1, 'must not be empty').max(256),
  tool_call_id: z.string().min(1, 'must not be empty').max(512),
  status: z.string().max(64).nullish().transform((v) => v ?? 'unknown'),
  duration_ms: z.number().nonnegative().nullish().transform((v) => v ?? null),
});

export const hermesSessionHook = z.object({ session_id: sessionId });
export const hermesObserverHook = z.object({ session_id: z.string().max(512).nullish() });
export const hermesSessionStart = hermesObserverHook.extend({ platform: optionalId });
export const hermesSubagentHook = hermesObserverHook.extend({
  child_session_id: z.string().max(512).nullish(),
  parent_session_id: z.string().max(512).nullish(),
  child_role: z.string().max(512).nullish(),
});

export const toolCallBody = z.object({
  session_id: sessionId,
  tool: z.string().min(1, 'must not be empty').max(256),
  args,
  call_id: optionalId,
  parent_session_id: optionalId,
  resumption,
  cwd: workingDirectory,
});

export const messageBody = z.object({
  session_id: sessionId,
  text,
  sender_id: senderId,
  platform: optionalId,
  parent_session_id: optionalId,
});

export const outputBody = z.object({
  session_id: sessionId,
  text,
  channel: z.string().min(1).max(128).optional(),
});

export const approvalAnswerBody = z.object({
  answer: z.enum(['once', 'session', 'always', 'deny']),
  /** Read for compatibility, never recorded as who answered: the channel names that (channelRules.ts). */
  answered_by: z.string().max(512).nullish().transform((v) => v ?? null),
  /** The runtime prompt a registered owner relays the answer from (`hermes-cli`); part of its answeredBy. */
  surface: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a short name (letters, digits, . _ -)').nullish().transform((v) => v ?? null),
});

export const registerBody = z.object({
  runtime: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be a short name (letters, digits, . _ -)'),
  /** The runtime's process id, so a later registration may claim its sessions once it is gone (--resume). */
  pid: z.number().int().positive().max(2 ** 31).nullish(),
});
