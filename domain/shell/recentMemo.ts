/**
 * A memo keyed by object identity that keeps the last few keys. Many rows of the gate ask about the same few
 * commands of one line; a WeakMap answers that too, but each entry keyed by a short-lived command is an ephemeron
 * the collector must trace, which cost several per cent of a decision. A miss only recomputes.
 */
export const recentMemo = <K extends object, V>(compute: (key: K) => V, size = 16): ((key: K) => V) => {
  const keys: (K | undefined)[] = Array.from({ length: size }, () => undefined);
  const values: (V | undefined)[] = Array.from({ length: size }, () => undefined);
  let next = 0;
  return (key: K): V => {
    for (let i = 0; i < size; i++) if (keys[i] === key) return values[i] as V;
    const value = compute(key);
    keys[next] = key;
    values[next] = value;
    next = (next + 1) % size;
    return value;
  };
};

/**
 * A memo keyed by text, forgotten whole once it holds `size` answers: the same few keys (a glob, a program name)
 * come back call after call, and a stream of distinct ones costs only recomputing, never memory.
 */
export const boundedMemo = <V>(compute: (key: string) => V, size = 256): ((key: string) => V) => {
  const answers = new Map<string, V>();
  return (key: string): V => {
    if (answers.has(key)) return answers.get(key) as V;
    const value = compute(key);
    if (answers.size >= size) answers.clear();
    answers.set(key, value);
    return value;
  };
};
