/**
 * A fold applied again until the text stops changing, at most `rounds` times: chains (`'a' . 'b' . 'c'`,
 * `Path(a) / 'b' / 'c'`) fold one link a pass, and the bound keeps a pathological line cheap.
 */
export const repeatedFold = (text: string, rounds: number, step: (text: string) => string): string => {
  let out = text;
  for (let i = 0; i < rounds; i++) {
    const next = step(out);
    if (next === out) return out;
    out = next;
  }
  return out;
};
