/** `tollgate eval FILE... [--json]`: runs scenario files, each scenario in a fresh isolated gate. */
import { readFile } from 'node:fs/promises';
import { Command } from 'commander';
import { parseScenarioFile, ScenarioFileError, type LocatedScenario } from '../../eval/parseScenarioFile.ts';
import { runScenario, type StepResult } from '../../eval/runScenario.ts';

export const evalCommand = (): Command => new Command('eval')
  .description('Run scenario files (format 1); print each failed expectation and "N passed, M failed".')
  .argument('<files...>', 'JSON Lines scenario files')
  .option('--json', 'print one JSON object per step (verdict, reason codes, latency)')
  .addHelpText('after', '\nExit status: 0 all passed, 1 some failed, 2 a file is malformed (nothing runs).\n\nExample:\n  tollgate eval ../shared/scenarios/commands.jsonl')
  .action(async (files: string[], options: { json?: boolean }) => {
    process.exitCode = await evaluate(files, options.json === true, (line) => process.stdout.write(`${line}\n`));
  });

/** Returns the exit status. Parses every file before running anything, so a malformed file runs nothing. */
export const evaluate = async (files: readonly string[], json: boolean, print: (line: string) => void): Promise<number> => {
  const scenarios: LocatedScenario[] = [];
  for (const file of files) {
    let text: string;
    try { text = await readFile(file, 'utf8'); } catch (error) {
      throw new ScenarioFileError(file, 0, `cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
    }
    scenarios.push(...parseScenarioFile(text, file));
  }
  let passed = 0;
  let failed = 0;
  for (const { scenario } of scenarios) {
    const results = await runScenario(scenario);
    for (const result of results) {
      if (json) print(JSON.stringify(result));
      if (result.passed === true) passed++;
      if (result.passed === false) { failed++; if (!json) print(failureLine(result)); }
    }
  }
  print(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
};

const failureLine = (r: StepResult): string => r.error !== undefined
  ? `FAIL ${r.scenario} step ${r.step}: could not run (${r.error})`
  : `FAIL ${r.scenario} step ${r.step}: expected ${r.expected}${r.reason ? ` with reason "${r.reason}"` : ''}, got ${r.verdict} [${r.reasons.join(', ')}] ${r.message}`;
