/** A mistake in how the CLI was called or configured: printed as one clear message, no stack trace. */
export class UsageError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
    this.name = 'UsageError';
  }
}
