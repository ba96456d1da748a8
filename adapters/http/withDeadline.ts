/** Races work against a deadline; the work is not cancelled (the gate still records it), only no longer awaited. */
export type Raced<T> = { readonly timedOut: false; readonly value: T } | { readonly timedOut: true };

export const withDeadline = <T>(work: Promise<T>, ms: number): Promise<Raced<T>> => {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<Raced<T>>((resolve) => { timer = setTimeout(() => resolve({ timedOut: true }), ms); });
  return Promise.race([work.then((value): Raced<T> => ({ timedOut: false, value })), deadline])
    .finally(() => clearTimeout(timer));
};
