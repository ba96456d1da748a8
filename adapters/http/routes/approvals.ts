/** Questions to humans: list the open ones, answer one, or wait (long-poll) for one's answer. */
import { z } from 'zod';
import type { ApprovalResult } from '../../../ops/gate/verdicts.ts';
import { approvalAnswerBody } from '../bodySchemas.ts';
import { HttpProblem } from '../httpProblem.ts';
import { validate } from '../parseBody.ts';
import { ok, type Route, type RouteResult } from '../route.ts';
import { channelRefusal } from './channelRefusal.ts';

const unknownApproval = (result: ApprovalResult): RouteResult => ({
  status: 404,
  body: { ...result, ...new HttpProblem(404, 'unknown-approval', `No open question has the id "${result.approvalId.slice(0, 200)}" (never asked, or already answered or expired).`, 'path.id').body },
});

export const listApprovalsRoute: Route = {
  method: 'GET', pattern: /^\/v1\/approvals$/, endpoint: () => 'approvals:list', kind: () => 'other',
  handle: async (ctx) => {
    const view = ctx.gate.projections.pendingApprovals.view();
    const approvals = Object.values(view.state).sort((a, b) => a.requestedAt.localeCompare(b.requestedAt));
    return ok({ position: view.position, caughtUp: view.caughtUp, approvals });
  },
};

export const answerApprovalRoute: Route = {
  method: 'POST', pattern: /^\/v1\/approvals\/([^/]+)$/, endpoint: () => 'approvals:answer', kind: () => 'other',
  handle: async (ctx) => {
    const b = validate(approvalAnswerBody, await ctx.json());
    // Who answered is what the channel proved (ctx.caller), never the body's answered_by.
    const result = await ctx.gate.answer(ctx.params[0] ?? '', b.answer, null, ctx.caller, b.surface);
    ctx.sessionId = result.sessionId;
    if (result.outcome === 'refused') {
      const refusal = channelRefusal(result.refused ?? 'channel:refused', 'path.id');
      return 'body' in refusal ? { status: refusal.status, body: { ...result, ...(refusal.body as object) } } : refusal;
    }
    return result.outcome === 'unknown' ? unknownApproval(result) : ok(result);
  },
};

const waitQuery = z.object({
  timeout_ms: z.string().regex(/^\d{1,10}$/, 'must be a whole number of milliseconds').transform(Number).optional(),
});

export const waitApprovalRoute: Route = {
  method: 'GET', pattern: /^\/v1\/approvals\/([^/]+)\/wait$/, endpoint: () => 'approvals:wait', kind: () => 'other',
  handle: async (ctx) => {
    const q = validate(waitQuery, Object.fromEntries(ctx.query), 'query');
    const ms = Math.min(q.timeout_ms ?? ctx.settings.defaultWaitMs, ctx.settings.maxWaitMs);
    const result = await ctx.gate.waitForAnswer(ctx.params[0] ?? '', ms);
    return result.outcome === 'unknown' ? unknownApproval(result) : ok(result);
  },
};

const revokeBody = z.object({ grant_id: z.string().min(1).max(200) });

/** `POST /v1/allowlist/revoke {grant_id}`: an `always` answer taken back. The human channel's to do. */
export const revokeAllowlistRoute: Route = {
  method: 'POST', pattern: /^\/v1\/allowlist\/revoke$/, endpoint: () => 'allowlist:revoke', kind: () => 'other',
  handle: async (ctx) => {
    const b = validate(revokeBody, await ctx.json());
    const result = await ctx.gate.revokeAllowlistEntry(b.grant_id, ctx.caller);
    if (result.outcome === 'refused') return channelRefusal(result.refused ?? 'channel:refused', 'body.grant_id');
    if (result.outcome === 'unknown')
      return { status: 404, body: { outcome: 'unknown', ...new HttpProblem(404, 'unknown-approval', `No allowlist entry comes from grant "${b.grant_id.slice(0, 200)}".`, 'grant_id').body } };
    return ok({ grant_id: b.grant_id, outcome: 'revoked' });
  },
};
