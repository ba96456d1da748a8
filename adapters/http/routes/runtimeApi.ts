/** The generic runtime API: any agent runtime can report user messages and ask about tool calls and outgoing text. */
import { messageBody, outputBody, toolCallBody } from '../bodySchemas.ts';
import { promptText } from '../../../domain/encoding/promptText.ts';
import { sessionIdOf, validate } from '../parseBody.ts';
import { ok, type Route } from '../route.ts';
import { checkOutput, decideToolCall } from './decisions.ts';

export const toolCallRoute: Route = {
  method: 'POST', pattern: /^\/v1\/tool-calls$/, endpoint: () => 'tool-calls', kind: () => 'tool-call',
  handle: async (ctx) => {
    const raw = await ctx.json();
    ctx.sessionId = sessionIdOf(raw);
    const b = validate(toolCallBody, raw);
    const verdict = await decideToolCall(ctx, { sessionId: b.session_id, tool: b.tool, args: b.args, callId: b.call_id,
      parentSessionId: b.parent_session_id, resumption: b.resumption ?? 'held' });
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
    const { position } = await ctx.gate.userMessage({ sessionId: b.session_id, text: b.text, senderId: b.sender_id, platform: b.platform, parentSessionId: b.parent_session_id });
    return ok({ position });
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
