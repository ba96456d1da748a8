/**
 * Scenario files, format 1 (see docs/scenario-format.md): JSON Lines of short scripted sessions. Validation is
 * strict so that a typo in someone's scenario ("expct") is an error with its line, not a silently passing step.
 */
import { z } from 'zod';
import { parseDurationMs } from '../config/duration.ts';

const expectation = z.enum(['allow', 'block', 'ask', 'deny']);
const sessionId = z.string().min(1).max(128);

const userStep = z.strictObject({ user: z.string(), sender: z.string().optional(), session: sessionId.optional() });
const toolStep = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
  session: sessionId.optional(),
  parent: sessionId.optional(),
  /** The agent's working directory, as a runtime reports it; relative to the folder eval runs in ('.' is that folder). */
  cwd: z.string().optional(),
  expect: expectation.optional(),
  reason: z.string().optional(),
});
const replyStep = z.strictObject({ reply: z.string(), expect: expectation.optional(), reason: z.string().optional() });
const approveStep = z.strictObject({ approve: z.enum(['once', 'session', 'always', 'deny']) });
const parallelStep = z.strictObject({ parallel: z.array(toolStep).min(1) });
const restartStep = z.strictObject({ restart: z.literal(true) });
const advanceStep = z.strictObject({
  advance: z.string().refine((text) => { try { parseDurationMs(text); return true; } catch { return false; } },
    { message: 'must be a duration such as 90s, 30m, 13h or 31d' }),
});

const stepKinds = ['user', 'tool', 'reply', 'approve', 'parallel', 'restart', 'advance'] as const;
const stepSchemas = { user: userStep, tool: toolStep, reply: replyStep, approve: approveStep, parallel: parallelStep, restart: restartStep, advance: advanceStep };

/** A step is exactly one of the step kinds; which one decides the schema its other fields must follow. */
const step = z.unknown().transform((value, ctx) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    ctx.addIssue({ code: 'custom', message: 'a step must be an object' });
    return z.NEVER;
  }
  const kinds = stepKinds.filter((k) => k in value);
  if (kinds.length !== 1) {
    ctx.addIssue({ code: 'custom', message: kinds.length === 0 ? `a step needs one of: ${stepKinds.join(', ')}` : `a step has one kind, this one has ${kinds.join(' and ')}` });
    return z.NEVER;
  }
  const kind = kinds[0]!;
  const parsed = stepSchemas[kind].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  return { kind, ...parsed.data } as ScenarioStep;
});

const isRelativeInside = (p: string): boolean => p.length > 0 && !p.startsWith('/') && !p.split(/[\\/]/).includes('..');
const relativePath = z.string().refine(isRelativeInside, { message: 'must be a relative path without ..' });
/** path → text; every path must stay inside the scenario's home folder. */
const fileMap = z.record(z.string(), z.string()).superRefine((files, ctx) => {
  for (const path of Object.keys(files))
    if (!isRelativeInside(path)) ctx.addIssue({ code: 'custom', path: [path], message: `"${path}" must be a relative path without ..` });
});

export const scenarioSchema = z.strictObject({
  id: z.string().min(1),
  about: z.string().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  session: z.strictObject({
    id: sessionId.default('main'),
    platform: z.string().default('cli'),
    owner: z.string().optional(),
    chat: z.enum(['dm', 'group']).optional(),
  }).prefault({}),
  files: fileMap.default({}),
  repos: z.record(z.string(), relativePath).default({}),
  steps: z.array(step).min(1),
});

export type ToolStep = z.output<typeof toolStep> & { kind: 'tool' };
export type ScenarioStep =
  | (z.output<typeof userStep> & { kind: 'user' })
  | ToolStep
  | (z.output<typeof replyStep> & { kind: 'reply' })
  | (z.output<typeof approveStep> & { kind: 'approve' })
  | (z.output<typeof parallelStep> & { kind: 'parallel' })
  | (z.output<typeof restartStep> & { kind: 'restart' })
  | (z.output<typeof advanceStep> & { kind: 'advance' });
export type Scenario = Omit<z.output<typeof scenarioSchema>, 'steps'> & { steps: ScenarioStep[] };
export type Expectation = z.output<typeof expectation>;
