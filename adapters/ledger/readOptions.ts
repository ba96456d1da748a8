/** Checks and fills in read and subscribe options once, so adapters only see sane numbers and filters. */
import { LedgerInputError, START } from './port.ts';
import type { LedgerFilter, ReadAllOptions, ReadStreamOptions, SubscribeOptions } from './port.ts';

/** A filter as adapters use it; `undefined` members mean "no restriction". */
export interface NormalizedFilter {
  readonly streamPrefixes: readonly string[] | undefined;
  readonly types: readonly string[] | undefined;
}

const count = (value: unknown, what: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw new LedgerInputError(`${what} must be an integer >= 0`);
};

const strings = (value: unknown, what: string): readonly string[] | undefined => {
  if (value === undefined) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value as string[];
  throw new LedgerInputError(`${what} must be an array of strings`);
};

export const normalizeFilter = (filter: LedgerFilter | undefined): NormalizedFilter => ({
  streamPrefixes: strings(filter?.streamPrefixes, 'filter.streamPrefixes'),
  types: strings(filter?.types, 'filter.types'),
});

/** An empty list keeps nothing, as "starts with one of these" reads; leave the member out to keep everything. */
export const matchesFilter = (filter: NormalizedFilter, stream: string, type: string): boolean =>
  (filter.streamPrefixes === undefined || filter.streamPrefixes.some((prefix) => stream.startsWith(prefix))) &&
  (filter.types === undefined || filter.types.includes(type));

export const normalizeReadAll = (options: ReadAllOptions | undefined) => ({
  fromPosition: count(options?.fromPosition, 'fromPosition', START),
  maxCount: count(options?.maxCount, 'maxCount', Number.POSITIVE_INFINITY),
  filter: normalizeFilter(options?.filter),
});

export const normalizeReadStream = (options: ReadStreamOptions | undefined) => ({
  fromRevision: count(options?.fromRevision, 'fromRevision', 0),
  maxCount: count(options?.maxCount, 'maxCount', Number.POSITIVE_INFINITY),
});

export const normalizeSubscribe = (options: SubscribeOptions | undefined) => ({
  fromPosition: count(options?.fromPosition, 'fromPosition', START),
  filter: normalizeFilter(options?.filter),
});
