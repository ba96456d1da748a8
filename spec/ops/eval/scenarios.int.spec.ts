/**
 * The scenario files run through `tollgate eval` exactly as users run them: the project's own files always,
 * and the shared public examples when ../shared is beside the clone (CI has it; a fresh clone does not).
 */
import { expect } from 'chai';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { evaluate } from '../../../ops/cli/commands/eval.ts';

const projectFiles = readdirSync(resolve('spec/scenarios')).filter((f) => f.endsWith('.jsonl')).map((f) => join('spec/scenarios', f));
const shared = resolve('../shared/scenarios/commands.jsonl');

const runFiles = async (files: readonly string[]) => {
  const lines: string[] = [];
  const status = await evaluate(files, false, (line) => lines.push(line));
  return { status, lines, summary: lines[lines.length - 1] ?? '' };
};

describe('tollgate eval', function () {
  this.timeout(120_000);

  for (const file of projectFiles)
    it(`meets every expectation in ${file}`, async () => {
      const { status, lines, summary } = await runFiles([file]);
      expect(lines.filter((l) => l.startsWith('FAIL')), summary).to.deep.equal([]);
      expect(summary).to.match(/^[1-9]\d* passed, 0 failed$/);
      expect(status).to.equal(0);
    });

  it('meets every expectation in ../shared/scenarios/commands.jsonl (the public command-floor examples)', async function () {
    if (!existsSync(shared)) {
      console.log(`      (skipped: ${shared} is not here — it is beside the clone in CI, not in a fresh clone)`);
      this.skip();
    }
    const { status, lines, summary } = await runFiles([shared]);
    expect(lines.filter((l) => l.startsWith('FAIL')), summary).to.deep.equal([]);
    expect(summary).to.match(/^[1-9]\d* passed, 0 failed$/);
    expect(status).to.equal(0);
  });
});
