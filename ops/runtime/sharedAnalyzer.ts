/** The bash grammar is loaded once per process and shared by every gate in it (eval opens many). */
import { loadBashAnalyzer } from '../../adapters/shell/bashAnalyzer.ts';

let loading: ReturnType<typeof loadBashAnalyzer> | null = null;

export const sharedBashAnalyzer = (): ReturnType<typeof loadBashAnalyzer> => {
  loading ??= loadBashAnalyzer();
  return loading;
};
