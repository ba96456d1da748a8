/** Every row's examples through the real bash grammar: its stops found by the row and blocked by the floor, its allows left alone. */
import { expect } from 'chai';
import { exampleFacts } from '../../../../../domain/gate/selfProtection/exampleFacts.ts';
import { findSelfProtection } from '../../../../../domain/gate/selfProtection/selfProtectionLayer.ts';
import type { ShellAnalysis } from '../../../../../domain/shell/shellAnalysis.ts';

export interface ExampleRow {
  readonly name: string;
  readonly stops: readonly string[];
  readonly allows: readonly string[];
  /** Files an earlier call left on disk, as read before decide (absolute path -> text), for rows that judge them. */
  readonly recorded?: Readonly<Record<string, string>>;
}

export const describeRowExamples = <R extends ExampleRow>(
  rows: readonly R[], analyze: (line: string) => ShellAnalysis, rowFindings: (row: R, line: string) => readonly unknown[],
): void => {
  for (const row of rows) {
    describe(row.name, () => {
      for (const line of row.stops) {
        it(`blocks: ${line}`, () => {
          const analysis = analyze(line);
          expect(analysis.parsed, analysis.problems.join('; ')).to.equal(true);
          expect(rowFindings(row, line)).to.have.length.greaterThan(0);
          const found = findSelfProtection({ tool: 'terminal', args: { command: line }, shell: analysis, protection: exampleFacts, scripts: row.recorded ?? {} });
          expect(found.some((f) => f.verdict === 'block')).to.equal(true);
        });
      }
      for (const line of row.allows) it(`allows: ${line}`, () => expect(rowFindings(row, line)).to.deep.equal([]));
    });
  }
};
