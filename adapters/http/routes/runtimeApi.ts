/** The generic runtime API: any agent runtime can report user messages and ask about tool calls and outgoing text. */
import { messageBody, outputBody, registerBody, toolCallBody } from '../bodySchemas.ts';
import { promptText } from '../../../domain/encoding/promptText.ts';
import { sessionIdOf, validate } from '../parseBody.ts';
import { ok, type Route } from '../route.ts';
import { channelRefusal } from './channelRefusal.ts';
import { checkOutput, decideToolCall } from './decisions.ts';

/**
 * A runtime's key: handed out once, here, and never again (see runtimeAuth.ts). Any caller of the runtime socket may
 * register; a registration owns only the sessions it opens.
 */
export const registerRuntimeRoute: Route = {
  method: 'POST', pattern: /^\/v1\/runtime\/register$/, endpoint: () => 'runtime:register', kind: () => 'other',
  handle: async (ctx) => {
    const b = validate(registerBody, await ctx.json());
    const r = await ctx.gate.registerRuntime({ runtime: b.runtime, pid: b.pid ?? null });
    return ok({ registration_id: r.registrationId, key: r.key.toString('base64'), pid_start: r.pidStart });
  },
};

export const toolCallRoute: Route = {
  method: 'POST', pattern: /^\/v1\/tool-calls$/, endpoint: () => 'tool-calls', kind: () => 'tool-call',
  handle: async (ctx) => {
    const raw = await ctx.json();
    ctx.sessionId = sessionIdOf(raw);
    const b = validate(toolCallBody, raw);
    const verdict = await decideToolCall(ctx, { sessionId: b.session_id, tool: b.tool, args: b.args, callId: b.call_id,
      parentSessionId: b.parent_session_id, resumption: b.resumption ?? 'held', caller: ctx.caller, cwd: b.cwd });
    // An ask carries the call as a human must be shown it (escapes visible), for a runtime that prompts its user.
    return ok({ action: verdict.verdict === 'ask' && verdict.approvalId === null ? 'block' : verdict.verdict, ...verdict,
      ...(verdict.verdict === 'ask' && verdict.approvalId !== null ? { promptText: promptText(b.tool, b.args) } : {}) });
  },
};

export const messageRoute: Route = {
  method: 'POST', pattern: /^\/v1\/messages$/, endpoint: () => 'messages', kind: () => 'other',
  handle: async (ctx) => {
    const raw = await ctx.json();
    ctx.sessionId = sessionIdOf(raw);
    const b = validate(messageBody, raw);
    const { position, refused } = await ctx.gate.userMessage({ sessionId: b.session_id, text: b.text, senderId: b.sender_id, platform: b.platform, parentSessionId: b.parent_session_id }, ctx.caller);
    return refused === null ? ok({ position }) : channelRefusal(refused, 'session_id');
  },
};

export const outputRoute: Route = {
  method: 'POST', pattern: /^\/v1\/outputs$/, endpoint: () => 'outputs', kind: () => 'output',
  handle: async (ctx) => {
    const raw = await ctx.json();
    ctx.sessionId = sessionIdOf(raw);
    const b = validate(outputBody, raw);
    return ok(await checkOutput(ctx, { sessionId: b.session_id, text: b.text, ...(b.channel === undefined ? {} : { channel: b.channel }) }));
  },
};
