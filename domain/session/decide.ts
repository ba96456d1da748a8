/**
 * The session decider: one pure function per command. No clock, no I/O, no randomness — the command brings
 * the time and the ids — so replaying recorded commands re-derives the recorded events exactly.
 * Before any command, questions whose time ran out are closed as expired (an unanswered question is a deny).
 */
import { event, type TollgateEvent } from '../events/catalogue.ts';
import { matchDangerous } from '../gate/approvals/dangerousCommands.ts';
import { runGate } from '../gate/runGate.ts';
import type { LayerVerdict } from '../gate/verdict.ts';
import type {
  AnswerApproval, EndSession, ExpireApprovals, ObserveUserMessage, ProposeOutput, ProposeToolCall,
  ObserveSession, RecordToolResult, SessionCommand, StartSubagent,
} from './commands.ts';
import { evolve } from './evolve.ts';
import type { OpenSession, SessionState } from './sessionState.ts';
import { ownEntry } from '../encoding/ownEntry.ts';
import { inProcessCaller, principalOf } from './caller.ts';
import { checkCaller, mayAllowlist } from './channelRules.ts';
import { callStart, directoryAfter, movesRelatively, movesTerminal, terminalTool } from './terminalDirectory.ts';

/** Questions one session may have waiting for a human at once; further asks are blocked until some are answered. */
export const maxOpenQuestions = 32;

export const decide = (command: SessionCommand, state: SessionState): TollgateEvent[] => {
  const expired = expireDue(state, command.data.now);
  const current = expired.reduce(evolve, state);
  return [...expired, ...decideChecked(command, current)];
};

/** The caller's channel first (channelRules.ts): a refusal is recorded and decides nothing else. */
const decideChecked = (command: SessionCommand, state: SessionState): TollgateEvent[] => {
  const check = checkCaller(command, state);
  const { sessionId, now } = command.data;
  if (check.kind === 'refused')
    return [event('CallerRefused', { sessionId, command: command.type, caller: check.caller, reason: check.reason, at: now })];
  if (check.kind === 'claim') {
    const claimed = event('SessionClaimed', { sessionId, from: check.from, to: check.to, at: now });
    return [claimed, ...decideFresh(command, evolve(state, claimed), null)];
  }
  return decideFresh(command, state, check.answeredBy);
};

const decideFresh = (command: SessionCommand, state: SessionState, answeredBy: string | null): TollgateEvent[] => {
  switch (command.type) {
    case 'ObserveUserMessage': return observeUserMessage(command, state);
    case 'ProposeToolCall': return proposeToolCall(command, state);
    case 'ProposeOutput': return proposeOutput(command, state);
    case 'AnswerApproval': return answerApproval(command, state, answeredBy);
    case 'ExpireApprovals': return expireApprovals(command, state);
    case 'RecordToolResult': return recordToolResult(command, state);
    case 'ObserveSession': return observeSession(command, state);
    case 'StartSubagent': return startSubagent(command, state);
    case 'EndSession': return endSession(command, state);
    default: return unreachable(command);
  }
};

const observeUserMessage = ({ data }: ObserveUserMessage, state: SessionState): TollgateEvent[] => {
  const start = state.status === 'open' ? [] : [event('SessionStarted', {
    sessionId: data.sessionId, platform: data.platform, parentSessionId: data.parentSessionId, owner: ownerFor(data), at: data.now,
  })];
  return [...start, event('UserMessageReceived', {
    sessionId: data.sessionId, textRef: data.textRef, textDigest: data.textDigest, length: data.length,
    senderId: data.senderId, platform: data.platform, at: data.now,
  })];
};

const proposeToolCall = (command: ProposeToolCall, state: SessionState): TollgateEvent[] => {
  const { data } = command;
  if (state.status === 'open') return decideToolCall(command, state);
  if (state.status === 'unknown' && data.parentSessionId !== null && data.parentKnown) {
    // A subagent's first call: its session opens linked to the parent that started it.
    const started = event('SessionStarted', { sessionId: data.sessionId, platform: null, parentSessionId: data.parentSessionId, owner: ownerFor(data), at: data.now });
    const opened = evolve(state, started) as OpenSession;
    return [started, ...decideToolCall(command, opened)];
  }
  const reason = state.status === 'ended' ? 'session:session-ended' : 'session:unknown-session';
  const message = state.status === 'ended'
    ? 'Blocked: this session has ended.'
    : 'Blocked: the gate has not seen this session start (no user message), so there is no authority to act.';
  return [toolCallDecided(data, { layer: 'session', verdict: 'block', reasons: [reason], message, mode: 'enforce' }, [], null, null)];
};

/**
 * A relative `cd` decided twice in a row is most likely one call guarded twice (the plugin, then Hermes' shell hook
 * with no call id), which the terminal runs once: where it ends is then unclear.
 */
const decideToolCall = (command: ProposeToolCall, state: OpenSession): TollgateEvent[] => {
  const events = decideToolCallOnce(command, state);
  const previous = state.recentDecisions[state.recentDecisions.length - 1];
  if (previous?.tool !== command.data.tool || previous.fingerprint !== command.data.fingerprint || !movesRelatively(command.data.shell)) return events;
  return events.map((e) => (e.type === 'ToolCallDecided' && typeof e.data.terminalCwd === 'string' ? { ...e, data: { ...e.data, terminalCwd: null } } : e));
};

const decideToolCallOnce = ({ data }: ProposeToolCall, state: OpenSession): TollgateEvent[] => {
  const earlier = state.recentDecisions.find((d) => d.callId === data.callId);
  // The same call asked again (a plugin and a shell hook both guarding, a resent request) gets the answer it already
  // has: nothing new is decided, so a one-time grant is not spent twice. The same id for another action is refused.
  if (earlier !== undefined && earlier.tool === data.tool && earlier.fingerprint === data.fingerprint) return [];
  if (earlier !== undefined) {
    return [toolCallDecided(data, { layer: 'input', verdict: 'block', reasons: ['input:call-id-reused'], mode: 'enforce',
      message: `Blocked: call id ${data.callId} was already used for another action in this session.` }, [], null, null)];
  }
  const decision = runGate({
    tool: data.tool, args: data.args, fingerprint: data.fingerprint, shell: data.shell, runsShell: data.runsShell,
    settings: data.settings, grants: Object.values(state.grants), allowlisted: data.allowlisted,
    protection: data.protection ?? null, pathFacts: data.pathFacts ?? null, scripts: data.scripts ?? null,
    directoryLost: state.terminalCwd === null, cdpathSet: state.terminalCdpath === true,
    unknownVariables: state.terminalUnknown ?? [], exportedHome: state.terminalEnv?.['HOME'] ?? null,
  });
  const { final, wouldBlock, grantId } = decision;
  if (final.verdict === 'ask' && Object.keys(state.pending).length >= maxOpenQuestions) {
    // An agent that keeps proposing dangerous commands must not bury the human (or the gate) in questions.
    const refused = { ...final, verdict: 'block' as const, reasons: [...final.reasons, 'approvals:too-many-open-questions'],
      message: `Blocked: ${maxOpenQuestions} questions of this session are still waiting for a human; answer them first.` };
    return [toolCallDecided(data, refused, wouldBlock, null, null)];
  }
  if (final.verdict === 'ask') {
    const expiresAt = new Date(Date.parse(data.now) + data.settings.approvals.timeoutSeconds * 1000).toISOString();
    return [
      toolCallDecided(data, final, wouldBlock, data.approvalId, null, state.terminalCdpath === true),
      event('ApprovalRequested', {
        sessionId: data.sessionId, approvalId: data.approvalId, callId: data.callId, tool: data.tool,
        fingerprint: data.fingerprint, summary: summarize(data),
        hits: data.shell === null ? [] : matchDangerous(data.shell).map((h) => ({ ...h })), resumption: data.resumption,
        expiresAt, at: data.now,
      }),
    ];
  }
  const consumed = grantId !== null && ownEntry(state.grants, grantId)?.scope === 'once'
    ? [event('GrantConsumed', { sessionId: data.sessionId, grantId, callId: data.callId, at: data.now })]
    : [];
  return [toolCallDecided(data, final, wouldBlock, null, grantId, state.terminalCdpath === true), ...consumed];
};

const proposeOutput = ({ data }: ProposeOutput, state: SessionState): TollgateEvent[] => {
  const open = state.status === 'open';
  return [event('OutputChecked', {
    sessionId: data.sessionId, outputId: data.outputId, channel: data.channel, textDigest: data.textDigest,
    length: data.length, verdict: open ? 'allow' : 'block', layer: open ? 'gate' : 'session',
    reasons: open ? [] : [state.status === 'ended' ? 'session:session-ended' : 'session:unknown-session'],
    message: open ? 'Allowed: no guard objected.' : 'Held back: the gate has not seen this session start.',
    wouldBlock: [], at: data.now,
  })];
};

const answerApproval = ({ data }: AnswerApproval, state: SessionState, answeredBy: string | null): TollgateEvent[] => {
  if (state.status !== 'open') return [];
  const pending = ownEntry(state.pending, data.approvalId);
  if (pending === undefined) return [];
  const approved = data.answer !== 'deny';
  const answered = event('ApprovalAnswered', {
    sessionId: data.sessionId, approvalId: data.approvalId, callId: pending.callId, answer: data.answer,
    callAllowed: approved, answeredBy, at: data.now,
  });
  // A held call runs on "once" and nothing more is granted; a retrying runtime needs a one-use grant instead.
  const scope = data.answer === 'deny' ? null
    : data.answer === 'once' ? (pending.resumption === 'retry' ? 'once' : null)
    : data.answer === 'always' && !mayAllowlist(answeredBy) ? 'session'
    : data.answer;
  if (scope === null) return [answered];
  return [answered, event('GrantIssued', {
    sessionId: data.sessionId, grantId: data.grantId, approvalId: data.approvalId, scope, tool: pending.tool,
    fingerprint: pending.fingerprint, summary: pending.summary, at: data.now,
  })];
};

/** The expiry itself happens in `decide` before every command; this command only triggers it. */
const expireApprovals = (_command: ExpireApprovals, _state: SessionState): TollgateEvent[] => [];

const recordToolResult = ({ data }: RecordToolResult, state: SessionState): TollgateEvent[] =>
  state.status === 'open'
    ? [event('ToolCallCompleted', { sessionId: data.sessionId, callId: data.callId, tool: data.tool, status: data.status, durationMs: data.durationMs, at: data.now })]
    : [];

/** Opens a session nobody has spoken in yet; it records no words, so later guards find no authority in it. */
const observeSession = ({ data }: ObserveSession, state: SessionState): TollgateEvent[] =>
  state.status === 'unknown'
    ? [event('SessionStarted', { sessionId: data.sessionId, platform: data.platform, parentSessionId: data.parentSessionId, owner: ownerFor(data), at: data.now })]
    : [];

/**
 * A subagent acts for the session that started it, so its session opens linked to that parent — but only to a
 * parent the gate knows: a subagent of nobody gets no authority, and its calls stay blocked as unknown.
 */
const startSubagent = ({ data }: StartSubagent, state: SessionState): TollgateEvent[] =>
  state.status === 'unknown' && data.parentKnown
    ? [event('SessionStarted', { sessionId: data.sessionId, platform: 'subagent', parentSessionId: data.parentSessionId, owner: ownerFor(data), at: data.now })]
    : [];

const endSession = ({ data }: EndSession, state: SessionState): TollgateEvent[] =>
  state.status === 'open' ? [event('SessionEnded', { sessionId: data.sessionId, at: data.now })] : [];

const expireDue = (state: SessionState, now: string): TollgateEvent[] => {
  if (state.status !== 'open' || state.nextExpiryMs === null) return [];
  const at = Date.parse(now);
  if (state.nextExpiryMs > at) return [];
  return Object.values(state.pending)
    .filter((p) => Date.parse(p.expiresAt) <= at)
    .map((p) => event('ApprovalExpired', { sessionId: state.sessionId, approvalId: p.approvalId, callId: p.callId, at: now }));
};

const toolCallDecided = (
  data: ProposeToolCall['data'],
  verdict: LayerVerdict,
  wouldBlock: readonly LayerVerdict[],
  approvalId: string | null,
  grantId: string | null,
  cdpath = false,
): TollgateEvent => event('ToolCallDecided', {
  sessionId: data.sessionId, callId: data.callId, tool: data.tool, args: data.args, fingerprint: data.fingerprint,
  shell: data.shell, verdict: verdict.verdict, layer: verdict.layer, reasons: [...verdict.reasons],
  message: verdict.message, mode: verdict.mode, wouldBlock: wouldBlock.map((w) => ({ ...w, reasons: [...w.reasons] })),
  approvalId, grantId, ...terminalMove(data, verdict.verdict, cdpath), at: data.now,
});

/**
 * The terminal's directory after a call that moves it: where the line ends for an allowed call; unknown for an
 * asked one (it may run after an answer, or never); a blocked call moves nothing.
 */
const terminalMove = (data: ProposeToolCall['data'], verdict: LayerVerdict['verdict'], cdpath: boolean): { terminalCwd?: string | null } => {
  if (data.tool !== terminalTool || verdict === 'block' || !movesTerminal(data.args, data.shell)) return {};
  if (verdict === 'ask') return { terminalCwd: null };
  const home = data.protection?.home ?? null;
  const dirs = new Set(data.pathFacts?.dirs ?? []);
  const start = callStart(data.args['workdir'], data.pathFacts?.cwd ?? null, home);
  // Hermes runs `cd -- WORKDIR || exit 126` first: a missing workdir leaves the terminal where it was, or not.
  if (typeof data.args['workdir'] === 'string' && data.args['workdir'] !== '' && (start === null || !dirs.has(start))) return { terminalCwd: null };
  const after = directoryAfter(data.shell, start, home, (path) => dirs.has(path), data.protection?.hermesHome ?? null, cdpath);
  // Hermes records `pwd -P`: the terminal is where a symlink on the way leads.
  return { terminalCwd: after === null ? null : ownEntry(data.pathFacts?.links ?? {}, after) ?? after };
};

/** A session is owned by the registration whose command opened it (null: anonymous or in-process). */
const ownerFor = (data: { readonly caller?: Parameters<typeof principalOf>[0] | undefined }): string | null =>
  principalOf(data.caller ?? inProcessCaller);

const summarize = (data: ProposeToolCall['data']): string =>
  data.shell !== null ? data.shell.source : `${data.tool} ${JSON.stringify(data.args)}`.slice(0, 500);

const unreachable = (command: never): never => {
  throw new Error(`Assertion failed: unhandled command ${JSON.stringify(command)}`);
};
