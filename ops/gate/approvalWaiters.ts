/** Callers waiting for a human's answer to one question; settled when the answer or the expiry is recorded. */
import type { ApprovalResult } from './verdicts.ts';

interface Waiter {
  readonly resolve: (result: ApprovalResult) => void;
  readonly timer: NodeJS.Timeout;
}

export class ApprovalWaiters {
  private readonly waiting = new Map<string, Waiter[]>();

  wait(approvalId: string, timeoutMs: number, onTimeout: () => ApprovalResult): Promise<ApprovalResult> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.remove(approvalId, waiter);
        resolve(onTimeout());
      }, timeoutMs);
      const waiter: Waiter = { resolve, timer };
      this.waiting.set(approvalId, [...(this.waiting.get(approvalId) ?? []), waiter]);
    });
  }

  settle(approvalId: string, result: ApprovalResult): void {
    const waiters = this.waiting.get(approvalId) ?? [];
    this.waiting.delete(approvalId);
    for (const w of waiters) { clearTimeout(w.timer); w.resolve(result); }
  }

  closeAll(): void {
    for (const [approvalId, waiters] of this.waiting)
      for (const w of waiters) { clearTimeout(w.timer); w.resolve({ approvalId, outcome: 'pending', sessionId: null, answer: null }); }
    this.waiting.clear();
  }

  private remove(approvalId: string, waiter: Waiter): void {
    const rest = (this.waiting.get(approvalId) ?? []).filter((w) => w !== waiter);
    if (rest.length) this.waiting.set(approvalId, rest); else this.waiting.delete(approvalId);
  }
}
