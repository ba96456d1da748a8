/**
 * How one event type is described: its name, the current schema version and the zod schema of its data,
 * plus upcasters that lift older versions to the current one on read (stored events are never rewritten).
 */
import type { z } from 'zod';

export interface Upcaster {
  /** The version this upcaster reads; it returns data of version `from + 1`. */
  readonly from: number;
  readonly up: (data: unknown) => unknown;
}

export interface EventType<Name extends string, Schema extends z.ZodType> {
  readonly type: Name;
  readonly version: number;
  readonly schema: Schema;
  readonly upcasters: readonly Upcaster[];
}

export const eventType = <Name extends string, Schema extends z.ZodType>(
  type: Name,
  schema: Schema,
  options: { version?: number; upcasters?: readonly Upcaster[] } = {},
): EventType<Name, Schema> => ({ type, schema, version: options.version ?? 1, upcasters: options.upcasters ?? [] });

/** A decoded domain event: its type name and data at the current version. */
export interface DomainEvent<Name extends string = string, Data = unknown> {
  readonly type: Name;
  readonly data: Data;
}
