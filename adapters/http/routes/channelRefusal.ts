/** The answer to a command the caller's channel may not give (recorded by the gate as CallerRefused). */
import { HttpProblem } from '../httpProblem.ts';
import type { RouteResult } from '../route.ts';

const explanations: Readonly<Record<string, string>> = {
  'channel:not-session-owner': 'only the runtime registration that opened this session may do this',
  'channel:not-parent-owner': 'only the runtime registration that owns the parent session may start its subagents',
  'channel:out-of-band-refused': 'answers must come through the runtime\'s own prompt or the human socket (server.human_socket); `approvals.out_of_band: true` accepts others',
  'channel:not-a-runtime': 'this channel does not speak for a runtime',
};

export const channelRefusal = (reason: string, where: string): RouteResult => ({
  status: 403,
  body: { refused: reason, ...new HttpProblem(403, 'channel-refused', `Refused (${reason}): ${explanations[reason] ?? 'the channel may not do this'}.`, where).body },
});
