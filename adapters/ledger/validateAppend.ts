/**
 * Checks an append before any adapter touches storage, and turns it into the stored shape. Every refusal is a
 * LedgerInputError whose message names the field but never echoes event data (it may be personal data).
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from '../../domain/encoding/canonicalJson.ts';
import { ANY, LedgerInputError, NO_STREAM, STREAM_EXISTS } from './port.ts';
import type { AppendOptions, ExpectedRevision, NewEvent } from './port.ts';

export const MAX_NAME_LENGTH = 200;

/** An event ready to store: defaults filled in, data and metadata encoded once as canonical JSON. */
export interface PreparedEvent {
  readonly id: string;
  readonly type: string;
  readonly version: number;
  readonly data: string;
  readonly metadata: string;
}

export interface PreparedAppend {
  readonly stream: string;
  readonly events: readonly PreparedEvent[];
  readonly expected: ExpectedRevision;
}

// C0 and C1 control characters and DEL: invisible in logs and terminals, so never part of a name.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
const loneSurrogate = /\p{Cs}/u;

/** Stream names, types and ids: non-empty, at most 200 characters, no control characters, well-formed UTF-16. */
export const checkName = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || value.length === 0) throw new LedgerInputError(`${what} must be a non-empty string`);
  if (value.length > MAX_NAME_LENGTH) throw new LedgerInputError(`${what} is longer than ${MAX_NAME_LENGTH} characters`);
  if (controlCharacter.test(value)) throw new LedgerInputError(`${what} contains a control character`);
  // A lone surrogate would not survive UTF-8 storage, and the stored hash would no longer match.
  if (loneSurrogate.test(value)) throw new LedgerInputError(`${what} contains a lone surrogate`);
  return value;
};

export const checkExpectedRevision = (expected: unknown): ExpectedRevision => {
  if (expected === undefined) return ANY;
  if (expected === ANY || expected === NO_STREAM || expected === STREAM_EXISTS) return expected;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return expected;
  throw new LedgerInputError(`expected revision must be ${ANY}, ${NO_STREAM}, ${STREAM_EXISTS} or a revision number >= 0`);
};

const encode = (value: unknown, what: string): string => {
  try {
    return canonicalJson(value);
  } catch (error) {
    throw new LedgerInputError(`${what} cannot be stored as canonical JSON: ${(error as Error).message}`);
  }
};

const prepareEvent = (event: NewEvent, index: number, newId: () => string): PreparedEvent => {
  const where = `event ${index}`;
  if (typeof event !== 'object' || event === null) throw new LedgerInputError(`${where} must be an object`);
  const type = checkName(event.type, `${where} type`);
  const version = event.version ?? 1;
  if (!Number.isSafeInteger(version) || version < 1) throw new LedgerInputError(`${where} version must be an integer >= 1`);
  if (event.data === undefined) throw new LedgerInputError(`${where} data is missing`);
  const metadata = event.metadata ?? {};
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw new LedgerInputError(`${where} metadata must be an object`);
  const id = event.id === undefined ? newId() : checkName(event.id, `${where} id`);
  return { id, type, version, data: encode(event.data, `${where} data`), metadata: encode(metadata, `${where} metadata`) };
};

export const prepareAppend = (
  stream: string,
  events: readonly NewEvent[],
  options: AppendOptions | undefined,
  newId: () => string = randomUUID,
): PreparedAppend => {
  checkName(stream, 'stream name');
  if (!Array.isArray(events) || events.length === 0) throw new LedgerInputError('an append needs at least one event');
  const expected = checkExpectedRevision(options?.expected);
  const prepared = events.map((event, index) => prepareEvent(event, index, newId));
  if (new Set(prepared.map((e) => e.id)).size !== prepared.length)
    throw new LedgerInputError('two events in one append have the same id');
  return { stream, events: prepared, expected };
};
