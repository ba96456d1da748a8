/**
 * The Hermes plugin escapes its prompt text with its own copy of the table (tollgate/visible.py, standard library
 * only); the daemon with domain/encoding/visibleText.mjs. The two must agree row for row and render alike, or the
 * plugin's second line of defence would show something else than the daemon's first.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { visibleRules, visibleText } from '../../../domain/encoding/visibleText.mjs';
import { plainPython, pluginRoot } from './support/python.ts';

const python = `
import json, sys
sys.path.insert(0, ${JSON.stringify(pluginRoot)})
from tollgate.visible import RULES, visible_text
samples = json.loads(sys.stdin.read())
print(json.dumps({"rules": [[n, [list(r) for r in rs]] for n, rs in RULES],
                  "single": [visible_text(s) for s in samples], "multi": [visible_text(s, multiline=True) for s in samples]}))
`;

const samples = fc.sample(fc.array(fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
  fc.constantFrom('\\', '\n', '\x1b[2K', '\u202e', '😀', 'é'),
), { maxLength: 30 }).map((parts) => parts.join('')), { numRuns: 500, seed: 6 });

describe('the plugin\'s visible.py and the daemon\'s visibleText agree', () => {
  it('same rows with the same ranges, and the same rendering of the same texts (lone surrogates included)', () => {
    const run = spawnSync(plainPython(), ['-c', python], { input: JSON.stringify(samples), encoding: 'utf8' });
    expect(run.status, run.stderr).to.equal(0);
    const answer = JSON.parse(run.stdout) as { rules: [string, [number, number][]][]; single: string[]; multi: string[] };
    expect(answer.rules).to.deep.equal(visibleRules.map((r) => [r.name, r.ranges.map(([a, b]) => [a, b])]));
    expect(answer.single).to.deep.equal(samples.map((s) => visibleText(s)));
    expect(answer.multi).to.deep.equal(samples.map((s) => visibleText(s, { multiline: true })));
  });
});
