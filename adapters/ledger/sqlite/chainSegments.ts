/**
 * verify on several cores: the positions 1..head cut into ranges, each checked by a worker thread on a read-only
 * connection of its own (chainSegmentWorker.mjs), then joined in order. Each row's check needs only its own stored
 * fields and the row before it (its hash covers its stored prevHash; the link compares that prevHash with the stored
 * hash before), so a range is checked alone and the ranges' first links are checked here, where they meet. The
 * report is hashChain.ts' chainReport of the same walk state, so it says what the one-thread walk would say.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { chainProblems, chainReport, GENESIS_HASH, type ChainWalkState, type CheckedCheckpoint } from '../hashChain.ts';
import type { VerifyReport } from '../port.ts';

/** What a worker returns for its range (chainSegmentWorker.mjs' checkSegment). */
export interface SegmentResult {
  readonly after: number;
  readonly through: number;
  readonly checked: number;
  readonly firstPrevHash: string | null;
  readonly lastHash: string | null;
  readonly hashAtCheckpoint: string | null;
  readonly problem: { readonly position: number; readonly kind: 'missing' | 'order' | 'link' | 'changed' | 'end'; readonly next?: number } | null;
}

export interface ParallelVerify {
  /** Below this many events one thread is faster (a worker takes tens of milliseconds to start). @defaultValue 50_000 */
  readonly minEvents?: number;
  /** @defaultValue the cores available, at most 4 */
  readonly workers?: number;
}

const workerFile = new URL('./chainSegmentWorker.mjs', import.meta.url);

/** Whether verify should split a ledger of `head` events across workers. */
export const splitsVerify = (head: number, options: ParallelVerify | undefined): boolean =>
  options !== undefined && head >= (options.minEvents ?? 50_000) && workerCount(options) > 1 && head > 1;

const workerCount = (options: ParallelVerify): number => Math.max(1, Math.min(options.workers ?? Math.min(4, availableParallelism()), 16));

export const verifyInSegments = async (file: string, head: number, options: ParallelVerify, checkpoint?: CheckedCheckpoint): Promise<VerifyReport> => {
  const count = Math.min(workerCount(options), head);
  const size = Math.ceil(head / count);
  const ranges = Array.from({ length: count }, (_, i) => ({ after: i * size, through: Math.min(head, (i + 1) * size) })).filter((r) => r.through > r.after);
  const results = await Promise.all(ranges.map((r) => checkRange(file, r.after, r.through, checkpoint?.position ?? 0)));
  return chainReport(joinSegments(results), head, checkpoint);
};

const checkRange = (file: string, after: number, through: number, checkpointPosition: number): Promise<SegmentResult> =>
  new Promise((done, fail) => {
    const worker = new Worker(workerFile, { workerData: { file, after, through, checkpointPosition } });
    worker.once('message', (message: SegmentResult | { failed: string }) => {
      void worker.terminate();
      if ('failed' in message) fail(new Error(`verify could not read positions ${after + 1}..${through}: ${message.failed}`));
      else done(message);
    });
    worker.once('error', fail);
    worker.once('exit', (code) => { if (code !== 0) fail(new Error(`the verify worker for positions ${after + 1}..${through} stopped (${code})`)); });
  });

/** The walk state the ranges make together, in order: the first break of the first range that has one, or of a link where two meet. */
export const joinSegments = (results: readonly SegmentResult[]): ChainWalkState => {
  let previous = GENESIS_HASH;
  let checked = 0;
  let hashAtCheckpoint: string | undefined;
  for (const [i, r] of results.entries()) {
    const first = r.after + 1;
    const p = r.problem;
    // The order hashChain.ts checks a row in: its position, then its link, then its hash.
    if (p !== null && p.position === first && (p.kind === 'missing' || p.kind === 'order'))
      return stopped(checked, first, p.kind === 'missing' ? chainProblems.missing(first, p.next!) : chainProblems.order(p.next!, first), hashAtCheckpoint);
    if (p !== null && p.position === first && p.kind === 'end') return endOfRows(results, i, checked, first, hashAtCheckpoint);
    if (r.firstPrevHash !== null && r.firstPrevHash !== previous) return stopped(checked, first, chainProblems.link(first), hashAtCheckpoint);
    if (r.hashAtCheckpoint !== null) hashAtCheckpoint = r.hashAtCheckpoint;
    if (p !== null) {
      const total = checked + r.checked;
      if (p.kind === 'end') return endOfRows(results, i, total, p.position, hashAtCheckpoint);
      const problem = p.kind === 'missing' ? chainProblems.missing(p.position, p.next!) : p.kind === 'order' ? chainProblems.order(p.next!, p.position)
        : p.kind === 'link' ? chainProblems.link(p.position) : chainProblems.changed(p.position);
      return stopped(total, p.position, problem, hashAtCheckpoint);
    }
    checked += r.checked;
    previous = r.lastHash ?? previous;
  }
  return { checked, expected: checked + 1, bad: undefined, hashAtCheckpoint };
};

const stopped = (checked: number, position: number, problem: string, hashAtCheckpoint: string | undefined): ChainWalkState =>
  ({ checked, expected: position, bad: { position, problem }, hashAtCheckpoint });

/** A range's rows ended before its last position: the next stored row (in a later range) says which is missing, else the head does. */
const endOfRows = (results: readonly SegmentResult[], at: number, checked: number, expected: number, hashAtCheckpoint: string | undefined): ChainWalkState => {
  for (const later of results.slice(at + 1)) {
    const p = later.problem;
    const next = p !== null && p.position === later.after + 1 && p.kind === 'missing' ? p.next! : p !== null && p.position === later.after + 1 && p.kind === 'end' ? null : later.after + 1;
    if (next !== null) return stopped(checked, expected, chainProblems.missing(expected, next), hashAtCheckpoint);
  }
  // No row after it: the walk ended short of the head, which chainReport tells.
  return { checked, expected, bad: undefined, hashAtCheckpoint };
};
