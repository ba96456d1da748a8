/** The in-process side of live subscriptions: who to tell after a commit, and who to end when the ledger closes. */
export interface LedgerWatchers {
  add(onChange: () => void, onEnd: () => void): () => void;
  changed(): void;
  ended(): void;
  readonly size: number;
}

export const ledgerWatchers = (onCountChange?: (count: number) => void): LedgerWatchers => {
  const watchers = new Set<{ onChange: () => void; onEnd: () => void }>();
  return {
    add: (onChange, onEnd) => {
      const watcher = { onChange, onEnd };
      watchers.add(watcher);
      onCountChange?.(watchers.size);
      return () => {
        if (watchers.delete(watcher)) onCountChange?.(watchers.size);
      };
    },
    changed: () => {
      for (const watcher of watchers) watcher.onChange();
    },
    ended: () => {
      const ending = [...watchers];
      watchers.clear();
      onCountChange?.(0);
      for (const watcher of ending) watcher.onEnd();
    },
    get size() {
      return watchers.size;
    },
  };
};
