/**
 * The gate as the runtime sees it: user messages in, tool calls and outgoing text decided, approvals answered.
 * Adapters do their work first (parse the command line, store raw text, read the allowlist projection), then a
 * command with everything the decision needs goes through the pure decider and is appended to the ledger.
 * Every failure inside is a block (or a held reply), and the reason is recorded.
 */
import type { Ledger } from '../../adapters/ledger/port.ts';
import { ownEntry } from '../../domain/encoding/ownEntry.ts';
import type { TollgateEvent } from '../../domain/events/catalogue.ts';
import { encodeEvent } from '../../domain/events/codec.ts';
import type { GateSettings, SessionCommand } from '../../domain/session/commands.ts';
import { actionFingerprint } from '../../domain/tools/actionFingerprint.ts';
import { classifyToolCall, type AnalyzeShell } from '../../domain/tools/classifyToolCall.ts';
import type { CheckpointStore } from '../../projections/checkpointStore.ts';
import { allowlistKey, grants, type GrantsState } from '../../projections/grants.ts';
import { pendingApprovals, type PendingApprovals } from '../../projections/pendingApprovals.ts';
import type { RunningProjection } from '../../projections/runProjection.ts';
import { startProjections } from '../../projections/runProjection.ts';
import { sessionTimeline, type SessionTimelines } from '../../projections/sessionTimeline.ts';
import { wouldBlockReport, type WouldBlockReport } from '../../projections/wouldBlockReport.ts';
import type { TollgateConfig } from '../config/configSchema.ts';
import { ApprovalWaiters } from './approvalWaiters.ts';
import type { SessionState } from '../../domain/session/sessionState.ts';
import { SessionStore } from './sessionStore.ts';
import { protectedState } from './protectedState.ts';
import type { ProtectionFacts } from '../../domain/gate/selfProtection/protectionFacts.ts';
import { callPathFacts } from './callPathFacts.ts';
import { deepFrozen } from '../../domain/encoding/deepFrozen.ts';
import { readFileStart, scriptFacts, type ReadFileStart } from './scriptFacts.ts';
import { realpathSync, statSync } from 'node:fs';
import type { CallPathFacts } from '../../domain/gate/selfProtection/callPathFacts.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';
import { callStart, cdTargets, movesTerminal, terminalTool } from '../../domain/session/terminalDirectory.ts';
import { inProcessCaller, type Caller } from '../../domain/session/caller.ts';
import { allowlistChangeBy, ownerOf } from '../../domain/session/channelRules.ts';
import { keyDigestOf, registrationsStream, RuntimeRegistry, type Registration } from './runtimeRegistry.ts';
import {
  failClosed, heldReplyNotice, type ApprovalResult, type OutputVerdict, type ToolCallVerdict,
} from './verdicts.ts';

export interface RawTextStore {
  put(text: string, now: string): Promise<{ readonly ref: string; readonly digest: string }>;
}

export interface GateDeps {
  readonly config: TollgateConfig;
  readonly ledger: Ledger;
  readonly payloads: RawTextStore;
  /** HMAC digest of text that is checked but not kept (outgoing replies). */
  readonly digest: (text: string) => string;
  readonly analyzeShell: AnalyzeShell;
  readonly checkpoints: CheckpointStore;
  /** Milliseconds since the epoch; injected so scenarios can move time. */
  readonly clock: () => number;
  readonly newId: () => string;
  /** Expire unanswered questions with timers (the daemon); eval expires them when its clock advances. */
  readonly expiryTimers?: boolean;
  /**
   * Files that earlier calls wrote, read before the disk: eval runs nothing, so the script a scenario wrote in one
   * step is found here when a later step runs it. The daemon has none (the disk holds what really ran).
   */
  readonly writtenFiles?: ReadonlyMap<string, string>;
  /** Runtime registrations (keys and processes); in memory when not given. */
  readonly runtimes?: RuntimeRegistry;
  /** What the self-protection floor protects; computed from the configuration and this process when absent. */
  readonly protection?: ProtectionFacts;
}

/** What the caller's channel was refused (the `CallerRefused` reason), or null when it was not. */
export interface ChannelOutcome { readonly refused: string | null }

export interface UserMessageInput {
  readonly sessionId: string;
  readonly text: string;
  readonly senderId?: string | null;
  readonly platform?: string | null;
  readonly parentSessionId?: string | null;
}

export interface ToolCallInput {
  readonly sessionId: string;
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly callId?: string | null;
  readonly parentSessionId?: string | null;
  /** held: the runtime waits for the human; retry: it blocks and the agent retries after approval. */
  readonly resumption?: 'held' | 'retry';
  readonly caller?: Caller;
  /** The agent's working directory as its runtime reports it (Hermes' TERMINAL_CWD, a hook's `cwd`). */
  readonly cwd?: string | null;
}

export interface OutputInput {
  readonly sessionId: string;
  readonly text: string;
  readonly channel?: string;
}

export interface Projections {
  readonly pendingApprovals: RunningProjection<PendingApprovals>;
  readonly grants: RunningProjection<GrantsState>;
  readonly wouldBlock: RunningProjection<WouldBlockReport>;
  readonly timeline: RunningProjection<SessionTimelines>;
}

export class Gate {
  private readonly sessions: SessionStore;
  private readonly waiters = new ApprovalWaiters();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly configAllowlist: ReadonlySet<string>;
  private readonly settings: GateSettings;
  private readonly protection: ProtectionFacts;
  /** Registered runtimes; the HTTP layer checks request MACs against their keys. */
  readonly runtimes: RuntimeRegistry;
  private lastPosition = 0;
  private closed = false;

  private readonly readScript: ReadFileStart;

  private constructor(private readonly deps: GateDeps, readonly projections: Projections, private readonly stopProjections: () => Promise<void>) {
    const written = deps.writtenFiles;
    this.readScript = written === undefined ? readFileStart : (path) => written.get(path) ?? readFileStart(path);
    this.sessions = new SessionStore(deps.ledger, deps.newId);
    this.runtimes = deps.runtimes ?? RuntimeRegistry.open(null);
    const { approvals } = deps.config;
    this.settings = {
      approvals: { mode: approvals.mode, yolo: approvals.yolo, timeoutSeconds: approvals.timeout, smartModelConfigured: approvals.smart_model !== null },
    };
    // Frozen: every command of this run carries this one object, checked once and recorded once per session.
    this.protection = deepFrozen(deps.protection ?? protectedState(deps.config));
    this.configAllowlist = new Set(approvals.allowlist.map((line) => allowlistKey('terminal', actionFingerprint('terminal', { commandLine: line.trim() }))));
  }

  static async open(deps: GateDeps): Promise<Gate> {
    const host = await startProjections(
      { pendingApprovals, grants, wouldBlock: wouldBlockReport, timeline: sessionTimeline },
      deps.ledger, deps.checkpoints, { checkpointEveryMs: 5000 },
    );
    const gate = new Gate(deps, host.projections, host.stop);
    gate.lastPosition = await deps.ledger.headPosition();
    await gate.caughtUp([host.projections.pendingApprovals, host.projections.grants]);
    if (deps.expiryTimers) gate.scheduleExpiries();
    return gate;
  }

  get ledger(): Ledger { return this.deps.ledger; }
  get config(): TollgateConfig { return this.deps.config; }
  now(): string { return new Date(this.deps.clock()).toISOString(); }

  /** The user's words; only the session's owner may add them (the caller is what the channel proved). */
  async userMessage(input: UserMessageInput, caller: Caller = inProcessCaller): Promise<{ readonly position: number } & ChannelOutcome> {
    const now = this.now();
    const { ref, digest } = await this.deps.payloads.put(input.text, now);
    const done = await this.sessions.execute(input.sessionId, (state) => ({
      type: 'ObserveUserMessage',
      data: { sessionId: input.sessionId, now, textRef: ref, textDigest: digest, length: input.text.length,
        senderId: input.senderId ?? null, platform: input.platform ?? null, parentSessionId: input.parentSessionId ?? null,
        caller, ownerGone: this.ownerGone(state, caller) },
    }));
    this.noteAppended(done.position, done.events);
    return { position: done.position, refused: refusalIn(done.events) };
  }

  /** `POST /v1/runtime/register`: a key for the runtime (returned once, never recorded) and a RuntimeRegistered event. */
  async registerRuntime(input: { readonly runtime: string; readonly pid: number | null }): Promise<Registration> {
    const registration = this.runtimes.register({ registrationId: this.deps.newId(), runtime: input.runtime, pid: input.pid, at: this.now() });
    const { registrationId, runtime, pid, pidStart, at } = registration;
    const keyDigest = keyDigestOf(registration.key);
    const result = await this.deps.ledger.append(registrationsStream, [encodeEvent({ type: 'RuntimeRegistered', data: { registrationId, runtime, pid, pidStart, keyDigest, at } })]);
    this.lastPosition = Math.max(this.lastPosition, result.position);
    return registration;
  }

  async toolCall(input: ToolCallInput): Promise<ToolCallVerdict> {
    const callId = input.callId ?? this.deps.newId();
    try {
      const classified = classifyToolCall(input.tool, input.args, this.deps.analyzeShell, this.shellArguments());
      await this.caughtUp([this.projections.grants]);
      const allowlisted = this.isAllowlisted(input.tool, classified.fingerprint);
      const parentSessionId = input.parentSessionId ?? null;
      const parentKnown = parentSessionId !== null && (await this.sessions.state(parentSessionId)).status === 'open';
      const now = this.now();
      const done = await this.sessions.execute(input.sessionId, (state) => {
        // Variables the terminal exported in earlier calls are known to this line as if assigned before it.
        const env = state.status === 'open' ? state.terminalEnv : undefined;
        const shell = env !== undefined && Object.keys(env).length > 0 && classified.shell !== null
          ? classifyToolCall(input.tool, input.args, (source) => this.deps.analyzeShell(source, env), this.shellArguments()).shell
          : classified.shell;
        // Where the session's terminal is wins over the runtime's report (its process's folder), which only seeds it.
        const cwd = trackedCwd(state, input.cwd ?? null);
        // Symlinks and folders among the call's paths: the file system is read here, before decide, never in it.
        const pathFacts = withTerminalDirs(callPathFacts({ tool: input.tool, args: input.args, shell, cwd }, this.protection),
          input.tool, input.args, shell, this.protection.home, this.protection.hermesHome);
        // The scripts the line runs from disk: one written in an earlier call is judged by its content.
        const scripts = scriptFacts(shell, input.args, cwd, this.protection, this.readScript, input.tool);
        return {
          type: 'ProposeToolCall',
          data: {
            sessionId: input.sessionId, now, callId, tool: input.tool, args: { ...input.args }, fingerprint: classified.fingerprint,
            runsShell: classified.runsShell, shell, parentSessionId, parentKnown, allowlisted,
            settings: this.settings, protection: this.protection, pathFacts, scripts, resumption: input.resumption ?? 'held', approvalId: this.deps.newId(),
            caller: input.caller ?? inProcessCaller,
          },
        };
      });
      this.noteAppended(done.position, done.events);
      return done.events.length === 0
        ? repeatedVerdict(done.state, input.sessionId, callId)
        : toolVerdictFrom(done.events, input.sessionId, callId, done.position);
    } catch (error) {
      return this.failedToolCall(input.sessionId, callId, error);
    }
  }

  async output(input: OutputInput): Promise<OutputVerdict> {
    const outputId = this.deps.newId();
    try {
      const now = this.now();
      const done = await this.sessions.execute(input.sessionId, () => ({
        type: 'ProposeOutput',
        data: { sessionId: input.sessionId, now, outputId, channel: input.channel ?? 'final-reply', textDigest: this.deps.digest(input.text), length: input.text.length },
      }));
      this.noteAppended(done.position, done.events);
      const checked = done.events.find((e) => e.type === 'OutputChecked');
      if (checked?.type !== 'OutputChecked') throw new Error('Assertion failed: no OutputChecked event');
      const { verdict, layer, reasons, message } = checked.data;
      return { verdict, layer, reasons, message, outputId, replacement: verdict === 'allow' ? null : heldReplyNotice, position: done.position };
    } catch (error) {
      await this.recordRejection('output', (error as Error).message, input.sessionId, false);
      return { verdict: 'block', layer: 'input', reasons: ['gate:internal-error'], message: `Held back: the gate failed (${(error as Error).message}).`, outputId, replacement: heldReplyNotice, position: 0 };
    }
  }

  /**
   * A human's answer to a pending question. Unknown or already-closed questions change nothing. `answeredBy` is
   * kept only for in-process callers (eval, tests); for the others the channel names who answered (channelRules.ts).
   */
  async answer(approvalId: string, answer: 'once' | 'session' | 'always' | 'deny', answeredBy: string | null = null,
    caller: Caller = inProcessCaller, surface: string | null = null): Promise<ApprovalResult> {
    await this.caughtUp([this.projections.pendingApprovals]);
    const pending = ownEntry(this.projections.pendingApprovals.view().state, approvalId);
    if (pending === undefined) return { approvalId, outcome: 'unknown', sessionId: null, answer: null };
    const now = this.now();
    const done = await this.sessions.execute(pending.sessionId, () => ({
      type: 'AnswerApproval',
      data: { sessionId: pending.sessionId, now, approvalId, answer, answeredBy, grantId: this.deps.newId(),
        caller, outOfBand: this.deps.config.approvals.out_of_band, surface },
    }));
    this.noteAppended(done.position, done.events);
    const refused = refusalIn(done.events);
    if (refused !== null) return { approvalId, outcome: 'refused', sessionId: pending.sessionId, answer: null, refused };
    return approvalResultFrom(done.events, approvalId, pending.sessionId) ?? { approvalId, outcome: 'unknown', sessionId: pending.sessionId, answer: null };
  }

  /**
   * Takes an `always` answer back: its action leaves the allowlist (AllowlistEntryRevoked, stream `allowlist`).
   * Only the human channel may (channelRules.ts allowlistChangeBy); a refusal is recorded as a rejected request.
   */
  async revokeAllowlistEntry(grantId: string, caller: Caller = inProcessCaller): Promise<{ readonly outcome: 'revoked' | 'unknown' | 'refused'; readonly refused?: string }> {
    const who = allowlistChangeBy(caller, this.deps.config.approvals.out_of_band);
    if ('refused' in who) {
      await this.recordRejection('allowlist:revoke', `${who.refused}: ${caller.kind} may not change the allowlist`, null, false);
      return { outcome: 'refused', refused: who.refused };
    }
    await this.caughtUp([this.projections.grants]);
    const { grants: issued, allowlist } = this.projections.grants.view().state;
    const grant = ownEntry(issued, grantId);
    if (grant === undefined || grant.scope !== 'always' || ownEntry(allowlist, allowlistKey(grant.tool, grant.fingerprint)) !== grantId) return { outcome: 'unknown' };
    const revoked = encodeEvent({ type: 'AllowlistEntryRevoked', data: { tool: grant.tool, fingerprint: grant.fingerprint, revokedBy: who.by, at: this.now() } });
    const result = await this.deps.ledger.append('allowlist', [revoked]);
    this.lastPosition = Math.max(this.lastPosition, result.position);
    return { outcome: 'revoked' };
  }

  /** Waits for a human's answer; when the wait or the question's own timeout ends first, the answer is deny. */
  async waitForAnswer(approvalId: string, timeoutMs: number): Promise<ApprovalResult> {
    await this.caughtUp([this.projections.pendingApprovals]);
    const pending = ownEntry(this.projections.pendingApprovals.view().state, approvalId);
    if (pending === undefined) return { approvalId, outcome: 'unknown', sessionId: null, answer: null };
    return this.waiters.wait(approvalId, timeoutMs, () => ({ approvalId, outcome: 'pending', sessionId: pending.sessionId, answer: null }));
  }

  /** Closes every question whose time ran out (the eval clock calls this when it advances). */
  async expireDue(): Promise<void> {
    await this.caughtUp([this.projections.pendingApprovals]);
    const now = this.deps.clock();
    const due = Object.values(this.projections.pendingApprovals.view().state).filter((p) => Date.parse(p.expiresAt) <= now);
    for (const sessionId of new Set(due.map((p) => p.sessionId))) await this.execute(sessionId, { type: 'ExpireApprovals', data: { sessionId, now: this.now() } });
  }

  async toolResult(input: { sessionId: string; callId: string; tool: string; status: string; durationMs: number | null }): Promise<void> {
    await this.execute(input.sessionId, { type: 'RecordToolResult', data: { ...input, now: this.now() } });
  }

  /** A session the runtime reports without words from the user (session start, a turn Hermes wrote itself). */
  async sessionSeen(input: { sessionId: string; platform?: string | null; parentSessionId?: string | null }, caller: Caller = inProcessCaller): Promise<ChannelOutcome> {
    return this.executeAs(input.sessionId, (state) => ({ type: 'ObserveSession', data: {
      sessionId: input.sessionId, now: this.now(), platform: input.platform ?? null, parentSessionId: input.parentSessionId ?? null,
      caller, ownerGone: this.ownerGone(state, caller),
    } }));
  }

  /** Hermes' subagent_start: the child's session opens linked to its parent, if the gate knows the parent. */
  async subagentStarted(input: { childSessionId: string; parentSessionId: string; role?: string | null }, caller: Caller = inProcessCaller): Promise<{ readonly linked: boolean } & ChannelOutcome> {
    const parent = await this.sessions.state(input.parentSessionId);
    const parentKnown = parent.status === 'open';
    const done = await this.sessions.execute(input.childSessionId, () => ({
      type: 'StartSubagent',
      data: { sessionId: input.childSessionId, now: this.now(), parentSessionId: input.parentSessionId, parentKnown, role: input.role ?? null,
        caller, parentOwner: ownerOf(parent) },
    }));
    this.noteAppended(done.position, done.events);
    const refused = refusalIn(done.events);
    return { linked: refused === null && done.state.status === 'open' && parentKnown, refused };
  }

  /** Ends (or resets) a session; only its owner may. */
  async endSession(sessionId: string, caller: Caller = inProcessCaller): Promise<ChannelOutcome> {
    return this.executeAs(sessionId, (state) => ({ type: 'EndSession', data: { sessionId, now: this.now(), caller, ownerGone: this.ownerGone(state, caller) } }));
  }

  /** Records a request the daemon could not accept (bad JSON, unknown hook, wrong types, too large). */
  async recordRejection(endpoint: string, problem: string, sessionId: string | null, toolCall: boolean): Promise<void> {
    try {
      const rejected = encodeEvent({ type: 'RequestRejected', data: { endpoint, problem: problem.slice(0, 2000), sessionId, toolCall, at: this.now() } });
      const result = await this.deps.ledger.append('ops-daemon', [rejected]);
      this.lastPosition = Math.max(this.lastPosition, result.position);
    } catch {
      // The ledger itself is failing; the caller already answers with a block.
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.waiters.closeAll();
    await this.stopProjections();
  }

  private async execute(sessionId: string, command: SessionCommand): Promise<void> {
    const done = await this.sessions.execute(sessionId, () => command);
    this.noteAppended(done.position, done.events);
  }

  private async executeAs(sessionId: string, build: (state: SessionState) => SessionCommand): Promise<ChannelOutcome> {
    const done = await this.sessions.execute(sessionId, build);
    this.noteAppended(done.position, done.events);
    return { refused: refusalIn(done.events) };
  }

  /** For a registered caller that is not the session's owner: whether the owner's process is known to be gone. */
  private ownerGone(state: SessionState, caller: Caller): boolean {
    if (caller.kind !== 'runtime' || caller.registrationId === null) return false;
    const owner = ownerOf(state);
    return typeof owner === 'string' && owner !== caller.registrationId && this.runtimes.isGone(owner);
  }

  private async failedToolCall(sessionId: string, callId: string, error: unknown): Promise<ToolCallVerdict> {
    const problem = error instanceof Error ? error.message : String(error);
    await this.recordRejection('tool-call', problem, sessionId, true);
    return failClosed(sessionId, callId, 'gate:internal-error', `Blocked: the gate could not decide (${problem}), and it never allows what it could not check.`);
  }

  private isAllowlisted(tool: string, fingerprint: string): boolean {
    const key = allowlistKey(tool, fingerprint);
    return this.configAllowlist.has(key) || Object.hasOwn(this.projections.grants.view().state.allowlist, key);
  }

  private shellArguments(): Record<string, string> {
    const mapped: Record<string, string> = {};
    for (const [tool, mapping] of Object.entries(this.deps.config.tools)) if (mapping.shell_arg) mapped[tool] = mapping.shell_arg;
    return mapped;
  }

  /** The hot path reads projections only after they have folded everything this gate appended. */
  private async caughtUp(projections: readonly RunningProjection<unknown>[]): Promise<void> {
    for (const projection of projections) {
      const failure = projection.failure();
      if (failure) throw new Error(`projection ${projection.name} failed: ${failure.message}`);
      if (projection.view().position < this.lastPosition) await projection.reached(this.lastPosition);
    }
  }

  private noteAppended(position: number, events: readonly TollgateEvent[]): void {
    if (position > this.lastPosition) this.lastPosition = position;
    for (const e of events) {
      if (e.type === 'ApprovalAnswered' || e.type === 'ApprovalExpired') {
        this.clearTimer(e.data.approvalId);
        const result = approvalResultFrom([e], e.data.approvalId, e.data.sessionId);
        if (result) this.waiters.settle(e.data.approvalId, result);
      }
      if (e.type === 'ApprovalRequested' && this.deps.expiryTimers) this.scheduleExpiry(e.data.approvalId, e.data.sessionId, e.data.expiresAt);
    }
  }

  private scheduleExpiries(): void {
    for (const p of Object.values(this.projections.pendingApprovals.view().state)) this.scheduleExpiry(p.approvalId, p.sessionId, p.expiresAt);
  }

  private scheduleExpiry(approvalId: string, sessionId: string, expiresAt: string): void {
    const delay = Math.max(0, Date.parse(expiresAt) - this.deps.clock()) + 5;
    const timer = setTimeout(() => {
      this.timers.delete(approvalId);
      if (this.closed) return;
      void this.execute(sessionId, { type: 'ExpireApprovals', data: { sessionId, now: this.now() } }).catch(() => undefined);
    }, Math.min(delay, 2_147_000_000));
    timer.unref();
    this.timers.set(approvalId, timer);
  }

  private clearTimer(approvalId: string): void {
    const timer = this.timers.get(approvalId);
    if (timer) { clearTimeout(timer); this.timers.delete(approvalId); }
  }
}

/** The session's terminal directory when a call moved it (null: unknown), else the runtime's reported cwd. */
const trackedCwd = (state: SessionState, reported: string | null): string | null =>
  state.status === 'open' && state.terminalCwd !== undefined ? state.terminalCwd : reported;

/**
 * Which of a moving terminal call's start and `cd` targets exist as folders (a `cd` into a missing one fails),
 * and where they really are (Hermes records `pwd -P`, so the terminal ends up behind any symlink).
 */
const withTerminalDirs = (facts: CallPathFacts, tool: string, args: Readonly<Record<string, unknown>>, shell: ShellAnalysis | null, home: string | null, hermesHome: string | null): CallPathFacts => {
  if (tool !== terminalTool || !movesTerminal(args, shell)) return facts;
  const start = callStart(args['workdir'], facts.cwd, home);
  const dirs = new Set(facts.dirs);
  const links = { ...facts.links };
  for (const path of [...(start === null ? [] : [start]), ...cdTargets(shell, start, home, hermesHome)]) {
    const real = realFolder(path);
    if (real === null) continue;
    dirs.add(path);
    if (real !== path) links[path] = real;
  }
  return { ...facts, links, dirs: [...dirs] };
};

const realFolder = (path: string): string | null => {
  try {
    return statSync(path).isDirectory() ? realpathSync.native(path) : null;
  } catch {
    return null;
  }
};

const toolVerdictFrom = (events: readonly TollgateEvent[], sessionId: string, callId: string, position: number): ToolCallVerdict => {
  const decided = events.find((e) => e.type === 'ToolCallDecided');
  if (decided?.type !== 'ToolCallDecided') throw new Error('Assertion failed: no ToolCallDecided event');
  const requested = events.find((e) => e.type === 'ApprovalRequested');
  const d = decided.data;
  return {
    verdict: d.verdict, layer: d.layer, reasons: d.reasons, message: d.message, callId, sessionId,
    approvalId: d.approvalId, expiresAt: requested?.type === 'ApprovalRequested' ? requested.data.expiresAt : null,
    wouldBlock: d.wouldBlock.map((w) => ({ layer: w.layer, reasons: w.reasons })), position,
  };
};

/** The answer a call already has (it was asked again): the recorded decision, settled by any human answer since. */
const repeatedVerdict = (state: SessionState, sessionId: string, callId: string): ToolCallVerdict => {
  const earlier = state.status === 'open' ? state.recentDecisions.find((d) => d.callId === callId) : undefined;
  if (earlier === undefined || state.status !== 'open') throw new Error('Assertion failed: a call that decided nothing has no earlier decision');
  const pending = earlier.approvalId === null ? undefined : ownEntry(state.pending, earlier.approvalId);
  return {
    verdict: earlier.verdict, layer: earlier.layer, reasons: [...earlier.reasons, 'input:same-call-again'],
    message: earlier.message, callId, sessionId, approvalId: earlier.verdict === 'ask' ? earlier.approvalId : null,
    expiresAt: pending?.expiresAt ?? null, wouldBlock: [], position: 0,
  };
};

const refusalIn = (events: readonly TollgateEvent[]): string | null => {
  for (const e of events) if (e.type === 'CallerRefused') return e.data.reason;
  return null;
};

const approvalResultFrom = (events: readonly TollgateEvent[], approvalId: string, sessionId: string): ApprovalResult | null => {
  for (const e of events) {
    if (e.type === 'ApprovalAnswered' && e.data.approvalId === approvalId)
      return { approvalId, outcome: e.data.callAllowed ? 'allowed' : 'denied', sessionId, answer: e.data.answer };
    if (e.type === 'ApprovalExpired' && e.data.approvalId === approvalId)
      return { approvalId, outcome: 'expired', sessionId, answer: null };
  }
  return null;
};
