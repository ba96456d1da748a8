/**
 * Keeps the signed checkpoint near the head without touching the hot path: commits only note the new head; a
 * timer writes at most once per interval, and close writes the last one. A checkpoint is only ever moved forward
 * along the same chain, so a truncated or rewritten ledger cannot launder itself by appending a new event.
 */
import type { CheckpointSigner } from './checkpoint.ts';
import type { CheckpointStore } from './checkpointStore.ts';

export interface ChainHead {
  readonly position: number;
  readonly hash: string;
}

export interface CheckpointWriterOptions {
  readonly store: CheckpointStore;
  readonly signer: CheckpointSigner;
  /** @defaultValue 100 */
  readonly intervalMs?: number;
  /** The stored hash at a position (undefined when there is no such event). */
  readonly hashAt: (position: number) => string | undefined;
  /** Told when a checkpoint could not be written or was deliberately left in place. @defaultValue process.emitWarning */
  readonly onProblem?: (problem: string) => void;
}

export interface CheckpointWriter {
  committed(head: ChainHead): void;
  /** Writes the latest head now (used by close). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const checkpointWriter = (options: CheckpointWriterOptions): CheckpointWriter => {
  const intervalMs = options.intervalMs ?? 100;
  const report = options.onProblem ?? ((problem: string) => process.emitWarning(problem, 'TollgateLedgerCheckpoint'));
  let lastProblem: string | undefined;
  const warn = (problem: string) => {
    if (problem !== lastProblem) report(problem);
    lastProblem = problem;
  };
  // Once the stored checkpoint disagrees with the chain, it is evidence: keep it for verify and stop moving it.
  let stuck = false;
  const leaveInPlace = (why: string) => {
    stuck = true;
    warn(`Ledger checkpoint left in place: ${why}.`);
  };
  let pending: ChainHead | undefined;
  let writtenPosition = 0;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let closed = false;

  const writeHead = async (head: ChainHead): Promise<void> => {
    let existing;
    try {
      existing = await options.store.read();
    } catch (error) {
      return leaveInPlace(`the stored one cannot be read (${(error as Error).message})`);
    }
    if (existing) {
      const checked = options.signer.check(existing);
      if (!checked.signatureValid) return leaveInPlace(checked.signatureProblem ?? 'its signature is invalid');
      if (existing.position >= head.position) return;
      if (options.hashAt(existing.position) !== existing.hash)
        return leaveInPlace(`the chain no longer matches it at position ${existing.position}`);
    }
    await options.store.write(options.signer.sign(head.position, head.hash));
  };

  const run = (): Promise<void> => {
    if (inFlight) return inFlight;
    if (stuck) return Promise.resolve();
    const head = pending;
    if (!head || head.position <= writtenPosition) return Promise.resolve();
    inFlight = writeHead(head)
      .then(() => {
        writtenPosition = head.position;
        lastProblem = undefined;
      })
      .catch((error: unknown) => warn(`Ledger checkpoint not written: ${(error as Error).message}.`))
      .finally(() => {
        inFlight = undefined;
        if (!closed && !stuck && pending && pending.position > writtenPosition) schedule();
      });
    return inFlight;
  };

  const schedule = () => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, intervalMs);
    timer.unref();
  };

  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    await inFlight;
    await run();
  };

  return {
    committed: (head) => {
      if (!pending || head.position > pending.position) pending = head;
      if (!inFlight) schedule();
    },
    flush,
    close: async () => {
      closed = true;
      await flush();
    },
  };
};
