/** The real bash analyzer for specs, loaded once per test run. */
import { loadBashAnalyzer, type BashAnalyzer } from '../../adapters/shell/bashAnalyzer.ts';
import type { ShellAnalysis } from '../../domain/shell/shellAnalysis.ts';

let loading: Promise<BashAnalyzer> | undefined;

export const bashAnalyzer = (): Promise<BashAnalyzer> => (loading ??= loadBashAnalyzer());

/** Loads the analyzer in a mocha `before` hook and returns a synchronous `analyze` for the tests. */
export const useBashAnalyzer = (): ((line: string) => ShellAnalysis) => {
  let analyzer: BashAnalyzer | undefined;
  before(async () => {
    analyzer = await bashAnalyzer();
  });
  return (line) => {
    if (!analyzer) throw new Error('Assertion failed: the bash analyzer is not loaded yet');
    return analyzer.analyze(line);
  };
};
