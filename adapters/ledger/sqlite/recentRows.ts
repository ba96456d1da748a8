/**
 * The rows this process committed most recently, so live subscribers in the same process read them from memory
 * instead of querying the file again. Only whole, committed groups go in, and only while positions stay
 * contiguous: when another process wrote in between, the cache restarts and those reads go to the file.
 */
import type { StoredEvent } from '../storedEvent.ts';

export interface RecentRows {
  /** Rows with position > after, up to `through` and at most `limit`; null when the cache cannot answer all of them. */
  read(after: number, through: number, limit: number): StoredEvent[] | null;
  committed(rows: readonly StoredEvent[]): void;
}

export const recentRows = (capacity = 2048): RecentRows => {
  let rows: StoredEvent[] = [];
  const first = () => rows[0]?.position ?? Number.POSITIVE_INFINITY;
  const last = () => rows[rows.length - 1]?.position ?? 0;
  return {
    read: (after, through, limit) => {
      if (rows.length === 0 || after + 1 < first() || through > last()) return null;
      const start = after + 1 - first();
      return rows.slice(start, start + Math.min(limit, through - after));
    },
    committed: (added) => {
      if (added.length === 0) return;
      if (added[0]!.position !== last() + 1) rows = [];
      rows.push(...added);
      if (rows.length > capacity) rows = rows.slice(rows.length - capacity / 2);
    },
  };
};
