/** JSON text to a validated value: bad JSON and schema mismatches become problems naming the field path. */
import type { z } from 'zod';
import { HttpProblem } from './httpProblem.ts';

export const parseJson = (text: string): unknown => {
  if (text.trim() === '') throw new HttpProblem(400, 'bad-json', 'The request body is empty; a JSON object was expected.', 'body');
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpProblem(400, 'bad-json', `The request body is not valid JSON: ${(error as Error).message}.`, 'body');
  }
};

/** The dotted path of a zod issue (`args.command`, `tasks[2].goal`); `body` for the top level. */
/** Body fields are named bare (`args.command`); other parts carry their root (`query.timeout_ms`). */
export const issuePath = (path: readonly PropertyKey[], root = 'body'): string => {
  if (path.length === 0) return root;
  const dotted = path.map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`)).join('');
  return root === 'body' ? dotted : `${root}.${dotted}`;
};

export const validate = <S extends z.ZodType>(schema: S, value: unknown, root = 'body'): z.output<S> => {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const first = issues[0];
  const where = first ? issuePath(first.path, root) : root;
  const described = issues.slice(0, 5).map((issue) => `${issuePath(issue.path, root)}: ${issue.message}`).join('; ');
  const status = 400;
  throw new HttpProblem(status, root === 'query' ? 'invalid-query' : 'invalid-body', `The request ${root === 'query' ? 'query' : 'body'} is not valid (${described}).`, where);
};

/** The session id a (possibly invalid) body names, so a rejected request is still filed under its session. */
export const sessionIdOf = (value: unknown): string | null => {
  if (typeof value !== 'object' || value === null) return null;
  const id = (value as Record<string, unknown>)['session_id'];
  return typeof id === 'string' && id.length > 0 && id.length <= 512 ? id : null;
};
