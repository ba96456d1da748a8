/**
 * Verdicts as runtimes read them. Hermes gets its own directives (`block`, `approve` with a `rule_key`, `allow`)
 * plus the verdict details; the generic API gets the verdict objects as the gate returns them.
 */
import { promptText } from '../../domain/encoding/promptText.ts';
import { failClosed, heldReplyNotice, type OutputVerdict, type ToolCallVerdict } from '../../ops/gate/verdicts.ts';
import type { ErrorBody, HttpProblem } from './httpProblem.ts';

const nonEmpty = (message: string, fallback: string): string => (message.trim() === '' ? fallback : message);

/** What the agent hears about a question: a human decides it outside the agent; it can only wait and retry. */
export const humanAskedNotice = 'A human has been asked to approve it outside this conversation; it can run only after they do. Wait for the user, then try again.';

/**
 * The reply to Hermes' `pre_tool_call`. An ask without a question id cannot be answered, so it is a block; so is
 * an ask to a Hermes without the approve directive (it would ignore the directive and run the call).
 * An approve carries `prompt_text`, the call as the human must see it in Hermes' prompt (escapes visible).
 */
export const hermesToolReply = (v: ToolCallVerdict, options: { readonly approveDirective?: boolean; readonly call?: ToolCallShown } = {}): Record<string, unknown> => {
  const details = {
    verdict: v.verdict, reasons: v.reasons, layer: v.layer, call_id: v.callId, session_id: v.sessionId,
    would_block: v.wouldBlock, position: v.position,
  };
  if (v.verdict === 'allow') return { action: 'allow', ...details };
  if (v.verdict === 'ask' && v.approvalId !== null) {
    const question = { approval_id: v.approvalId, expires_at: v.expiresAt, ...details };
    if (options.approveDirective === false)
      // The model reads this message: it hears that a human was asked, never the question's id or how to answer it
      // (the id stays in approval_id, which the runtime reads, and on the human surfaces).
      return { action: 'block', message: `${nonEmpty(v.message, 'This call needs a human\'s approval.')} ${humanAskedNotice}`, ...question };
    return { action: 'approve', message: nonEmpty(v.message, 'tollgate asks a human to approve this call.'), rule_key: v.approvalId, ...question,
      ...(options.call ? { prompt_text: promptText(options.call.tool, options.call.args) } : {}) };
  }
  return { action: 'block', message: nonEmpty(v.message, 'Blocked by tollgate.'), ...details, verdict: 'block' };
};

/** The call an ask is about, as the runtime sent it. */
export interface ToolCallShown { readonly tool: string; readonly args: Readonly<Record<string, unknown>> }

/** The reply to Hermes' `transform_llm_output`: a replacement text when the reply is held back, else null. */
export const hermesOutputReply = (v: OutputVerdict): Record<string, unknown> => ({
  response_text: v.verdict === 'allow' ? null : (v.replacement ?? heldReplyNotice),
  verdict: v.verdict, reasons: v.reasons, layer: v.layer, message: v.message, output_id: v.outputId, position: v.position,
});

/** How a failed request is answered, by what the endpoint decides. */
export type RouteKind = 'hermes-tool-call' | 'tool-call' | 'hermes-output' | 'output' | 'other';

export const isToolCallKind = (kind: RouteKind): boolean => kind === 'hermes-tool-call' || kind === 'tool-call';

export const reasonFor = (problem: HttpProblem): string =>
  problem.code === 'decision-timeout' ? 'gate:decision-timeout'
    : problem.code === 'internal-error' ? 'gate:internal-error'
      : `input:${problem.code}`;

/** A blocked tool call (and a held reply) standing in for a decision the gate could not make. */
export const failedToolVerdict = (problem: HttpProblem, sessionId: string | null, callId: string | null): ToolCallVerdict =>
  failClosed(sessionId ?? '', callId ?? '', reasonFor(problem),
    `Blocked by tollgate: the request could not be decided (${problem.message}). Nothing is allowed that was not checked.`);

export const failedOutputVerdict = (problem: HttpProblem): OutputVerdict => ({
  verdict: 'block', layer: 'input', reasons: [reasonFor(problem)],
  message: `Held back by tollgate: the reply could not be checked (${problem.message}).`, outputId: '', replacement: heldReplyNotice, position: 0,
});

/** The body of an error response: always `error`, and for deciding endpoints the fail-closed answer too. */
export const failureBody = (kind: RouteKind, problem: HttpProblem, sessionId: string | null, callId: string | null = null): ErrorBody | (ErrorBody & Record<string, unknown>) => {
  const error = problem.body;
  switch (kind) {
    case 'hermes-tool-call': return { ...hermesToolReply(failedToolVerdict(problem, sessionId, callId)), ...error };
    case 'tool-call': return { action: 'block', ...failedToolVerdict(problem, sessionId, callId), ...error };
    case 'hermes-output': return { ...hermesOutputReply(failedOutputVerdict(problem)), ...error };
    case 'output': return { ...failedOutputVerdict(problem), ...error };
    case 'other': return error;
  }
};
