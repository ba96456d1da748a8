/**
 * What observe-mode guards would have stopped, counted by guard and reason: the report a team reads before
 * switching a guard to enforce. Counts tool calls and outgoing text alike.
 */
import type { Projection } from './projection.ts';

export interface WouldBlockReport {
  readonly total: number;
  /** `layer/reason` → count. */
  readonly byReason: Readonly<Record<string, number>>;
  /** The most recent would-block decisions (newest last), capped. */
  readonly recent: readonly { readonly sessionId: string; readonly layer: string; readonly reasons: readonly string[]; readonly at: string }[];
}

const recentCap = 100;

export const wouldBlockReport: Projection<WouldBlockReport> = {
  name: 'would-block-report',
  version: 1,
  initial: () => ({ total: 0, byReason: {}, recent: [] }),
  evolve: (state, { event }) => {
    if (event.type !== 'ToolCallDecided' && event.type !== 'OutputChecked') return state;
    if (event.data.wouldBlock.length === 0) return state;
    const byReason = { ...state.byReason };
    for (const verdict of event.data.wouldBlock)
      for (const reason of verdict.reasons.length ? verdict.reasons : ['unspecified']) {
        const key = `${verdict.layer}/${reason}`;
        byReason[key] = (byReason[key] ?? 0) + 1;
      }
    const entries = event.data.wouldBlock.map((v) => ({ sessionId: event.data.sessionId, layer: v.layer, reasons: v.reasons, at: event.data.at }));
    return { total: state.total + 1, byReason, recent: [...state.recent, ...entries].slice(-recentCap) };
  },
};
