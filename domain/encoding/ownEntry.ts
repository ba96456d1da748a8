/**
 * Reads a record by a key that came from outside (a session id, an approval id). Plain objects inherit
 * `constructor`, `valueOf` and friends, so `record[key]` alone would find things that were never stored.
 */
export const ownEntry = <T>(record: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;
