/**
 * The configuration file, validated with zod. Every key has a safe default, so an empty file is a complete
 * configuration. Keys are snake_case as users write them in YAML; unknown keys are errors, not ignored.
 */
import { z } from 'zod';
import { parseDurationMs } from './duration.ts';

const duration = z.union([z.number(), z.string()]).transform((value, ctx) => {
  try { return parseDurationMs(value) / 1000; } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
const guardMode = z.enum(['enforce', 'observe']);

export const configSchema = z.strictObject({
  ledger: z.strictObject({
    /** sqlite:PATH (embedded, default), memory:, postgres://…, kurrentdb://… */
    url: z.string().default('sqlite:./data/ledger.db'),
  }).prefault({}),
  data: z.strictObject({
    /** Keys, the payload store, projection checkpoints and the socket live here. */
    dir: z.string().default('./data'),
  }).prefault({}),
  server: z.strictObject({
    /** Unix socket path; created with mode 0600. */
    socket: z.string().default('./data/tollgate.sock'),
    /** The human channel: a second Unix socket for approval answers (null: none). See docs/architecture.md. */
    human_socket: z.string().nullable().default(null),
    /** Group allowed into the human socket's directory (dir 0750, socket 0660); null: the daemon's user only. */
    human_group: z.string().nullable().default(null),
    /** Mode of the socket file. 0666 lets another user's runtime connect (the separate-principal setup, `install system`). */
    socket_mode: z.enum(['0600', '0660', '0666']).default('0600'),
    http: z.strictObject({
      enabled: z.boolean().default(false),
      /** Loopback only: the daemon refuses any other address. */
      host: z.string().default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(8787),
      /** File holding the bearer token; created (mode 0600) when missing. */
      token_file: z.string().default('./data/http-token'),
    }).prefault({}),
    /** Largest accepted request body. */
    max_body_bytes: z.number().int().positive().default(1_048_576),
    /** A decision that takes longer than this is answered with a block. */
    decision_timeout: duration.default(5),
    /** Made-up calls answered on a throwaway in-memory gate before the daemon listens (ops/runtime/warmUp.ts); 0: none. */
    warm_up_calls: z.number().int().min(0).max(100_000).default(2000),
  }).prefault({}),
  compiler: z.strictObject({ provider: z.enum(['rules', 'openai']).default('rules') }).prefault({}),
  fence: z.strictObject({ mode: guardMode.default('enforce') }).prefault({}),
  approvals: z.strictObject({
    mode: z.enum(['manual', 'smart', 'off']).default('manual'),
    /** Auto-approve what would ask; never lifts a block. */
    yolo: z.boolean().default(false),
    /** How long a human has to answer; then the question counts as denied. */
    timeout: duration.default(60),
    /** Exact command lines (terminal) approved in every session. */
    allowlist: z.array(z.string()).default([]),
    /** Model for smart mode; without one smart escalates to manual. */
    smart_model: z.string().nullable().default(null),
    /** Accept answers that do not come through the runtime's own prompt or the human socket (recorded as out-of-band). */
    out_of_band: z.boolean().default(false),
  }).prefault({}),
  provenance: z.strictObject({
    mode: z.enum(['observe', 'block']).default('observe'),
    search: z.array(z.string()).default([]),
    scope: z.string().default('session'),
    retention_days: z.number().int().positive().default(30),
  }).prefault({}),
  leak: z.strictObject({
    mode: guardMode.default('observe'),
    repos: z.record(z.string(), z.string()).default({}),
    k: z.number().int().positive().default(15),
    w: z.number().int().positive().default(6),
    min_hits: z.number().int().positive().default(3),
  }).prefault({}),
  drift: z.strictObject({
    schedule: z.string().default('0 * * * *'),
    watch: z.array(z.string()).default([]),
  }).prefault({}),
  retention: z.strictObject({
    /** Raw user text older than this is deleted from the payload store (the ledger keeps its digest). */
    raw_text_days: z.number().int().positive().default(30),
    schedule: z.string().default('17 3 * * *'),
  }).prefault({}),
  protection: z.strictObject({
    /** File names no tool may write, in any folder (e.g. AGENTS.md, SOUL.md, CLAUDE.md). */
    rules_files: z.array(z.string().min(1)).default([]),
    /** Extra paths (files or folders) no tool may write. */
    paths: z.array(z.string().min(1)).default([]),
    /** Hermes homes besides $HERMES_HOME and ~/.hermes (their profiles are found by themselves). */
    hermes_homes: z.array(z.string().min(1)).default([]),
  }).prefault({}),
  /** Per-tool mappings: `shell_arg` names the argument holding a shell command line. */
  tools: z.record(z.string(), z.strictObject({ shell_arg: z.string().optional() })).default({}),
});

export type TollgateConfig = z.output<typeof configSchema>;
export type TollgateConfigInput = z.input<typeof configSchema>;
