/** Reads a scenario file: one scenario per line; blank lines and `//` lines are skipped; errors name file and line. */
import { parseConfig } from '../config/loadConfig.ts';
import { scenarioSchema, type Scenario } from './scenarioSchema.ts';

export class ScenarioFileError extends Error {
  constructor(readonly file: string, readonly line: number, readonly problem: string) {
    super(`${file}:${line}: ${problem}`);
    this.name = 'ScenarioFileError';
  }
}

export interface LocatedScenario {
  readonly scenario: Scenario;
  readonly file: string;
  readonly line: number;
}

export const parseScenarioFile = (text: string, file: string): LocatedScenario[] => {
  const scenarios: LocatedScenario[] = [];
  const seen = new Map<string, number>();
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '' || trimmed.startsWith('//')) return;
    let value: unknown;
    try { value = JSON.parse(trimmed); } catch (error) {
      throw new ScenarioFileError(file, line, `not valid JSON (${(error as Error).message})`);
    }
    const parsed = scenarioSchema.safeParse(value);
    if (!parsed.success) {
      const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(scenario)'}: ${i.message}`);
      throw new ScenarioFileError(file, line, problems.join('; '));
    }
    if (parsed.data.config !== undefined) {
      try { parseConfig(parsed.data.config, 'config'); } catch (error) {
        throw new ScenarioFileError(file, line, (error as Error).message.replace(/\n\s*/g, ' '));
      }
    }
    const earlier = seen.get(parsed.data.id);
    if (earlier !== undefined) throw new ScenarioFileError(file, line, `id "${parsed.data.id}" is already used on line ${earlier}`);
    seen.set(parsed.data.id, line);
    scenarios.push({ scenario: parsed.data as Scenario, file, line });
  });
  return scenarios;
};
