/** Verdicts of the gate and how layers combine: BLOCK beats ASK beats ALLOW. */

export type Verdict = 'allow' | 'ask' | 'block';

/** Each guard runs in one of two modes; in observe a non-allow verdict is recorded as would-block and allowed. */
export type GuardMode = 'enforce' | 'observe';

/** The layers of the gate, in the order they run. Later issues add policy, provenance and leak. */
export type LayerName =
  /** No layer objected: the call passed every layer. */
  | 'gate'
  | 'input'
  | 'session'
  | 'parse'
  | 'hardline'
  | 'self-protection'
  | 'prohibitions'
  | 'policy'
  | 'provenance'
  | 'leak'
  | 'approvals';

export interface LayerVerdict {
  readonly layer: LayerName;
  readonly verdict: Verdict;
  /** Machine-readable reason codes, e.g. 'hardline:delete-filesystem-root'. */
  readonly reasons: readonly string[];
  /** One sentence for the agent and the human. */
  readonly message: string;
  readonly mode: GuardMode;
}

const rank: Readonly<Record<Verdict, number>> = { allow: 0, ask: 1, block: 2 };

export const isStricter = (a: Verdict, b: Verdict): boolean => rank[a] > rank[b];
