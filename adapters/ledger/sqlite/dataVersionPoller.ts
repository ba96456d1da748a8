/**
 * Notices commits made by other connections (another process on the same file) by polling PRAGMA data_version,
 * which changes only when someone else commits. Runs only while there are live subscriptions.
 */
export interface DataVersionPoller {
  /** Starts or stops polling for this many subscribers. */
  watchers(count: number): void;
  stop(): void;
}

export const dataVersionPoller = (readVersion: () => number, intervalMs: number, onChange: () => void): DataVersionPoller => {
  let timer: NodeJS.Timeout | undefined;
  let version = 0;
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    watchers: (count) => {
      if (count === 0) return stop();
      if (timer) return;
      version = readVersion();
      timer = setInterval(() => {
        const current = readVersion();
        if (current !== version) {
          version = current;
          onChange();
        }
      }, intervalMs);
      timer.unref();
    },
    stop,
  };
};
