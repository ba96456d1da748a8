// Claude Code tool calls as the gate knows them. The gate's rule tables are written against Hermes' tool names and
// argument names (`terminal {command}`, `write_file {path, content}`, `patch {path, ...}`, ...), so each Claude Code
// tool is translated to the Hermes tool that does the same thing. One row per tool; every row has a test
// (spec/adapters/hooks/claudeToolMap.spec.ts). Plain JavaScript: it is loaded by the hook fast path (no tsx).

/** @param {Record<string, unknown>} input @param {readonly string[]} keys */
const pick = (input, keys) => {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const key of keys) if (input[key] !== undefined) out[key] = input[key];
  return out;
};

/**
 * @typedef {{ readonly claude: string, readonly tool: string, readonly why: string,
 *   readonly args: (input: Record<string, unknown>) => Record<string, unknown> }} ClaudeToolRow
 * @type {readonly ClaudeToolRow[]}
 */
export const claudeToolMappings = [
  {
    claude: 'Bash', tool: 'terminal', why: 'Bash runs `command` through a shell, as Hermes\' terminal does: the command floor parses it.',
    args: (i) => ({ command: i['command'], ...pick(i, ['timeout']), ...(i['run_in_background'] === undefined ? {} : { background: i['run_in_background'] }) }),
  },
  {
    claude: 'Write', tool: 'write_file', why: 'Writes a whole file at `file_path`.',
    args: (i) => ({ path: i['file_path'], content: i['content'] }),
  },
  {
    claude: 'Edit', tool: 'patch', why: 'Replaces text in the file at `file_path` (Hermes\' patch in replace mode).',
    args: (i) => ({ mode: 'replace', path: i['file_path'], ...pick(i, ['old_string', 'new_string', 'replace_all']) }),
  },
  {
    claude: 'MultiEdit', tool: 'patch', why: 'Several replacements in one file at `file_path`.',
    args: (i) => ({ mode: 'replace', path: i['file_path'], edits: i['edits'] }),
  },
  {
    claude: 'NotebookEdit', tool: 'patch', why: 'Changes a cell of the notebook at `notebook_path`: a write to that file.',
    args: (i) => ({ mode: 'notebook', path: i['notebook_path'], ...pick(i, ['cell_id', 'new_source', 'cell_type', 'edit_mode']) }),
  },
  {
    claude: 'Read', tool: 'read_file', why: 'Reads the file at `file_path`.',
    args: (i) => ({ path: i['file_path'], ...pick(i, ['offset', 'limit']) }),
  },
  {
    claude: 'Glob', tool: 'search_files', why: 'Finds files by name pattern.',
    args: (i) => ({ target: 'files', pattern: i['pattern'], ...pick(i, ['path']) }),
  },
  {
    claude: 'Grep', tool: 'search_files', why: 'Searches file contents.',
    args: (i) => ({ target: 'content', pattern: i['pattern'], ...pick(i, ['path']), ...(i['glob'] === undefined ? {} : { file_glob: i['glob'] }) }),
  },
  {
    claude: 'WebFetch', tool: 'web_extract', why: 'Fetches one URL (Hermes\' web_extract takes a list).',
    args: (i) => ({ urls: [i['url']], ...pick(i, ['prompt']) }),
  },
  {
    claude: 'WebSearch', tool: 'web_search', why: 'A web search query.',
    args: (i) => ({ query: i['query'], ...pick(i, ['allowed_domains', 'blocked_domains']) }),
  },
  {
    claude: 'Task', tool: 'delegate_task', why: 'Starts a subagent with a goal.',
    args: (i) => ({ goal: i['prompt'], ...(i['description'] === undefined ? {} : { context: i['description'] }), ...pick(i, ['subagent_type']) }),
  },
  {
    claude: 'TodoWrite', tool: 'todo', why: 'The agent\'s own task list.',
    args: (i) => ({ todos: i['todos'] }),
  },
];

/**
 * The gate's tool name and arguments for a Claude Code tool call. MCP tools (`mcp__<server>__<tool>`) and tools
 * without a row keep their name and arguments as they are; a non-object input is wrapped as `{input}`.
 * @param {string} toolName @param {unknown} toolInput
 * @returns {{ tool: string, args: Record<string, unknown>, mapped: boolean }}
 */
export const mapClaudeToolCall = (toolName, toolInput) => {
  const input = toolInput !== null && typeof toolInput === 'object' && !Array.isArray(toolInput)
    ? /** @type {Record<string, unknown>} */ (toolInput)
    : toolInput === undefined || toolInput === null ? {} : { input: toolInput };
  const row = claudeToolMappings.find((r) => r.claude === toolName);
  if (row === undefined) return { tool: toolName, args: { ...input }, mapped: false };
  return { tool: row.tool, args: row.args(input), mapped: true };
};
