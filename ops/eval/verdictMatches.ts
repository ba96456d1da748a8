/** Whether a verdict meets a scenario expectation, and whether a `reason` fragment appears. */
import type { Verdict } from '../../domain/gate/verdict.ts';
import type { Expectation } from './scenarioSchema.ts';

export const meetsExpectation = (expected: Expectation, got: Verdict): boolean =>
  expected === 'deny' ? got !== 'allow' : expected === got;

export const mentionsReason = (fragment: string, reasons: readonly string[], message: string): boolean => {
  const needle = fragment.toLowerCase();
  return reasons.some((r) => r.toLowerCase().includes(needle)) || message.toLowerCase().includes(needle);
};
