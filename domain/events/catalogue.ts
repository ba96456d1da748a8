/**
 * The event catalogue: every fact tollgate records, named in the past tense, with a versioned schema.
 * Adding a field is a new version with an upcaster from the previous one; stored events are never rewritten.
 */
import { z } from 'zod';
import { eventType } from './eventType.ts';
import {
  approvalAnswerSchema, guardModeSchema, instantSchema, layerNameSchema, layerVerdictSchema, resumptionSchema,
  ruleHitSchema, shellAnalysisSchema, verdictSchema,
} from './schemas.ts';

export const SessionStarted = eventType('SessionStarted', z.object({
  sessionId: z.string(),
  platform: z.string().nullable(),
  parentSessionId: z.string().nullable(),
  /** The runtime registration that opened the session (only it may add words, answer, end); null: anonymous. */
  owner: z.string().nullable(),
  at: instantSchema,
}), { version: 2, upcasters: [{ from: 1, up: (data) => ({ ...(data as object), owner: null }) }] });

/** A runtime registered with the daemon (`POST /v1/runtime/register`); its key is never recorded. */
export const RuntimeRegistered = eventType('RuntimeRegistered', z.object({
  registrationId: z.string(),
  runtime: z.string(),
  pid: z.number().int().nullable(),
  /** The process's start time (/proc/<pid>/stat field 22), null where the platform does not say. */
  pidStart: z.string().nullable(),
  /**
   * SHA-256 of the registration's key (hex): commits the ledger to the key without holding it, so a daemon that
   * restarts keeps only registrations whose stored key is the one it handed out. Absent in older ledgers.
   */
  keyDigest: z.string().regex(/^[0-9a-f]{64}$/).optional(),
  at: instantSchema,
}));

/** A stored registration the restarted daemon would not take back: unknown to the ledger, or a changed key or process. */
export const RegistrationDropped = eventType('RegistrationDropped', z.object({
  registrationId: z.string(),
  problem: z.string(),
  at: instantSchema,
}));

/** A new registration took over a session whose owner's process is gone (Hermes restarted with --resume). */
export const SessionClaimed = eventType('SessionClaimed', z.object({
  sessionId: z.string(),
  from: z.string(),
  to: z.string(),
  at: instantSchema,
}));

/** A command the caller's channel may not give in this session (not its owner, an out-of-band answer, ...). */
export const CallerRefused = eventType('CallerRefused', z.object({
  sessionId: z.string(),
  command: z.string(),
  caller: z.string(),
  reason: z.string(),
  at: instantSchema,
}));

export const UserMessageReceived = eventType('UserMessageReceived', z.object({
  sessionId: z.string(),
  /** Key of the raw text in the deletable payload store. */
  textRef: z.string(),
  /** HMAC-SHA256 of the raw text: proves what was said without keeping it in the ledger. */
  textDigest: z.string(),
  length: z.number().int().nonnegative(),
  senderId: z.string().nullable(),
  platform: z.string().nullable(),
  at: instantSchema,
}));

export const ToolCallDecided = eventType('ToolCallDecided', z.object({
  sessionId: z.string(),
  callId: z.string(),
  tool: z.string(),
  args: z.record(z.string(), z.unknown()),
  /** Identity of the action for grants: same tool and same fingerprint is the same action. */
  fingerprint: z.string(),
  shell: shellAnalysisSchema.nullable(),
  verdict: verdictSchema,
  /** The layer whose verdict stood (the most restrictive; the earliest among equals). */
  layer: layerNameSchema,
  reasons: z.array(z.string()),
  message: z.string(),
  mode: guardModeSchema,
  /** Verdicts of layers in observe mode that would have stopped the call. */
  wouldBlock: z.array(layerVerdictSchema),
  approvalId: z.string().nullable(),
  /** The grant that let a dangerous action through, when one did. */
  grantId: z.string().nullable(),
  /**
   * A terminal call that moves the shell (`cd`, `workdir`) and may run: the directory it leaves the session's
   * terminal in, null when that is unknown (domain/session/terminalDirectory.ts). Absent: the directory stays.
   */
  terminalCwd: z.string().nullable().optional(),
  at: instantSchema,
}));

export const ApprovalRequested = eventType('ApprovalRequested', z.object({
  sessionId: z.string(),
  approvalId: z.string(),
  callId: z.string(),
  tool: z.string(),
  fingerprint: z.string(),
  summary: z.string(),
  hits: z.array(ruleHitSchema),
  resumption: resumptionSchema,
  expiresAt: instantSchema,
  at: instantSchema,
}));

export const ApprovalAnswered = eventType('ApprovalAnswered', z.object({
  sessionId: z.string(),
  approvalId: z.string(),
  callId: z.string(),
  answer: approvalAnswerSchema,
  /** Whether the call that was asked about may run now (held calls) — false for deny. */
  callAllowed: z.boolean(),
  answeredBy: z.string().nullable(),
  at: instantSchema,
}));

export const ApprovalExpired = eventType('ApprovalExpired', z.object({
  sessionId: z.string(),
  approvalId: z.string(),
  callId: z.string(),
  at: instantSchema,
}));

export const GrantIssued = eventType('GrantIssued', z.object({
  sessionId: z.string(),
  grantId: z.string(),
  approvalId: z.string(),
  /** once: the next identical call (retrying runtimes); session: this session; always: every session. */
  scope: z.enum(['once', 'session', 'always']),
  tool: z.string(),
  fingerprint: z.string(),
  /** The command or action, for people reviewing the allowlist. */
  summary: z.string(),
  at: instantSchema,
}));

export const GrantConsumed = eventType('GrantConsumed', z.object({
  sessionId: z.string(),
  grantId: z.string(),
  callId: z.string(),
  at: instantSchema,
}));

export const AllowlistEntryRevoked = eventType('AllowlistEntryRevoked', z.object({
  tool: z.string(),
  fingerprint: z.string(),
  revokedBy: z.string().nullable(),
  at: instantSchema,
}));

export const OutputChecked = eventType('OutputChecked', z.object({
  sessionId: z.string(),
  outputId: z.string(),
  /** Where the text was leaving: the final reply or another exit. */
  channel: z.string(),
  textDigest: z.string(),
  length: z.number().int().nonnegative(),
  verdict: verdictSchema,
  layer: layerNameSchema,
  reasons: z.array(z.string()),
  message: z.string(),
  wouldBlock: z.array(layerVerdictSchema),
  at: instantSchema,
}));

export const ToolCallCompleted = eventType('ToolCallCompleted', z.object({
  sessionId: z.string(),
  callId: z.string(),
  tool: z.string(),
  status: z.string(),
  durationMs: z.number().nullable(),
  at: instantSchema,
}));

export const SessionEnded = eventType('SessionEnded', z.object({
  sessionId: z.string(),
  at: instantSchema,
}));

/** A request the daemon could not accept: what was wrong and where. For tool calls the answer was block. */
export const RequestRejected = eventType('RequestRejected', z.object({
  endpoint: z.string(),
  problem: z.string(),
  sessionId: z.string().nullable(),
  toolCall: z.boolean(),
  at: instantSchema,
}));

export const RawTextPurged = eventType('RawTextPurged', z.object({
  refs: z.array(z.string()),
  olderThan: instantSchema,
  at: instantSchema,
}));

/**
 * The configuration a daemon started with, one event per start on stream `config`: a digest of all of it and the
 * settings that loosen or tighten the guard, so a changed `yolo` shows in the ledger and in `doctor`.
 */
export const ConfigLoaded = eventType('ConfigLoaded', z.object({
  /** SHA-256 (hex) of the canonical JSON of the validated configuration, defaults filled in. */
  digest: z.string(),
  /** The file it was read from (absolute), or null when the built-in defaults were used. */
  path: z.string().nullable(),
  tollgateVersion: z.string(),
  settings: z.object({
    approvalsMode: z.string(),
    yolo: z.boolean(),
    /** null when this tollgate has no approvals.out_of_band key. */
    outOfBand: z.boolean().nullable(),
    timeoutSeconds: z.number(),
    allowlistLength: z.number().int().nonnegative(),
    /** fence, leak, provenance: enforce/block or observe. */
    guardModes: z.record(z.string(), z.string()),
    /** The ledger URL's scheme (sqlite, memory, …), not the URL: paths may carry credentials. */
    ledgerKind: z.string(),
    socket: z.string(),
    humanSocket: z.string().nullable(),
    /** What the self-protection floor covers beyond its built-in paths (protection.*). */
    protection: z.object({ rulesFiles: z.array(z.string()), paths: z.array(z.string()), hermesHomes: z.array(z.string()) }),
  }),
  at: instantSchema,
}));

/** A projection checkpoint the daemon refused (no MAC, a wrong MAC, unreadable); that projection was rebuilt. */
export const CheckpointRejected = eventType('CheckpointRejected', z.object({
  projection: z.string(),
  problem: z.string(),
  at: instantSchema,
}));

export const catalogue = [
  SessionStarted, UserMessageReceived, ToolCallDecided, ApprovalRequested, ApprovalAnswered, ApprovalExpired,
  GrantIssued, GrantConsumed, AllowlistEntryRevoked, OutputChecked, ToolCallCompleted, SessionEnded,
  RequestRejected, RawTextPurged, ConfigLoaded, CheckpointRejected, RuntimeRegistered, RegistrationDropped, SessionClaimed, CallerRefused,
] as const;

type Catalogue = (typeof catalogue)[number];
export type EventName = Catalogue['type'];
export type EventData<N extends EventName> = z.infer<Extract<Catalogue, { type: N }>['schema']>;
/** Any event of the catalogue as a tagged union. */
export type TollgateEvent = { [N in EventName]: { readonly type: N; readonly data: EventData<N> } }[EventName];
export type EventOf<N extends EventName> = Extract<TollgateEvent, { type: N }>;

export const event = <N extends EventName>(type: N, data: EventData<N>): EventOf<N> => ({ type, data }) as EventOf<N>;
