/** Schemas shared by several events and commands. */
import { z } from 'zod';

export const verdictSchema = z.enum(['allow', 'ask', 'block']);
export const guardModeSchema = z.enum(['enforce', 'observe']);
export const layerNameSchema = z.enum([
  'gate', 'input', 'session', 'parse', 'hardline', 'self-protection', 'prohibitions', 'policy', 'provenance', 'leak', 'approvals',
]);
export const approvalAnswerSchema = z.enum(['once', 'session', 'always', 'deny']);
/** How a runtime resumes an asked call: it holds the call until the answer, or it blocks and the agent retries. */
export const resumptionSchema = z.enum(['held', 'retry']);

export const ruleHitSchema = z.object({ ruleId: z.string(), reason: z.string(), command: z.string() });

/** Every field the analyzer fills must be here, or the ledger would keep (and replay judge) a poorer command. */
export const simpleCommandSchema = z.object({
  program: z.string(),
  programPath: z.string(),
  args: z.array(z.string()).readonly(),
  redirects: z.array(z.object({ op: z.string(), target: z.string() })).readonly(),
  pipedFrom: z.array(z.string()).readonly(),
  via: z.array(z.string()).readonly(),
  text: z.string(),
  stdin: z.string().optional(),
  background: z.boolean().optional(),
  cwd: z.string().optional(),
});

export const shellAnalysisSchema = z.object({
  source: z.string(),
  parsed: z.boolean(),
  problems: z.array(z.string()).readonly(),
  commands: z.array(simpleCommandSchema).readonly(),
  exports: z.record(z.string(), z.string().nullable()).optional(),
  touched: z.array(z.string()).readonly().optional(),
  unsets: z.array(z.string()).readonly().optional(),
  readonly: z.array(z.string()).readonly().optional(),
  walked: z.object({ touched: z.array(z.string()).readonly(), exported: z.array(z.string()).readonly() }).optional(),
});

export const layerVerdictSchema = z.object({
  layer: layerNameSchema,
  verdict: verdictSchema,
  reasons: z.array(z.string()),
  message: z.string(),
  mode: guardModeSchema,
});

/** ISO-8601 instant as the command's clock reading; decisions never read a clock of their own. */
export const instantSchema = z.iso.datetime({ offset: true });
