/** The one rule every adapter applies to `expected`, given the stream's last revision (-1 when it has none). */
import { ANY, NO_STREAM, STREAM_EXISTS, WrongExpectedRevisionError } from './port.ts';
import type { ExpectedRevision } from './port.ts';

export const NO_REVISION = -1;

export const isExpectedRevision = (expected: ExpectedRevision, actual: number): boolean => {
  switch (expected) {
    case ANY:
      return true;
    case NO_STREAM:
      return actual === NO_REVISION;
    case STREAM_EXISTS:
      return actual !== NO_REVISION;
    default:
      return actual === expected;
  }
};

export const wrongExpectedRevision = (stream: string, expected: ExpectedRevision, actual: number) =>
  new WrongExpectedRevisionError(stream, expected, actual === NO_REVISION ? NO_STREAM : actual);
