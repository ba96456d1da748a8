/** Every endpoint of the daemon, in one list: the table of contents of the HTTP API. */
import type { Route } from '../route.ts';
import { answerApprovalRoute, listApprovalsRoute, revokeAllowlistRoute, waitApprovalRoute } from './approvals.ts';
import { healthRoute } from './health.ts';
import { hermesHookRoute } from './hermesHooks.ts';
import { projectionRoute } from './projections.ts';
import { messageRoute, outputRoute, registerRuntimeRoute, toolCallRoute } from './runtimeApi.ts';
import { streamRoute } from './stream.ts';

export const routeTable: readonly Route[] = [
  registerRuntimeRoute, // POST /v1/runtime/register
  hermesHookRoute,     // POST /v1/hooks/hermes/:hook
  toolCallRoute,       // POST /v1/tool-calls
  messageRoute,        // POST /v1/messages
  outputRoute,         // POST /v1/outputs
  listApprovalsRoute,  // GET  /v1/approvals
  answerApprovalRoute, // POST /v1/approvals/:id
  waitApprovalRoute,   // GET  /v1/approvals/:id/wait?timeout_ms=
  revokeAllowlistRoute, // POST /v1/allowlist/revoke
  projectionRoute,     // GET  /v1/projections/:name[?session=]
  healthRoute,         // GET  /v1/health
  streamRoute,         // GET  /v1/stream[?session=&verdict=&layer=&tool=&type=&after=]
];

/** The human socket: answers and reads, nothing a runtime sends (no words, no tool calls, no registrations). */
export const humanRouteTable: readonly Route[] = [
  listApprovalsRoute, answerApprovalRoute, waitApprovalRoute, revokeAllowlistRoute, projectionRoute, healthRoute, streamRoute,
];
