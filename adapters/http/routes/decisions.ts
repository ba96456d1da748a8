/**
 * The two deciding calls with the daemon's deadline around them. A decision slower than
 * `server.decision_timeout` is answered with a block (or a held reply) whose reason is `gate:decision-timeout`,
 * and the late answer is recorded as a rejected request so auditors see why the runtime got a block.
 */
import { randomUUID } from 'node:crypto';
import type { OutputInput, ToolCallInput } from '../../../ops/gate/gate.ts';
import { failClosed, heldReplyNotice, type OutputVerdict, type ToolCallVerdict } from '../../../ops/gate/verdicts.ts';
import type { RouteContext } from '../route.ts';
import { withDeadline } from '../withDeadline.ts';

export const decideToolCall = async (ctx: RouteContext, input: ToolCallInput): Promise<ToolCallVerdict> => {
  // The call id is fixed here, so a timed-out answer names the call the gate will still record.
  const callId = input.callId ?? randomUUID();
  ctx.sessionId = input.sessionId;
  ctx.callId = callId;
  const ms = ctx.settings.decisionTimeoutMs;
  const raced = await withDeadline(ctx.gate.toolCall({ ...input, callId }), ms);
  if (!raced.timedOut) return raced.value;
  await ctx.gate.recordRejection(ctx.endpoint, `decision-timeout: no decision within ${ms} ms`, input.sessionId, true);
  ctx.settings.log({ msg: 'decision timed out', endpoint: ctx.endpoint, sessionId: input.sessionId, callId, ms });
  return failClosed(input.sessionId, callId, 'gate:decision-timeout',
    `Blocked by tollgate: the decision took longer than ${ms} ms, and nothing runs that was not checked.`);
};

export const checkOutput = async (ctx: RouteContext, input: OutputInput): Promise<OutputVerdict> => {
  ctx.sessionId = input.sessionId;
  const ms = ctx.settings.decisionTimeoutMs;
  const raced = await withDeadline(ctx.gate.output(input), ms);
  if (!raced.timedOut) return raced.value;
  await ctx.gate.recordRejection(ctx.endpoint, `decision-timeout: no output check within ${ms} ms`, input.sessionId, false);
  ctx.settings.log({ msg: 'output check timed out', endpoint: ctx.endpoint, sessionId: input.sessionId, ms });
  return {
    verdict: 'block', layer: 'input', reasons: ['gate:decision-timeout'],
    message: `Held back by tollgate: the reply could not be checked within ${ms} ms.`, outputId: '', replacement: heldReplyNotice, position: 0,
  };
};
