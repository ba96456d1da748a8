import { expect } from 'chai';
import { parseScenarioFile, ScenarioFileError } from '../../../ops/eval/parseScenarioFile.ts';

const line = (value: unknown) => JSON.stringify(value);

describe('scenario files', () => {
  it('skips blank and // lines and reads every step kind', () => {
    const text = ['// comment', '', line({ id: 'a', config: { approvals: { yolo: true } }, steps: [
      { user: 'hi', sender: 'u1' }, { tool: 'terminal', args: { command: 'ls' }, expect: 'allow', reason: 'x' },
      { reply: 'done', expect: 'allow' }, { approve: 'once' }, { parallel: [{ tool: 't', args: {} }] }, { restart: true }, { advance: '90s' },
    ] })].join('\n');
    const [located] = parseScenarioFile(text, 'f.jsonl');
    expect(located?.line).to.equal(3);
    expect(located?.scenario.steps.map((s) => s.kind)).to.deep.equal(['user', 'tool', 'reply', 'approve', 'parallel', 'restart', 'advance']);
    expect(located?.scenario.session.id).to.equal('main');
  });

  const malformed: [string, string, RegExp][] = [
    ['bad JSON', '{"id": ', /f\.jsonl:1: not valid JSON/],
    ['a step with two kinds', line({ id: 'x', steps: [{ user: 'a', tool: 'b' }] }), /one kind/],
    ['a misspelt field', line({ id: 'x', steps: [{ tool: 't', expct: 'allow' }] }), /expct/],
    ['an unknown expectation', line({ id: 'x', steps: [{ tool: 't', expect: 'maybe' }] }), /steps\.0/],
    ['a bad duration', line({ id: 'x', steps: [{ advance: 'soon' }] }), /duration/],
    ['a file path with ..', line({ id: 'x', files: { '../etc/passwd': 'x' }, steps: [{ user: 'a' }] }), /relative path/],
    ['no steps', line({ id: 'x', steps: [] }), /steps/],
    ['a configuration key that does not exist', line({ id: 'x', config: { approvals: { yolo: 'yes' } }, steps: [{ user: 'a' }] }), /config is not valid: approvals\.yolo/],
  ];
  for (const [what, text, message] of malformed)
    it(`rejects ${what} with the file, the line and what is wrong`, () => {
      expect(() => parseScenarioFile(text, 'f.jsonl')).to.throw(ScenarioFileError).with.property('message').that.matches(message);
    });

  it('rejects a duplicate id and names the first line', () => {
    const text = [line({ id: 'x', steps: [{ user: 'a' }] }), line({ id: 'x', steps: [{ user: 'b' }] })].join('\n');
    expect(() => parseScenarioFile(text, 'f.jsonl')).to.throw(/f\.jsonl:2: id "x" is already used on line 1/);
  });
});
