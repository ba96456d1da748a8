/**
 * Commands to a session: what the runtime asks the gate. Each carries everything its decision needs — the
 * clock reading (`now`), ids minted outside, the classified action, the settings in force — so `decide`
 * stays pure and a recorded command re-derives the same events on replay.
 */
import { z } from 'zod';
import { approvalAnswerSchema, instantSchema, resumptionSchema, shellAnalysisSchema } from '../events/schemas.ts';
import { protectionFactsSchema } from '../gate/selfProtection/protectionFacts.ts';
import { callPathFactsSchema } from '../gate/selfProtection/callPathFacts.ts';
import { scriptFactsSchema } from '../gate/selfProtection/scriptFacts.ts';
import { callerSchema } from './caller.ts';

export const gateSettingsSchema = z.object({
  approvals: z.object({
    mode: z.enum(['manual', 'smart', 'off']),
    yolo: z.boolean(),
    /** How long a human has to answer; then the question counts as denied. */
    timeoutSeconds: z.number().positive(),
    /** Whether a model is configured for smart approvals; without one smart escalates to manual. */
    smartModelConfigured: z.boolean(),
  }),
});
export type GateSettings = z.infer<typeof gateSettingsSchema>;

const sessionRef = { sessionId: z.string().min(1), now: instantSchema };

/**
 * Who sent the command (as the channel proved it; absent in commands recorded before callers existed, which
 * replay as in-process) and, for a registered caller that is not the session's owner, whether the owner's process
 * is gone (computed outside: /proc start time), which lets it claim the session. See channelRules.ts.
 */
const channelRef = { caller: callerSchema.optional(), ownerGone: z.boolean().optional() };

export const observeUserMessageSchema = z.object({
  type: z.literal('ObserveUserMessage'),
  data: z.object({
    ...sessionRef,
    textRef: z.string(),
    textDigest: z.string(),
    length: z.number().int().nonnegative(),
    senderId: z.string().nullable(),
    platform: z.string().nullable(),
    parentSessionId: z.string().nullable(),
    ...channelRef,
  }),
});

export const proposeToolCallSchema = z.object({
  type: z.literal('ProposeToolCall'),
  data: z.object({
    ...sessionRef,
    callId: z.string().min(1),
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
    fingerprint: z.string(),
    /** Whether the tool runs a shell command line (terminal, mapped tools, visible shell-outs). */
    runsShell: z.boolean(),
    /** The parsed command line, for tools that run one (null when the line is missing). */
    shell: shellAnalysisSchema.nullable(),
    /** A subagent's call: the session that started it, and whether that session is known to the gate. */
    parentSessionId: z.string().nullable(),
    parentKnown: z.boolean(),
    /** Whether the action's fingerprint is on the allowlist (config or an earlier "always"). */
    allowlisted: z.boolean(),
    settings: gateSettingsSchema,
    /** Protected paths, homes, the daemon's pid and port, computed at gate open (absent in older ledgers). */
    protection: protectionFactsSchema.optional(),
    /** The agent's working directory, symlinks and folders among the call's paths (absent in older ledgers). */
    pathFacts: callPathFactsSchema.optional(),
    /** The scripts the command line runs from disk, read before decide (absent in older ledgers). */
    scripts: scriptFactsSchema.optional(),
    resumption: resumptionSchema,
    /** Id to give the approval request, should the decision be to ask. */
    approvalId: z.string().min(1),
    /** Any runtime caller may propose a call; a subagent session its first call opens is owned by this caller. */
    caller: callerSchema.optional(),
  }),
});

export const proposeOutputSchema = z.object({
  type: z.literal('ProposeOutput'),
  data: z.object({
    ...sessionRef,
    outputId: z.string().min(1),
    channel: z.string(),
    textDigest: z.string(),
    length: z.number().int().nonnegative(),
  }),
});

export const answerApprovalSchema = z.object({
  type: z.literal('AnswerApproval'),
  data: z.object({
    ...sessionRef,
    approvalId: z.string().min(1),
    answer: approvalAnswerSchema,
    answeredBy: z.string().nullable(),
    /** Id for the grant a once (retrying runtimes), session or always answer issues. */
    grantId: z.string().min(1),
    caller: callerSchema.optional(),
    /** `approvals.out_of_band`: whether answers from unregistered callers are accepted (recorded as out-of-band). */
    outOfBand: z.boolean().optional(),
    /** The runtime's prompt the owner relayed the answer from (e.g. `hermes-cli`), recorded in answeredBy. */
    surface: z.string().nullable().optional(),
  }),
});

export const expireApprovalsSchema = z.object({
  type: z.literal('ExpireApprovals'),
  data: z.object({ ...sessionRef }),
});

export const recordToolResultSchema = z.object({
  type: z.literal('RecordToolResult'),
  data: z.object({
    ...sessionRef,
    callId: z.string(),
    tool: z.string(),
    status: z.string(),
    durationMs: z.number().nullable(),
  }),
});

/**
 * The runtime reports a session without words from the user in it (a session start, a turn Hermes wrote itself,
 * a cron run, a message that was only an attachment): the session exists, but nothing was said in it.
 */
export const observeSessionSchema = z.object({
  type: z.literal('ObserveSession'),
  data: z.object({
    ...sessionRef,
    platform: z.string().nullable(),
    parentSessionId: z.string().nullable(),
    ...channelRef,
  }),
});

/** A subagent (Hermes delegate_task) starts: its session opens linked to the parent that started it. */
export const startSubagentSchema = z.object({
  type: z.literal('StartSubagent'),
  data: z.object({
    ...sessionRef,
    parentSessionId: z.string().min(1),
    parentKnown: z.boolean(),
    role: z.string().nullable(),
    caller: callerSchema.optional(),
    /** The parent session's owner (a registration id, null for anonymous), read by the gate; only it may start children. */
    parentOwner: z.string().nullable().optional(),
  }),
});

export const endSessionSchema = z.object({
  type: z.literal('EndSession'),
  data: z.object({ ...sessionRef, ...channelRef }),
});

export const sessionCommandSchema = z.discriminatedUnion('type', [
  observeUserMessageSchema, proposeToolCallSchema, proposeOutputSchema, answerApprovalSchema,
  expireApprovalsSchema, recordToolResultSchema, observeSessionSchema, startSubagentSchema, endSessionSchema,
]);

export type SessionCommand = z.infer<typeof sessionCommandSchema>;
export type CommandOf<T extends SessionCommand['type']> = Extract<SessionCommand, { type: T }>;
export type ObserveUserMessage = CommandOf<'ObserveUserMessage'>;
export type ProposeToolCall = CommandOf<'ProposeToolCall'>;
export type ProposeOutput = CommandOf<'ProposeOutput'>;
export type AnswerApproval = CommandOf<'AnswerApproval'>;
export type ExpireApprovals = CommandOf<'ExpireApprovals'>;
export type RecordToolResult = CommandOf<'RecordToolResult'>;
export type EndSession = CommandOf<'EndSession'>;
export type StartSubagent = CommandOf<'StartSubagent'>;
export type ObserveSession = CommandOf<'ObserveSession'>;
