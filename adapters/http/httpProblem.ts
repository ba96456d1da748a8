/**
 * A request the daemon refuses, as a value: the HTTP status, a stable code, a sentence for people and the field
 * path (or request part) where the problem is. Every error response has the body `{ error: { code, message, where } }`.
 */
export type ProblemCode =
  | 'bad-request' | 'headers-too-large' | 'bad-json' | 'invalid-body' | 'invalid-query' | 'body-too-large' | 'body-timeout'
  | 'client-closed' | 'unknown-hook' | 'unknown-route' | 'method-not-allowed' | 'unauthorized' | 'unknown-approval'
  | 'unknown-projection' | 'decision-timeout' | 'internal-error'
  | 'unknown-registration' | 'bad-auth' | 'channel-refused';

export interface ErrorBody {
  readonly error: { readonly code: ProblemCode; readonly message: string; readonly where: string };
}

export class HttpProblem extends Error {
  readonly type = 'http-problem' as const;
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    message: string,
    /** The field path (`args.command`), query parameter (`query.verdict`) or request part (`body`, `path`). */
    readonly where: string,
  ) {
    super(message);
    this.name = 'HttpProblem';
  }

  get body(): ErrorBody {
    return { error: { code: this.code, message: this.message, where: this.where } };
  }
}

export const isHttpProblem = (error: unknown): error is HttpProblem => error instanceof HttpProblem;

/** Any thrown value as a problem: HttpProblems stay as they are, everything else is a 500 naming the failure. */
export const asProblem = (error: unknown): HttpProblem => {
  if (isHttpProblem(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new HttpProblem(500, 'internal-error', `The daemon failed while handling the request: ${message}`, 'server');
};
