/**
 * Between ledger records and domain events: validate on the way in, upcast and validate on the way out.
 * A record that does not decode is an error with its position, never silently skipped.
 */
import { catalogue, type EventName, type TollgateEvent } from './catalogue.ts';
import type { EventType } from './eventType.ts';
import type { z } from 'zod';

/** The shape of a ledger record that decoding needs (structural, so the domain depends on no adapter). */
export interface StoredEvent { readonly type: string; readonly version: number; readonly data: unknown; readonly position?: number }
export interface EncodedEvent { readonly type: string; readonly version: number; readonly data: unknown; readonly metadata?: Record<string, unknown> }

const byName = new Map<string, EventType<string, z.ZodType>>(catalogue.map((t) => [t.type, t]));

export class EventDecodeError extends Error {
  constructor(readonly position: number | null, readonly eventType: string, problem: string) {
    super(`Event ${eventType}${position === null ? '' : ` at position ${position}`} does not decode: ${problem}`);
    this.name = 'EventDecodeError';
  }
}

export const isKnownEventType = (type: string): type is EventName => byName.has(type);

/** Validates an event's data and stamps the current version; metadata is kept as given. */
export const encodeEvent = (event: TollgateEvent, metadata?: Record<string, unknown>): EncodedEvent => {
  const type = byName.get(event.type);
  if (!type) throw new EventDecodeError(null, event.type, 'unknown event type');
  const parsed = type.schema.safeParse(event.data);
  if (!parsed.success) throw new EventDecodeError(null, event.type, parsed.error.message);
  return metadata ? { type: event.type, version: type.version, data: parsed.data, metadata } : { type: event.type, version: type.version, data: parsed.data };
};

/** Upcasts an older version step by step, then validates against the current schema. */
export const decodeEvent = (recorded: StoredEvent): TollgateEvent => decodeWith(byName, recorded) as TollgateEvent;

/** Decoding against any set of event types (the catalogue, or a test's own types with older versions). */
export const decodeWith = (types: ReadonlyMap<string, EventType<string, z.ZodType>>, recorded: StoredEvent): { type: string; data: unknown } => {
  const position = recorded.position ?? null;
  const type = types.get(recorded.type);
  if (!type) throw new EventDecodeError(position, recorded.type, 'unknown event type');
  if (recorded.version > type.version) throw new EventDecodeError(position, recorded.type, `version ${recorded.version} is newer than this build knows (${type.version})`);
  let data = recorded.data;
  for (let v = recorded.version; v < type.version; v++) {
    const upcaster = type.upcasters.find((u) => u.from === v);
    if (!upcaster) throw new EventDecodeError(position, recorded.type, `no upcaster from version ${v}`);
    data = upcaster.up(data);
  }
  const parsed = type.schema.safeParse(data);
  if (!parsed.success) throw new EventDecodeError(position, recorded.type, parsed.error.message);
  return { type: recorded.type, data: parsed.data };
};
