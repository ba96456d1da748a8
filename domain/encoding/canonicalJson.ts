/**
 * Canonical JSON: object keys sorted by code unit, no insignificant white space, `undefined` members dropped.
 * The same value always encodes to the same bytes, which is what hashes, HMAC digests and fingerprints need.
 * Values JSON cannot carry exactly (NaN, Infinity, bigint, functions, symbols) are refused, not coerced.
 * On the hot path (every event is hashed): the error path is built only when something is refused.
 */
export const canonicalJson = (value: unknown): string => {
  try {
    return encode(value);
  } catch (error) {
    if (error instanceof Refused) throw new TypeError(`canonicalJson: $${error.path} ${error.problem}`);
    throw error;
  }
};

class Refused extends Error {
  constructor(readonly problem: string, public path = '') {
    super(problem);
  }
}

const encode = (value: unknown): string => {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new Refused('is not a finite number');
      return JSON.stringify(value);
    case 'object':
      return Array.isArray(value) ? encodeArray(value) : encodeObject(value as Record<string, unknown>);
    default:
      throw new Refused(`has type ${typeof value}, which JSON cannot carry`);
  }
};

const encodeArray = (items: readonly unknown[]): string => {
  let out = '[';
  for (let i = 0; i < items.length; i++) {
    if (i > 0) out += ',';
    try {
      out += encode(items[i] ?? null);
    } catch (error) {
      if (error instanceof Refused) error.path = `[${i}]${error.path}`;
      throw error;
    }
  }
  return `${out}]`;
};

const encodeObject = (object: Record<string, unknown>): string => {
  let out = '{';
  let first = true;
  for (const key of Object.keys(object).sort()) {
    const member = object[key];
    if (member === undefined) continue;
    try {
      out += `${first ? '' : ','}${JSON.stringify(key)}:${encode(member)}`;
    } catch (error) {
      if (error instanceof Refused) error.path = `.${key}${error.path}`;
      throw error;
    }
    first = false;
  }
  return `${out}}`;
};
