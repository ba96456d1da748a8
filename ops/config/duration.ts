/** Durations as people write them in config and scenario files: `90s`, `30m`, `13h`, `31d`, `250ms`, or seconds. */
const units: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export const parseDurationMs = (text: string | number): number => {
  if (typeof text === 'number') {
    if (!Number.isFinite(text) || text < 0) throw new Error(`duration must be a non-negative number of seconds, got ${text}`);
    return text * 1000;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration (use a number with ms, s, m, h or d, e.g. 90s)`);
  return Number(match[1]) * (units[match[2] ?? 's'] ?? 1000);
};
