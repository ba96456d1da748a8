/**
 * `POST /v1/hooks/hermes/:hook`: Hermes Agent's plugin hooks, one handler per hook. The plugin forwards each
 * hook's keyword arguments as the JSON body and returns what it gets back (a block, an approve, a replacement).
 */
import { captureHermesUserWords } from '../../../domain/capture/hermesUserWords.ts';
import {
  hermesPostToolCall, hermesPreLlmCall, hermesPreToolCall, hermesSessionHook, hermesSessionStart, hermesSubagentHook, hermesTransformLlmOutput,
} from '../bodySchemas.ts';
import { HttpProblem } from '../httpProblem.ts';
import { sessionIdOf, validate } from '../parseBody.ts';
import { hermesOutputReply, hermesToolReply, type RouteKind } from '../replies.ts';
import { ok, type Route, type RouteContext, type RouteResult } from '../route.ts';
import { channelRefusal } from './channelRefusal.ts';
import { checkOutput, decideToolCall } from './decisions.ts';

type HookHandler = (ctx: RouteContext, body: unknown) => Promise<RouteResult>;

export const hermesHooks: Readonly<Record<string, { readonly kind: RouteKind; readonly handle: HookHandler }>> = {
  // Only the words the person typed are recorded: what Hermes added to the message is removed, and turns Hermes
  // (or another agent, a cron run, a webhook) wrote record nothing (domain/capture/hermesUserWords.ts).
  pre_llm_call: { kind: 'other', handle: async (ctx, body) => {
    const b = validate(hermesPreLlmCall, body);
    const words = captureHermesUserWords({ userMessage: b.user_message, platform: b.platform, isFirstTurn: b.is_first_turn, truncated: b.user_message_truncated });
    const { refused } = words.kind === 'typed'
      ? await ctx.gate.userMessage({ sessionId: b.session_id, text: words.text, senderId: b.sender_id, platform: b.platform, parentSessionId: b.parent_session_id }, ctx.caller)
      : await ctx.gate.sessionSeen({ sessionId: b.session_id, platform: b.platform, parentSessionId: b.parent_session_id }, ctx.caller);
    return answered(refused);
  } },
  pre_tool_call: { kind: 'hermes-tool-call', handle: async (ctx, body) => {
    const b = validate(hermesPreToolCall, body);
    const approveDirective = b.approve_directive ?? true;
    const verdict = await decideToolCall(ctx, { sessionId: b.session_id, tool: b.tool_name, args: b.args, callId: b.tool_call_id,
      parentSessionId: b.parent_session_id, resumption: b.resumption ?? (approveDirective ? 'held' : 'retry'), caller: ctx.caller, cwd: b.cwd });
    return ok(hermesToolReply(verdict, { approveDirective, call: { tool: b.tool_name, args: b.args } }));
  } },
  transform_llm_output: { kind: 'hermes-output', handle: async (ctx, body) => {
    const b = validate(hermesTransformLlmOutput, body);
    return ok(hermesOutputReply(await checkOutput(ctx, { sessionId: b.session_id, text: b.response_text })));
  } },
  post_tool_call: { kind: 'other', handle: async (ctx, body) => {
    const b = validate(hermesPostToolCall, body);
    await ctx.gate.toolResult({ sessionId: b.session_id, callId: b.tool_call_id, tool: b.tool_name, status: b.status, durationMs: b.duration_ms });
    return ok({});
  } },
  on_session_start: { kind: 'other', handle: async (ctx, body) => {
    const b = validate(hermesSessionStart, body);
    return answered(b.session_id ? (await ctx.gate.sessionSeen({ sessionId: b.session_id, platform: b.platform ?? null }, ctx.caller)).refused : null);
  } },
  on_session_end: { kind: 'other', handle: async (ctx, body) => {
    const b = validate(hermesSessionHook, body);
    return answered((await ctx.gate.endSession(b.session_id, ctx.caller)).refused);
  } },
  // delegate_task: the child's session opens linked to its parent (only a parent the gate knows), and ends with it.
  subagent_start: { kind: 'other', handle: async (ctx, body) => {
    const b = validate(hermesSubagentHook, body);
    if (!b.child_session_id || !b.parent_session_id) return ok({});
    return answered((await ctx.gate.subagentStarted({ childSessionId: b.child_session_id, parentSessionId: b.parent_session_id, role: b.child_role ?? null }, ctx.caller)).refused);
  } },
  subagent_stop: { kind: 'other', handle: async (ctx, body) => {
    const b = validate(hermesSubagentHook, body);
    return answered(b.child_session_id ? (await ctx.gate.endSession(b.child_session_id, ctx.caller)).refused : null);
  } },
};

/** An observing hook's answer: nothing, or the channel's refusal (already recorded as CallerRefused). */
const answered = (refused: string | null): RouteResult => (refused === null ? ok({}) : channelRefusal(refused, 'session_id'));

/** A hook name this daemon does not know. Named like a tool hook, it fails as one (a block), since it may be one. */
const unknownHookKind = (hook: string): RouteKind => (/tool/i.test(hook) ? 'hermes-tool-call' : 'other');

export const hermesHookRoute: Route = {
  method: 'POST',
  pattern: /^\/v1\/hooks\/hermes\/([^/]+)$/,
  endpoint: ([hook]) => `hermes:${hook ?? ''}`,
  kind: ([hook = '']) => (Object.hasOwn(hermesHooks, hook) ? hermesHooks[hook]!.kind : unknownHookKind(hook)),
  handle: async (ctx) => {
    const hook = ctx.params[0] ?? '';
    const handler = Object.hasOwn(hermesHooks, hook) ? hermesHooks[hook] : undefined;
    if (handler === undefined)
      throw new HttpProblem(404, 'unknown-hook', `Unknown Hermes hook "${hook.slice(0, 100)}"; known hooks: ${Object.keys(hermesHooks).join(', ')}.`, 'path.hook');
    const body = await ctx.json();
    ctx.sessionId = sessionIdOf(body);
    return handler.handle(ctx, body);
  },
};
