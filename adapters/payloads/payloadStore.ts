/**
 * The payload store port. Raw user text is personal data: events carry only a reference and an HMAC digest of it,
 * the text lives here, and a retention job deletes it while the ledger stays append-only.
 */
export interface StoredPayload {
  /** A random id; it says nothing about the text. */
  readonly ref: string;
  /** Hex HMAC-SHA256 of the text under the store's key: equal texts match, the text cannot be guessed back. */
  readonly digest: string;
}

export interface PayloadStore {
  /** Keeps `text`, stamped with `now` (ISO-8601), for purgeOlderThan. */
  put(text: string, now: string): Promise<StoredPayload>;
  /** The text, or undefined once purged (or never stored). */
  get(ref: string): Promise<string | undefined>;
  /** Deletes every payload stored before `cutoffIso`; returns the refs it deleted (none on a second run). */
  purgeOlderThan(cutoffIso: string): Promise<string[]>;
  close(): Promise<void>;
}

export class PayloadInputError extends Error {
  readonly type = 'payload-input' as const;
  constructor(message: string) {
    super(message);
    this.name = 'PayloadInputError';
  }
}

/** Normalises a clock reading to toISOString form, so stored times compare correctly as text. */
export const isoInstant = (value: string, what: string): string => {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new PayloadInputError(`${what} must be an ISO-8601 time`);
  return new Date(time).toISOString();
};

export const checkText = (text: unknown): string => {
  if (typeof text !== 'string') throw new PayloadInputError('a payload must be a string');
  return text;
};
