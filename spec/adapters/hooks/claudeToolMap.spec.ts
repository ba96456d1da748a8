import { expect } from 'chai';
import { claudeToolMappings, mapClaudeToolCall } from '../../../adapters/hooks/claudeToolMap.mjs';

/** One example per row of the table: the Claude Code input (as documented) and what the gate must see. */
const examples: Record<string, { input: Record<string, unknown>; tool: string; args: Record<string, unknown> }> = {
  Bash: {
    input: { command: 'rm -rf /', description: 'wipe', timeout: 120000, run_in_background: false },
    tool: 'terminal', args: { command: 'rm -rf /', timeout: 120000, background: false },
  },
  Write: { input: { file_path: '/p/a.md', content: 'x' }, tool: 'write_file', args: { path: '/p/a.md', content: 'x' } },
  Edit: {
    input: { file_path: '/p/a.md', old_string: 'a', new_string: 'b', replace_all: true },
    tool: 'patch', args: { mode: 'replace', path: '/p/a.md', old_string: 'a', new_string: 'b', replace_all: true },
  },
  MultiEdit: {
    input: { file_path: '/p/a.md', edits: [{ old_string: 'a', new_string: 'b' }] },
    tool: 'patch', args: { mode: 'replace', path: '/p/a.md', edits: [{ old_string: 'a', new_string: 'b' }] },
  },
  NotebookEdit: {
    input: { notebook_path: '/p/n.ipynb', cell_id: 'c1', new_source: 'print(1)', edit_mode: 'replace' },
    tool: 'patch', args: { mode: 'notebook', path: '/p/n.ipynb', cell_id: 'c1', new_source: 'print(1)', edit_mode: 'replace' },
  },
  Read: { input: { file_path: '/p/a.md', offset: 10, limit: 5 }, tool: 'read_file', args: { path: '/p/a.md', offset: 10, limit: 5 } },
  Glob: { input: { pattern: '**/*.ts', path: '/p' }, tool: 'search_files', args: { target: 'files', pattern: '**/*.ts', path: '/p' } },
  Grep: { input: { pattern: 'TODO', path: '/p', glob: '*.ts' }, tool: 'search_files', args: { target: 'content', pattern: 'TODO', path: '/p', file_glob: '*.ts' } },
  WebFetch: { input: { url: 'https://example.com', prompt: 'sum up' }, tool: 'web_extract', args: { urls: ['https://example.com'], prompt: 'sum up' } },
  WebSearch: { input: { query: 'tollgate', allowed_domains: ['a.com'] }, tool: 'web_search', args: { query: 'tollgate', allowed_domains: ['a.com'] } },
  Task: { input: { description: 'find', prompt: 'find the bug', subagent_type: 'general' }, tool: 'delegate_task', args: { goal: 'find the bug', context: 'find', subagent_type: 'general' } },
  TodoWrite: { input: { todos: [{ content: 'x', status: 'pending' }] }, tool: 'todo', args: { todos: [{ content: 'x', status: 'pending' }] } },
};

describe('Claude Code tool mapping', () => {
  it('has an example for every row and no example without a row', () => {
    expect(Object.keys(examples).sort()).to.deep.equal(claudeToolMappings.map((r) => r.claude).sort());
  });

  for (const row of claudeToolMappings) {
    it(`${row.claude} → ${row.tool}`, () => {
      const example = examples[row.claude]!;
      const mapped = mapClaudeToolCall(row.claude, example.input);
      expect(mapped.tool).to.equal(example.tool);
      // As sent to the daemon: keys whose value is undefined disappear in JSON.
      expect(JSON.parse(JSON.stringify(mapped.args))).to.deep.equal(example.args);
      expect(mapped.mapped).to.equal(true);
    });
  }

  it('keeps MCP tool names and arguments as they are', () => {
    const input = { owner: 'acme', repo: 'widgets', title: 't' };
    expect(mapClaudeToolCall('mcp__github__create_issue', input)).to.deep.equal({ tool: 'mcp__github__create_issue', args: input, mapped: false });
  });

  it('passes unknown tools through and wraps a non-object input', () => {
    expect(mapClaudeToolCall('SomeNewTool', 'text')).to.deep.equal({ tool: 'SomeNewTool', args: { input: 'text' }, mapped: false });
    expect(mapClaudeToolCall('SomeNewTool', null)).to.deep.equal({ tool: 'SomeNewTool', args: {}, mapped: false });
  });

  it('sends a Bash call without a command with no command, which the gate blocks as unparseable', () => {
    expect(JSON.parse(JSON.stringify(mapClaudeToolCall('Bash', {}).args))).to.deep.equal({});
  });
});
