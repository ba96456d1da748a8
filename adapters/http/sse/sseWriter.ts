/**
 * Writes to one SSE client with backpressure. When `res.write` returns false the writer is blocked until `drain`;
 * producers that can wait (history pages) await `drained()`, pushes that cannot (live events) are queued. A queue
 * past `maxQueuedBytes` means the client is too slow: it is disconnected rather than allowed to grow memory.
 */
import type { ServerResponse } from 'node:http';

export class SseWriter {
  private queue: string[] = [];
  private queuedBytes = 0;
  private blocked = false;
  private ended = false;
  private waiters: (() => void)[] = [];

  constructor(private readonly res: ServerResponse, private readonly maxQueuedBytes: number, private readonly onOverflow: (queuedBytes: number) => void) {
    res.on('drain', this.flush);
    res.on('close', this.release);
  }

  get closed(): boolean { return this.ended || this.res.destroyed; }
  get isBlocked(): boolean { return this.blocked; }
  get queued(): number { return this.queuedBytes; }

  write(chunk: string): void {
    if (this.closed) return;
    if (this.blocked) {
      this.queue.push(chunk);
      this.queuedBytes += Buffer.byteLength(chunk);
      if (this.queuedBytes > this.maxQueuedBytes) {
        const bytes = this.queuedBytes;
        this.queue = [];
        this.queuedBytes = 0;
        this.res.destroy();
        this.onOverflow(bytes);
      }
      return;
    }
    if (!this.res.write(chunk)) this.blocked = true;
  }

  /** Resolves when the client has taken what was written (or went away). */
  drained(): Promise<void> {
    if (!this.blocked || this.closed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.queue = [];
    this.queuedBytes = 0;
    if (!this.res.destroyed) this.res.end();
    this.release();
  }

  private readonly flush = (): void => {
    this.blocked = false;
    while (this.queue.length > 0 && !this.blocked && !this.closed) {
      const chunk = this.queue.shift()!;
      this.queuedBytes -= Buffer.byteLength(chunk);
      if (!this.res.write(chunk)) this.blocked = true;
    }
    if (!this.blocked) this.release();
  };

  private readonly release = (): void => {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  };
}
