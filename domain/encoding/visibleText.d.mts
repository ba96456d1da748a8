/** Types of visibleText.mjs (plain JavaScript, shared with the hook client, which runs without tsx). */
export interface VisibleRule {
  /** Stable kebab-case name. */
  readonly name: string;
  /** Inclusive code point ranges, disjoint from every other row's. */
  readonly ranges: readonly (readonly [number, number])[];
  readonly why: string;
  /** A text holding a character of this row, and how it renders. */
  readonly example: string;
  readonly shown: string;
}
export declare const visibleRules: readonly VisibleRule[];
export declare const visibleText: (text: string, options?: { readonly multiline?: boolean }) => string;
export declare const visibleJsonText: (json: string) => string;
export declare const visibleJson: (value: unknown, indent?: number) => string;
