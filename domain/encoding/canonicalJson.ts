/**
 * Canonical JSON: object keys sorted by code unit, no insignificant white space, `undefined` members dropped.
 * The same value always encodes to the same bytes, which is what hashes, HMAC digests and fingerprints need.
 * Values JSON cannot carry exactly (NaN, Infinity, bigint, functions, symbols) are refused, not coerced.
 */
export const canonicalJson = (value: unknown): string => encode(value, '$');

const encode = (value: unknown, path: string): string => {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${path} is not a finite number`);
      return JSON.stringify(value);
    case 'object':
      if (Array.isArray(value)) return `[${value.map((item, i) => encode(item ?? null, `${path}[${i}]`)).join(',')}]`;
      return encodeObject(value as Record<string, unknown>, path);
    default:
      throw new TypeError(`canonicalJson: ${path} has type ${typeof value}, which JSON cannot carry`);
  }
};

const encodeObject = (object: Record<string, unknown>, path: string): string => {
  const members: string[] = [];
  for (const key of Object.keys(object).sort()) {
    const member = object[key];
    if (member === undefined) continue;
    members.push(`${JSON.stringify(key)}:${encode(member, `${path}.${key}`)}`);
  }
  return `{${members.join(',')}}`;
};
