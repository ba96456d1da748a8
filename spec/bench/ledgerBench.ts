/**
 * Ledger benchmarks that return numbers (the bench runner prints and checks them). Run alone with
 * `node --import tsx spec/bench/ledgerBench.ts`. Files live in the system temp folder; measure on the disk the
 * ledger will use, since synchronous=FULL makes every commit wait for fsync.
 */
import { hash, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { GENESIS_HASH } from '../../adapters/ledger/hashChain.ts';
import type { NewEvent } from '../../adapters/ledger/port.ts';
import { openSqliteLedger } from '../../adapters/ledger/sqlite/sqliteLedger.ts';

export interface AppendThroughput {
  readonly ours_per_s: number;
  readonly raw_per_s: number;
  /** ours / raw; the target is at least 0.5. */
  readonly ratio: number;
}

const STREAMS = 16;

/** A decision event of realistic size (about 300 bytes of JSON). */
const decision = (n: number): NewEvent => ({
  type: 'ToolCallDecided',
  data: {
    sessionId: `s-${n % STREAMS}`,
    callId: `call-${n}`,
    tool: 'terminal',
    verdict: n % 7 === 0 ? 'block' : 'allow',
    reasons: n % 7 === 0 ? ['hardline:delete-filesystem-root'] : [],
    fingerprint: 'ab'.repeat(32),
    at: '2026-01-01T00:00:00.000Z',
  },
  metadata: { correlationId: `c-${n}` },
});

const withTempDir = async <T>(run: (dir: string) => Promise<T>): Promise<T> => {
  const dir = await mkdtemp(join(tmpdir(), 'ledger-bench-'));
  try {
    return await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;

/** Our adapter: one append of `batch` events at a time, each acknowledged (its own durable transaction). */
const oursPerSecond = (events: number, batch: number) =>
  withTempDir(async (dir) => {
    const ledger = await openSqliteLedger(join(dir, 'ledger.db'), { onCheckpointProblem: () => undefined });
    try {
      const appends = Math.ceil(events / batch);
      const start = process.hrtime.bigint();
      for (let i = 0; i < appends; i += 1)
        await ledger.append(`session-${i % STREAMS}`, Array.from({ length: batch }, (_, k) => decision(i * batch + k)));
      return (appends * batch) / seconds(start);
    } finally {
      await ledger.close();
    }
  });

/** Plain better-sqlite3: same file settings, same table and row shape, one transaction per append, no checks. */
const rawPerSecond = (events: number, batch: number) =>
  withTempDir(async (dir) => {
    const db = new Database(join(dir, 'raw.db'));
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.exec(`CREATE TABLE events (position INTEGER PRIMARY KEY, stream TEXT NOT NULL, revision INTEGER NOT NULL,
        type TEXT NOT NULL, version INTEGER NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,
        prev_hash TEXT NOT NULL, hash TEXT NOT NULL, id TEXT NOT NULL UNIQUE, UNIQUE (stream, revision)) STRICT`);
      const insert = db.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
      const revisions = new Map<string, number>();
      let position = 0;
      let prevHash = GENESIS_HASH;
      const append = db.transaction((stream: string, batchEvents: NewEvent[]) => {
        let revision = revisions.get(stream) ?? -1;
        const recordedAt = new Date().toISOString();
        for (const event of batchEvents) {
          position += 1;
          revision += 1;
          const data = JSON.stringify(event.data);
          const rowHash = hash('sha256', prevHash + data, 'hex');
          insert.run(position, stream, revision, event.type, 1, data, JSON.stringify(event.metadata), recordedAt, prevHash, rowHash, randomUUID());
          prevHash = rowHash;
        }
        revisions.set(stream, revision);
      });
      const appends = Math.ceil(events / batch);
      const start = process.hrtime.bigint();
      for (let i = 0; i < appends; i += 1)
        append(`session-${i % STREAMS}`, Array.from({ length: batch }, (_, k) => decision(i * batch + k)));
      return (appends * batch) / seconds(start);
    } finally {
      db.close();
    }
  });

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Events per second appended by our sqlite adapter and by raw better-sqlite3 at the same durability, measured in
 * alternating rounds in the same run (fsync times drift), medians compared.
 */
export const appendThroughput = async ({ events = 3000, batch = 1, rounds = 3 }: { events?: number; batch?: number; rounds?: number } = {}): Promise<AppendThroughput> => {
  await oursPerSecond(50, batch);
  await rawPerSecond(50, batch);
  const ours: number[] = [];
  const raw: number[] = [];
  for (let round = 0; round < rounds; round += 1) {
    raw.push(await rawPerSecond(events, batch));
    ours.push(await oursPerSecond(events, batch));
  }
  const ours_per_s = Math.round(median(ours));
  const raw_per_s = Math.round(median(raw));
  return { ours_per_s, raw_per_s, ratio: Math.round((ours_per_s / raw_per_s) * 100) / 100 };
};

/** Events per second our adapter stores when `concurrency` callers append one event each at once (group commit). */
export const groupedAppendThroughput = async ({ events = 20_000, concurrency = 64 }: { events?: number; concurrency?: number } = {}): Promise<number> =>
  withTempDir(async (dir) => {
    const ledger = await openSqliteLedger(join(dir, 'ledger.db'), { onCheckpointProblem: () => undefined });
    try {
      let next = 0;
      const caller = async () => {
        while (next < events) {
          const n = next++;
          await ledger.append(`session-${n % STREAMS}`, [decision(n)]);
        }
      };
      const start = process.hrtime.bigint();
      await Promise.all(Array.from({ length: concurrency }, caller));
      return Math.round(events / seconds(start));
    } finally {
      await ledger.close();
    }
  });

/** Writes `n` events, then times verify() (full hash-chain walk from the file): events per second. */
export const replayVerifyEventsPerSecond = async (n = 200_000): Promise<number> =>
  withTempDir(async (dir) => {
    const ledger = await openSqliteLedger(join(dir, 'ledger.db'), { onCheckpointProblem: () => undefined });
    try {
      const batch = 1000;
      for (let i = 0; i < n; i += batch)
        await ledger.append(`session-${(i / batch) % STREAMS}`, Array.from({ length: Math.min(batch, n - i) }, (_, k) => decision(i + k)));
      const start = process.hrtime.bigint();
      const report = await ledger.verify();
      const elapsed = seconds(start);
      if (!report.ok || report.checked !== n) throw new Error(`verify failed during the bench: ${JSON.stringify(report)}`);
      return Math.round(n / elapsed);
    } finally {
      await ledger.close();
    }
  });

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('append, 1 event per append:', await appendThroughput({ events: 3000, batch: 1 }));
  console.log('append, 100 events per append:', await appendThroughput({ events: 50_000, batch: 100 }));
  console.log('grouped append, 64 concurrent callers, events/s:', await groupedAppendThroughput());
  console.log('verify, events/s:', await replayVerifyEventsPerSecond(200_000));
}
